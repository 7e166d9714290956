// The answer options shared by `today` and `checkin <key>`, and what they give, read once into the
// check-in's plan (domain/checkin-plan.ts): flags, `-` for standard input, --from-file.

import { readFileSync } from 'node:fs';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { ANSWER_FIELDS, isEmptyAnswers, orList, parseMood, readTemplate, SECTIONS, withTemplate, type TextField } from '../../core/checkin-answers.js';
import { answerTemplate } from '../../domain/answer-template.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { UsageError, withHint } from '../../errors.js';
import { isEmptyPlan, keepPlan, type CheckInPlan } from '../../domain/checkin-plan.js';
import { todayGuess } from '../../domain/days.js';
import { keep, type Entry } from '../../domain/outbox.js';
import type { Target } from '../../domain/target.js';
import { JSON_FIELDS, jsonOption, type JsonFlag } from '../../ui/output.js';
import { collect, joinLines, keptLine, noPipeWithResume } from '../flags.js';

/** The answer flags (core/checkin-answers.ts `ANSWER_FIELDS`): a text field's flag by its JSON name, --mood, --done / --not-done. */
export interface AnswerOptions extends Partial<Record<TextField, string>> {
  mood?: string;
  done?: boolean;
  notDone?: boolean;
  team?: string[];
  fromFile?: string;
  edit?: boolean;
  resume?: boolean;
  json?: JsonFlag;
  web?: boolean;
  suggest?: boolean;
  fromActivity?: boolean;
  /** --template (true): the answers not given come from the answer template; --no-template (false): it is left out everywhere. */
  template?: boolean;
}

/** The command that addresses a check-in, as the person types it: `checkin today`, else `checkin checkin <key>`. */
export function checkInCommand(target: Pick<Target, 'key' | 'today'>): string {
  return target.today ? 'checkin today' : `checkin checkin ${target.key}`;
}

export function answerOptions<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  // A text answer given more than once keeps each value, one line each in order (its help says so);
  // the others take one value (program.ts refuses a second).
  for (const f of ANSWER_FIELDS)
    for (const flag of f.flags) f.prompt === 'lines' ? cmd.option(flag.spec, flag.help, joinLines(longFlag(f))) : cmd.option(flag.spec, flag.help);
  return cmd
    .option('-t, --team <team>', 'share with this team only (UUID or name; repeatable)', collect)
    .option(
      '--from-file <path>',
      `read answers from a Markdown file with ${SECTIONS.map((s) => `## ${s.title}`).join(' / ')} sections and a Mood: line (- reads stdin)`,
    )
    .option('-e, --edit', 'write the answers in $EDITOR')
    .option('--resume', 'send the draft kept from a failed attempt')
    .addOption(jsonOption(JSON_FIELDS.answers, 'print the check-in as JSON'))
    .option('-w, --web', 'open the check-in in the browser (its link is printed where there is none)')
    .option('--suggest', 'print the suggestion for previous (your last intentions, your activities and git commits since then) and stop')
    .option('--from-activity', 'fill in previous with that suggestion, without questions')
    .option('--template', 'with answers given (flags, - or --from-file): the ones not given come from your answer template (checkin config set template FILE)')
    .option('--no-template', 'leave your answer template out: the questions and the editor start without it');
}

/** What the command does with the plan (the first that applies, in this order). */
export type Act = 'web' | 'suggest' | 'from-activity' | 'resume' | 'edit' | 'send' | 'none';

/**
 * What the answer options give, read once: the check-in plan (answers, teams, words kept), what to
 * do with it, whether in the editor (-e), and how to print it. Plain data: the command carries it
 * out, asking only for what it lacks.
 */
export interface AnswerPlan extends CheckInPlan {
  act: Act;
  editor: boolean;
  json?: JsonFlag;
  /** The questions' plan: what it was written on (the drafts kept earlier the person built it on, or the one draft sent as it is). */
  folds?: Entry[];
  entry?: Entry;
  /** At the prompts, where the preview showed it: the send is said in one line. */
  confirm?: boolean;
  /** --no-template: the questions and the editor start without the answer template. */
  noTemplate?: true;
}

/** What standard input and --from-file held, read once by `readPlan`. */
export interface ReadInput {
  stdin?: string;
  file?: string;
  /** --template: the answer template's answers, for the answers not given. */
  template?: CheckInAnswers;
}

/** The plan `planOf` reads, with the notes to print and a refusal to throw once its words are kept. */
export interface Planned {
  plan: AnswerPlan;
  notes: string[];
  problem?: unknown;
}

/**
 * Reads the answer options once, before any request: flags, `-` (standard input, read once) and
 * --from-file. What was typed is kept as one outbox entry for the check-in as far as it is known
 * without a request (`guessed`: today in the cached or machine's zone, a date, a UUID; `asGiven`
 * for `last`) before anything that can fail: reading it as a template, the mood, resolving team names.
 */
