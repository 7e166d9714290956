// The answer options shared by `today` and `checkin <key>`, and reading them into the PATCH body:
// flags, `-` for standard input, --from-file.

import { readFileSync } from 'node:fs';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { isEmptyAnswers, parseMood, readTemplate } from '../../core/answers.js';
import { UsageError, withHint } from '../../errors.js';
import { resolveTeams } from '../../domain/account.js';
import { keep, keptLine, retarget, type DraftContent } from '../../domain/drafts.js';
import type { Target } from '../../domain/target.js';
import { JSON_FIELDS, jsonOption, type JsonFlag } from '../../ui/output.js';
import { collect } from '../flags.js';

export interface AnswerOptions {
  previous?: string;
  intentions?: string;
  blockers?: string;
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

export function answerOptions<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('-p, --previous <text>', 'what you did previously (- reads stdin)')
    .option('-i, --intentions <text>', 'what you intend to do next (- reads stdin)')
    .option('-b, --blockers <text>', 'what blocks you; "" for nothing (- reads stdin)')
    .option('-m, --mood <mood>', 'your mood, e.g. focused (none clears it)')
    .option('--done', 'you did what you intended')
    .option('--not-done', 'you did not do what you intended')
    .option('-t, --team <team>', 'share with this team only (UUID or name; repeatable)', collect)
    .option('--from-file <path>', 'read answers from a Markdown file with ## Previous / ## Intentions / ## Blockers sections and a Mood: line (- reads stdin)')
    .option('-e, --edit', 'write the answers in $EDITOR')
    .option('--resume', 'send the draft kept from a failed attempt')
    .addOption(jsonOption(JSON_FIELDS.answers, 'print the check-in as JSON'))
    .option('-w, --web', 'open the check-in in the browser (its link is printed where there is none)')
    .option('--suggest', 'print the suggestion for previous (your last intentions, your activities and git commits since then) and stop')
    .option('--from-activity', 'fill in previous with that suggestion, without questions');
}

/**
 * Answers given on the command line, read from stdin (`-`) or a file; `typed` when any came from
 * stdin or a file. What was typed is kept as a draft for `keepFor` as soon as it is read, before
 * anything that can fail (reading it as a template, resolving team names).
 */
export async function answersFromFlags(ctx: Context, flags: AnswerOptions, keepFor?: Target): Promise<{ answers: CheckInAnswers; typed: boolean }> {
  const stdinUsers = (['previous', 'intentions', 'blockers', 'fromFile'] as const).filter((k) => flags[k] === '-');
  if (stdinUsers.length > 1) throw new UsageError('Only one option can read standard input ("-")');
  if (flags.done && flags.notDone) throw new UsageError('--done and --not-done contradict each other; give one');
  if (flags.fromFile !== undefined && flags.edit) throw new UsageError('--from-file and --edit cannot be combined');
  const draftTarget = keepFor && ({ kind: 'check-in', key: keepFor.key } as const);
  let typed = false;
  const readValue = async (v: string | undefined, flag: string): Promise<string | undefined> => {
    if (v !== '-') return v;
    typed = true;
    const text = (await ctx.io.readStdin()).replace(/\s+$/, '');
    // An empty pipe (a command that printed nothing, Ctrl-D at once) would wipe the answer.
    if (text.trim() === '') throw new UsageError(`Nothing came on standard input for ${flag}; nothing was sent`, `To say there is nothing, give it as an empty value: ${flag} "".`);
    return text;
  };

  let answers: CheckInAnswers = {};
  if (flags.fromFile !== undefined) {
    typed = true;
    let text: string;
    const name = flags.fromFile === '-' ? 'Standard input' : flags.fromFile;
    if (flags.fromFile === '-') {
      text = await ctx.io.readStdin();
      if (draftTarget && text.trim() !== '') keep(ctx, draftTarget, { kind: 'text', text }, 'piped');
    } else {
      try {
        text = readFileSync(flags.fromFile, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read ${flags.fromFile}: ${whyUnreadable(err as NodeJS.ErrnoException)}`);
      }
    }
    const read = readTemplate(text);
    if (read.problems.length > 0) {
      const kept = flags.fromFile === '-' && keepFor ? ` ${keptLine(`${keepFor.resumeCommand} --resume -e`)}` : '';
      throw new UsageError(`${name}: ${read.problems.slice(0, 3).join('; ')}`, ...(kept ? [kept.trim()] : []));
    }
    answers = read.answers;
    if (isEmptyAnswers(answers)) {
      throw new UsageError(`${name} has no ## Previous, ## Intentions or ## Blockers section and no Mood: line`);
    }
  }
  const previous = await readValue(flags.previous, '--previous');
  const intentions = await readValue(flags.intentions, '--intentions');
  const blockers = await readValue(flags.blockers, '--blockers');
  if (previous !== undefined) answers.previous = previous;
  if (intentions !== undefined) answers.intentions = intentions;
  if (blockers !== undefined) answers.blockers = blockers;
  if (flags.done) answers.previous_completed = true;
  if (flags.notDone) answers.previous_completed = false;
  if (typed && draftTarget) keep(ctx, draftTarget, { kind: 'answers', answers: { ...answers } }, 'piped');
  if (flags.mood !== undefined) answers.mood = parseMood(flags.mood);
  if (flags.team && flags.team.length > 0) {
    try {
      answers.team_ids = await resolveTeams(ctx, flags.team);
    } catch (err) {
      throw typed && keepFor ? withHint(err, keptLine(`${keepFor.resumeCommand} --resume -t <team>`)) : err;
    }
  }
  return { answers, typed };
}

/**
 * What is piped (`-`) goes on disk before any request and before any other file is read: as an
 * entry for the check-in as far as it is known (`guess`, the machine's date when nothing else is
 * known). Once the real target is known (`settle`), the same entry is moved there: it is this
 * run's own, so no other draft is touched. Standard input is read once: answersFromFlags reads
 * the same text after.
 */
export async function keepPipedFirst(ctx: Context, flags: AnswerOptions, guess: () => Target | undefined, asGiven?: string): Promise<{ settle(target: Target): Promise<void> }> {
  const field = (['previous', 'intentions', 'blockers', 'fromFile'] as const).find((k) => flags[k] === '-');
  const none = { settle: async () => undefined };
  if (!field || flags.resume) return none;
  const text = await ctx.io.readStdin();
  if (text.trim() === '') return none;
  // `last` takes a request to know: kept under that name until it is known.
  const at = guess() ?? (asGiven !== undefined ? { key: asGiven.trim().toLowerCase() } : undefined);
  if (!at) return none;
  const content: DraftContent = field === 'fromFile' ? { kind: 'text', text } : { kind: 'answers', answers: { [field]: text.replace(/\s+$/, '') } };
  const early = { kind: 'check-in', key: at.key } as const;
  if (!keep(ctx, early, content, 'piped')) return none;
  return {
    async settle(target) {
      retarget(ctx, early, { kind: 'check-in', key: target.key });
    },
  };
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
