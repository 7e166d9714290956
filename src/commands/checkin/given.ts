// The answer options shared by `today` and `checkin <key>`, and what they give, read once into the
// PATCH body: flags, `-` for standard input, --from-file.

import { readFileSync } from 'node:fs';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { ANSWER_FIELDS, isEmptyAnswers, orList, parseMood, readTemplate, SECTIONS, type TextField } from '../../core/checkin-answers.js';
import { UsageError, withHint } from '../../errors.js';
import { resolveTeams } from '../../domain/account.js';
import { todayGuess } from '../../domain/days.js';
import { keep, retarget, type DraftTarget } from '../../domain/outbox.js';
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
    .option('--from-activity', 'fill in previous with that suggestion, without questions');
}

/**
 * What the answer options give, read once: the answers (with --team still as given), whether any
 * came from standard input or a file (`typed`), and `at`, which completes them for the check-in
 * once it is known.
 */
export interface Given {
  /** Words were given — as flags, on standard input or in a file — and are kept in the outbox. */
  typed: boolean;
  /** No answer was given at all. */
  none: boolean;
  /** This run's kept entry follows the check-in once it is known (no other draft is touched). */
  moveTo(target: Target): void;
  /** The answers to send, --team resolved (a request for names not cached). */
  answers(target: Target): Promise<CheckInAnswers>;
}

/**
 * Reads the answer options once, before any request: flags, `-` (standard input, read once) and
 * --from-file. What was typed is kept as one outbox entry for the check-in as far as it is known
 * without a request (`guess`: today in the cached or machine's zone, a date, a UUID; `asGiven` for
 * `last`) before anything that can fail: reading it as a template, the mood, resolving team names.
 */
export async function readGiven(ctx: Context, flags: AnswerOptions, guess: () => Target | undefined, asGiven?: string): Promise<Given> {
  const stdinUsers = STDIN_FIELDS.filter((k) => flags[k] === '-');
  if (stdinUsers.length > 1) throw new UsageError('Only one option can read standard input ("-")');
  if (flags.done && flags.notDone) throw new UsageError('--done and --not-done contradict each other; give one');
  if (flags.fromFile !== undefined && flags.edit) throw new UsageError('--from-file and --edit cannot be combined');
  const guessed = guess() ?? (asGiven !== undefined ? { key: asGiven.trim().toLowerCase() } : undefined);
  const early = guessed && { key: guessed.key, resumeCommand: checkInCommand(guessed) };
  const earlyTarget = early && ({ kind: 'check-in', key: early.key } as const);
  // Today in the machine's zone, the person's not known yet: said in the entry, sent for the person's date when it was typed.
  const dayGuessed = early?.resumeCommand === 'checkin today' && todayGuess(ctx).guessed;
  // --resume sends what was kept: nothing is read to be added to it.
  if (flags.resume) {
    noPipeWithResume(`${early?.resumeCommand ?? 'checkin today'} --resume`, stdinUsers.length > 0);
    const read = await fromFlags(ctx, flags);
    if (read.badMood) throw read.badMood;
    return complete(ctx, flags, { ...read, typed: false, piped: false }, undefined);
  }
  const stdin = stdinUsers.length > 0 ? await ctx.io.readStdin() : undefined;
  // Whatever fails from here on leaves what was piped on disk first.
  const keepRaw = () => {
    if (stdin === undefined || stdin.trim() === '' || !earlyTarget) return;
    const field = stdinUsers[0]!;
    keep(
      ctx,
      earlyTarget,
      field === 'fromFile' ? { kind: 'text', text: stdin } : { kind: 'answers', answers: { [field]: stdin.replace(/\s+$/, '') } },
      'piped',
      undefined,
      dayGuessed,
    );
  };
  let read: Read;
  try {
    read = await fromFlags(ctx, flags, stdin);
  } catch (err) {
    keepRaw();
    throw flags.fromFile === '-' && stdin?.trim() && early && err instanceof UsageError && err.hints.length === 0
      ? withHint(err, keptLine(`${early.resumeCommand} --resume -e`))
      : err;
  }
  if (read.typed && earlyTarget) keep(ctx, earlyTarget, { kind: 'answers', answers: read.answers }, read.piped ? 'piped' : 'flag', undefined, dayGuessed);
  if (read.badMood) throw read.badMood;
  return complete(ctx, flags, read, earlyTarget);
}