export async function readPlan(ctx: Context, flags: AnswerOptions, guessed: Target | undefined, asGiven?: string): Promise<AnswerPlan> {
  const stdinUsers = refuseContradictions(flags);
  const early = guessed ?? (asGiven !== undefined ? { key: asGiven.trim().toLowerCase() } : undefined);
  const resume = early && checkInCommand(early);
  const at = early && ({ kind: 'check-in', key: early.key } as const);
  // Today in the machine's zone, the person's not known yet: said in the entry, sent for the person's date when it was typed.
  const dayGuessed = guessed?.today === true && todayGuess(ctx).guessed;
  // --resume sends what was kept: nothing is read to be added to it.
  if (flags.resume) noPipeWithResume(`${resume ?? 'checkin today'} --resume`, stdinUsers.length > 0);
  const stdin = stdinUsers.length > 0 ? await ctx.io.readStdin() : undefined;
  // --template with answers to send: read now (the editor starts from it anyway); refused, once the words are kept, when it cannot be used.
  const template = flags.template && !flags.edit && !flags.web && !flags.suggest ? templateGiven(ctx) : undefined;
  let planned: Planned;
  try {
    planned = planOf(flags, {
      ...(stdin !== undefined && { stdin }),
      ...(flags.fromFile !== undefined && flags.fromFile !== '-' && { file: readFile(flags.fromFile) }),
      ...(template && !(template instanceof UsageError) && { template }),
    });
  } catch (err) {
    // Whatever fails from here on leaves what was piped on disk first.
    if (stdin !== undefined && stdin.trim() !== '' && at) {
      const field = stdinUsers[0]!;
      keep(
        ctx,
        at,
        field === 'fromFile' ? { kind: 'text', text: stdin } : { kind: 'answers', answers: { [field]: stdin.replace(/\s+$/, '') } },
        'piped',
        undefined,
        dayGuessed,
      );
    }
    throw flags.fromFile === '-' && stdin?.trim() && resume && err instanceof UsageError && err.hints.length === 0
      ? withHint(err, keptLine(ctx, `${resume} --resume -e`))
      : err;
  }
  for (const note of planned.notes) ctx.io.err(`note: ${note}\n`);
  const plan = keepPlan(ctx, planned.plan, at, dayGuessed);
  if (planned.problem) throw planned.problem;
  if (template instanceof UsageError) throw template;
  return plan;
}

/** --template: the template's answers, or why it cannot be used (nothing is sent then). */
function templateGiven(ctx: Context): CheckInAnswers | UsageError {
  const t = answerTemplate(ctx);
  if (!t)
    return new UsageError(
      '--template: no answer template is set',
      'Set one with `checkin config set template FILE` (a Markdown file with ## Previous / ## Intentions / ## Blockers).',
    );
  if ('problem' in t) return new UsageError(`--template: the template ${sanitizeLine(t.file)} cannot be used: ${sanitizeLine(t.problem)}; nothing was sent`);
  return t.answers;
}

/**
 * The answer template's answers, to prefill the questions or the editor: none with --no-template
 * or when none is set; when it cannot be read, one warning and the run goes on without it.
 */
export function prefillTemplate(ctx: Context, plan: Pick<AnswerPlan, 'noTemplate'>): CheckInAnswers | undefined {
  if (plan.noTemplate) return undefined;
  const t = answerTemplate(ctx);
  if (!t) return undefined;
  if ('answers' in t) return t.answers;
  ctx.io.err(`warning: the answer template ${sanitizeLine(t.file)} cannot be used (${sanitizeLine(t.problem)}); going on without it\n`);
  return undefined;
}

/** Options that contradict each other, refused before anything is read; the answer options that read standard input. */
export function refuseContradictions(flags: AnswerOptions): StdinField[] {
  const stdinUsers = STDIN_FIELDS.filter((k) => flags[k] === '-');
  if (stdinUsers.length > 1) throw new UsageError('Only one option can read standard input ("-")');
  if (flags.done && flags.notDone) throw new UsageError('--done and --not-done contradict each other; give one');
  if (flags.fromFile !== undefined && flags.edit) throw new UsageError('--from-file and --edit cannot be combined');
  if (flags.template && flags.resume)
    throw new UsageError('--template and --resume cannot be combined', 'The draft is sent as it was kept; `checkin drafts` shows it.');
  return stdinUsers;
}

const STDIN_FIELDS = [...SECTIONS.map((s) => s.field), 'fromFile'] as const;
type StdinField = (typeof STDIN_FIELDS)[number];

/**
 * The plan the answer options give (`input`: what standard input and --from-file held): the
 * answers of the text flags, --from-file, --mood, --done and --not-done; --team as given; whether
 * words were typed; and what to do. Answers that cannot be read throw; a mood that cannot be read,
 * or options that do not go together, are `problem`, thrown once the words are kept. Nothing is read
 * or written here.
 */