const STDIN_FIELDS = [...SECTIONS.map((s) => s.field), 'fromFile'] as const;

function complete(ctx: Context, flags: AnswerOptions, read: Read, early: DraftTarget | undefined): Given {
  const teams = flags.team ?? [];
  return {
    typed: read.typed,
    none: isEmptyAnswers(read.answers) && teams.length === 0,
    moveTo(target) {
      const here = { kind: 'check-in', key: target.key } as const;
      if (early) retarget(ctx, early, here, { settled: !todayGuess(ctx).guessed });
      // Nothing kept yet (a key that took a request to know): kept now, before anything else is asked.
      else if (read.typed) keep(ctx, here, { kind: 'answers', answers: read.answers }, read.piped ? 'piped' : 'flag');
    },
    async answers(target) {
      if (teams.length === 0) return read.answers;
      try {
        return { ...read.answers, team_ids: await resolveTeams(ctx, teams) };
      } catch (err) {
        throw read.typed ? withHint(err, keptLine(`${checkInCommand(target)} --resume -t <team>`)) : err;
      }
    },
  };
}

/** The answers the text flags, --mood, --done, --not-done and --from-file give (`stdin`: what standard input held, read once); a mood that cannot be read is `badMood`, thrown once the words are kept. */
async function fromFlags(ctx: Context, flags: AnswerOptions, stdin?: string): Promise<Read> {
  let typed = false;
  /** Flags whose `-` found standard input empty: left out, never sent as an empty answer. */
  const emptyPipe: string[] = [];
  const readValue = (v: string | undefined, flag: string): string | undefined => {
    if (v !== '-') return v;
    typed = true;
    const text = (stdin ?? '').replace(/\s+$/, '');
    // An empty pipe (a command that printed nothing, Ctrl-D at once) would wipe the answer: it is left out.
    if (text.trim() === '') {
      emptyPipe.push(flag);
      return undefined;
    }
    return text;
  };
  let answers: CheckInAnswers = {};
  if (flags.fromFile !== undefined) {
    typed = true;
    let text: string;
    const name = flags.fromFile === '-' ? 'Standard input' : flags.fromFile;
    if (flags.fromFile === '-') text = stdin ?? '';
    else {
      try {
        text = readFileSync(flags.fromFile, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read ${flags.fromFile}: ${whyUnreadable(err as NodeJS.ErrnoException)}`);
      }
    }
    const read = readTemplate(text);
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
  if (emptyPipe.length > 0) {
    const flag = emptyPipe[0]!;
    // Nothing else given: nothing to send (the git recipe on a day without commits, alone).
    if (isEmptyAnswers(answers) && flags.mood === undefined) {
      throw new UsageError(`Nothing came on standard input for ${flag}; nothing was sent`, `To say there is nothing, give it as an empty value: ${flag} "".`);
    }
    // The other answers go; the empty one is left as it was on the service, and said.
    ctx.io.err(`note: nothing came on standard input for ${emptyPipe.join(', ')}: left as it was; the other answers are sent.\n`);
  }
  let badMood: unknown;
  try {
    if (flags.mood !== undefined) answers.mood = parseMood(flags.mood);
  } catch (err) {
    badMood = err;
  }
  // Words given as flags are typed words too: kept like piped ones (a mood or --done alone are not words).
  const piped = typed;
  if (given.some((v) => v !== undefined && v.trim() !== '')) typed = true;
  return { answers, typed, piped, badMood };
}

/** What the answer options gave: the answers, whether they hold words to keep (`typed`), and whether those came from stdin or a file (`piped`). */
interface Read {
  answers: CheckInAnswers;
  typed: boolean;
  piped: boolean;
  badMood?: unknown;
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