export function planOf(flags: AnswerOptions, input: ReadInput = {}): Planned {
  const { answers, words, notes } = answersGiven(flags, input);
  let problem: unknown;
  try {
    if (flags.mood !== undefined) answers.mood = parseMood(flags.mood);
  } catch (err) {
    problem = err;
  }
  const plan: AnswerPlan = {
    answers,
    teams: flags.team ?? [],
    // --resume sends what was kept: what is given with it is no new words.
    words: flags.resume ? 'none' : words,
    act: 'none',
    editor: Boolean(flags.edit),
    // The browser shows it: nothing is printed as JSON.
    ...(flags.json !== undefined && !flags.web && { json: flags.json }),
    ...(flags.template === false && { noTemplate: true as const }),
  };
  plan.act = actOf(flags, plan);
  problem ??= refusedWith(flags);
  return { plan, notes, ...(problem !== undefined && { problem }) };
}

/** The answers of --from-file, the text flags, --done and --not-done, and where their words came from; an empty pipe is left out, with a note. */
function answersGiven(flags: AnswerOptions, input: ReadInput): { answers: CheckInAnswers; words: CheckInPlan['words']; notes: string[] } {
  let piped = false;
  /** Flags whose `-` found standard input empty: left out, never sent as an empty answer. */
  const emptyPipe: string[] = [];
  const readValue = (v: string | undefined, flag: string): string | undefined => {
    if (v !== '-') return v;
    piped = true;
    const text = (input.stdin ?? '').replace(/\s+$/, '');
    // An empty pipe (a command that printed nothing, Ctrl-D at once) would wipe the answer: it is left out.
    if (text.trim() === '') {
      emptyPipe.push(flag);
      return undefined;
    }
    return text;
  };
  let answers: CheckInAnswers = {};
  if (flags.fromFile !== undefined) {
    piped = true;
    const name = flags.fromFile === '-' ? 'Standard input' : flags.fromFile;
    const read = readTemplate((flags.fromFile === '-' ? input.stdin : input.file) ?? '');
    if (read.problems.length > 0) throw new UsageError(`${name}: ${read.problems.slice(0, 3).join('; ')}`);
    answers = read.answers;
    if (isEmptyAnswers(answers)) throw new UsageError(`${name} has no ${orList(SECTIONS.map((s) => `## ${s.title}`))} section and no Mood: line`);
  }
  const given = SECTIONS.map((s) => readValue(flags[s.field], longFlag(s)));
  SECTIONS.forEach((s, i) => {
    if (given[i] !== undefined) answers[s.field] = given[i];
  });
  if (flags.done) answers.previous_completed = true;
  if (flags.notDone) answers.previous_completed = false;
  // --template: the answers not given come from it; an answer named at all (an empty pipe too) is not taken from it.
  if (input.template) {
    const named = new Set<string>(SECTIONS.filter((s) => flags[s.field] !== undefined).map((s) => s.field));
    if (flags.mood !== undefined) named.add('mood');
    answers = {
      ...withTemplate(
        {},
        input.template,
        SECTIONS.filter((s) => named.has(s.field)).map((s) => s.field),
      ),
      ...answers,
    };
  }
  const notes: string[] = [];
  if (emptyPipe.length > 0) {
    const flag = emptyPipe[0]!;
    // Nothing else given: nothing to send (the git recipe on a day without commits, alone).
    if (isEmptyAnswers(answers) && flags.mood === undefined) {
      throw new UsageError(`Nothing came on standard input for ${flag}; nothing was sent`, `To say there is nothing, give it as an empty value: ${flag} "".`);
    }
    // The other answers go; the empty one is left as it was on the service, and said.
    notes.push(`nothing came on standard input for ${emptyPipe.join(', ')}: left as it was; the other answers are sent.`);
  }
  // Words given as flags are typed words too: kept like piped ones (a mood or --done alone are not words).
  const typed = given.some((v) => v !== undefined && v.trim() !== '');
  return { answers, words: piped ? 'piped' : typed ? 'typed' : 'none', notes };
}

/** What the command does: the first that applies. */
function actOf(flags: AnswerOptions, plan: CheckInPlan): Act {
  if (flags.web) return 'web';
  if (flags.suggest) return 'suggest';
  if (flags.fromActivity) return 'from-activity';
  if (flags.resume) return 'resume';
  if (flags.edit) return 'edit';
  return isEmptyPlan(plan) ? 'none' : 'send';
}

/** The suggestion's options that do not go together (the browser is opened whatever else was given). */
function refusedWith(flags: AnswerOptions): UsageError | undefined {
  if (flags.web) return undefined;
  if (flags.suggest && flags.fromActivity) return new UsageError('--suggest prints the suggestion, --from-activity sends it: give one');
  if (flags.fromActivity && flags.previous !== undefined) return new UsageError('--from-activity fills in previous; leave out --previous');
  if (flags.fromActivity && (flags.edit || flags.resume))
    return new UsageError('--from-activity sends without questions; it does not go with --edit or --resume');
  return undefined;
}

/** A file --from-file names, read whole. */
function readFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${path}: ${whyUnreadable(err as NodeJS.ErrnoException)}`);
  }
}

/** A field's long flag as its help names it: `--previous`. */
function longFlag(f: { flags: readonly { spec: string }[] }): string {
  return /--[a-z-]+/.exec(f.flags[0]!.spec)![0];
}

/** Why a file cannot be read, in words. */
function whyUnreadable(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return err.code ?? err.message;
  }
}
