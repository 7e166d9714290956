// Filling in a check-in: answer flags, --from-file, $EDITOR, prompts, drafts and the one PATCH.
// `checkin today` uses it for today's date key; `checkin checkin <key>` for any key.

import { readFile } from 'node:fs/promises';
import { ApiError } from '../api/errors.js';
import { getCheckIn, listCheckIns, patchCheckIn } from '../api/endpoints.js';
import { MOODS, MOOD_NAMES, UUID_RE, type CheckIn, type CheckInAnswers, type Mood } from '../api/types.js';
import { saveDraft } from './drafts.js';
import {
  answersOf,
  buildTemplate,
  isBlankTemplate,
  isEmptyAnswers,
  parseMood,
  parseTemplate,
  previousPrefill,
} from '../core/answers.js';
import { addDays } from '../core/datekey.js';
import type { Context } from '../context.js';
import { CancelledError, HintedError, UsageError } from '../errors.js';
import { renderCheckIn, renderJson } from '../ui/render.js';
import { sanitize } from '../ui/sanitize.js';
import { resolveTeams } from './resolve.js';

export interface AnswerFlags {
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
  json?: boolean;
}

export interface Target {
  /** What goes into the path: a date key or a UUID. */
  key: string;
  /** How messages name it: "today (2026-11-21)", "2026-11-20"… */
  label: string;
  /** The command that resends a draft for it. */
  resumeCommand: string;
  /** The check-in itself, when finding the key already fetched it (`last`). */
  known?: CheckIn;
}

/** Answers given on the command line, read from stdin (`-`) or a file; `typed` when any came from stdin or a file. */
export async function answersFromFlags(ctx: Context, flags: AnswerFlags): Promise<{ answers: CheckInAnswers; typed: boolean }> {
  const stdinUsers = (['previous', 'intentions', 'blockers', 'fromFile'] as const).filter((k) => flags[k] === '-');
  if (stdinUsers.length > 1) throw new UsageError('Only one option can read standard input ("-")');
  if (flags.done && flags.notDone) throw new UsageError('--done and --not-done contradict each other; give one');
  if (flags.fromFile !== undefined && flags.edit) throw new UsageError('--from-file and --edit cannot be combined');
  let typed = false;
  const readValue = async (v: string | undefined): Promise<string | undefined> => {
    if (v !== '-') return v;
    typed = true;
    return (await ctx.io.readStdin()).replace(/\s+$/, '');
  };

  let answers: CheckInAnswers = {};
  if (flags.fromFile !== undefined) {
    typed = true;
    let text: string;
    if (flags.fromFile === '-') text = await ctx.io.readStdin();
    else {
      try {
        text = await readFile(flags.fromFile, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read ${flags.fromFile}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
      }
    }
    answers = parseTemplate(text);
    if (isEmptyAnswers(answers)) {
      throw new UsageError(`${flags.fromFile === '-' ? 'Standard input' : flags.fromFile} has no ## Previous, ## Intentions or ## Blockers section and no Mood: line`);
    }
  }
  const previous = await readValue(flags.previous);
  const intentions = await readValue(flags.intentions);
  const blockers = await readValue(flags.blockers);
  if (previous !== undefined) answers.previous = previous;
  if (intentions !== undefined) answers.intentions = intentions;
  if (blockers !== undefined) answers.blockers = blockers;
  if (flags.mood !== undefined) answers.mood = parseMood(flags.mood);
  if (flags.done) answers.previous_completed = true;
  if (flags.notDone) answers.previous_completed = false;
  if (flags.team && flags.team.length > 0) answers.team_ids = await resolveTeams(ctx, flags.team);
  return { answers, typed };
}

export function draftKey(apiUrl: string, key: string): string {
  return `${apiUrl} check-in ${key}`;
}

/** The check-in, or null when the service has none for that date (absent or not scheduled). */
async function fetchOrNull(ctx: Context, target: Target): Promise<CheckIn | null> {
  try {
    return await getCheckIn(await ctx.api(), target.key);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'http' && err.status === 404;
}

/** The normal outcome of a date with no check-in: a note on stderr, `null` for --json, exit 0. */
export function reportNone(ctx: Context, target: Target, json: boolean | undefined, extra = ''): void {
  if (UUID_RE.test(target.key)) throw new UsageError(`No check-in ${target.key}`);
  ctx.io.err(`No check-in scheduled for ${target.label}${extra}\n`);
  if (json) ctx.io.out('null\n');
}

async function print(ctx: Context, c: CheckIn, json: boolean | undefined): Promise<void> {
  ctx.io.out(json ? renderJson(c) : renderCheckIn(c, await ctx.colors(), ctx.io.stdoutIsTTY));
}

/** The one PATCH, with the typed text kept as a draft until the service accepted it. */
async function send(ctx: Context, target: Target, answers: CheckInAnswers, json: boolean | undefined, keepDraft: boolean): Promise<void> {
  const api = await ctx.api();
  const key = draftKey(api.baseUrl, target.key);
  if (keepDraft) await saveDraft(ctx, key, `check-in ${target.key}`, answers);
  let result: CheckIn;
  try {
    result = await patchCheckIn(api, target.key, answers);
  } catch (err) {
    if (isNotFound(err)) {
      reportNone(ctx, target, json, keepDraft ? ` (your answers are kept as a draft)` : '');
      return;
    }
    if (keepDraft) throw new HintedError(err, `Your answers were kept as a draft; send them with \`${target.resumeCommand} --resume\`.`);
    throw err;
  }
  if (keepDraft) await ctx.config().deleteDraft(key);
  await print(ctx, result, json);
}

/** Fills in (answers given, -e, --from-file, --resume, or prompts when `ask`) or shows the check-in. */
export async function fillCheckIn(ctx: Context, target: Target, flags: AnswerFlags, ask = true): Promise<void> {
  const { io } = ctx;
  if (flags.resume) {
    const api = await ctx.api();
    const draft = ctx.config().draft(draftKey(api.baseUrl, target.key));
    if (!draft) throw new UsageError(`There is no draft for ${target.label}`);
    const { answers } = await answersFromFlags(ctx, flags);
    await send(ctx, target, { ...(draft.content as CheckInAnswers), ...answers }, flags.json, true);
    return;
  }

  const { answers, typed } = await answersFromFlags(ctx, flags);
  if (flags.edit) return editAndSend(ctx, target, answers, flags.json);
  if (!isEmptyAnswers(answers)) return send(ctx, target, answers, flags.json, typed);
  if (ask && io.canPrompt && !flags.json) return interactive(ctx, target);

  // Nothing to send and nobody to ask: show it.
  const c = target.known ?? (await fetchOrNull(ctx, target));
  if (!c) return reportNone(ctx, target, flags.json);
  await print(ctx, c, flags.json);
}

async function editAndSend(ctx: Context, target: Target, given: CheckInAnswers, json: boolean | undefined): Promise<void> {
  const current = await fetchOrNull(ctx, target);
  if (!current) return reportNone(ctx, target, json);
  const prefill = { ...answersOf(current), previous: current.previous ?? (await earlierPrefill(ctx, current)), ...given };
  const text = await ctx.editText(buildTemplate(prefill, current.date));
  const edited = parseTemplate(text);
  if (isBlankTemplate(edited)) throw new CancelledError('Nothing was written; the check-in was not sent');
  await send(ctx, target, { ...edited, ...(given.team_ids && { team_ids: given.team_ids }) }, json, true);
}

/** The intentions of my most recent check-in before this one: what "previous" starts from. */
async function earlierPrefill(ctx: Context, current: CheckIn): Promise<string | null> {
  const me = await ctx.me();
  const earlier = await listCheckIns(await ctx.api(), { people_ids: [me.id], until: addDays(current.date, -1), per_page: 10 });
  return previousPrefill(current, earlier);
}

async function interactive(ctx: Context, target: Target): Promise<void> {
  const { io } = ctx;
  const p = ctx.prompter();
  const c = await ctx.colors();
  const current = await fetchOrNull(ctx, target);
  if (!current) return reportNone(ctx, target, false);
  const api = await ctx.api();
  const key = draftKey(api.baseUrl, target.key);

  let answers: CheckInAnswers = answersOf(current);
  const pending = ctx.config().draft(key);
  if (pending) {
    const when = new Date(pending.saved_at).toLocaleString();
    const choice = await p.select(`You have an unsent draft for ${target.label} (saved ${when}). What now?`, [
      { name: 'Send the draft', value: 'send' },
      { name: 'Go through the questions with the draft filled in', value: 'edit' },
      { name: 'Discard the draft', value: 'discard' },
    ]);
    if (choice === 'send') return send(ctx, target, pending.content as CheckInAnswers, false, true);
    if (choice === 'discard') await ctx.config().deleteDraft(key);
    else answers = { ...answers, ...(pending.content as CheckInAnswers) };
  }
  if (current.completed_at) {
    io.err(c.dim('Already filled in — answering again updates it:\n'));
    io.out(renderCheckIn(current, c, true));
  }

  answers.previous ??= await earlierPrefill(ctx, current);
  const step = async (update: CheckInAnswers) => {
    answers = { ...answers, ...update };
    await saveDraft(ctx, key, `check-in ${target.key}`, answers); // Ctrl-C at the next prompt keeps what was typed
  };
  await step({ previous: await askText(ctx, 'What did you do previously?', answers.previous) });
  await step({ intentions: await askText(ctx, 'What do you intend to do next?', answers.intentions) });
  await step({ blockers: await askText(ctx, 'Are you blocked by anything? (empty: no)', answers.blockers) });
  const mood = await p.select<Mood | null>(
    'Mood',
    [{ name: '— none', value: null }, ...MOOD_NAMES.map((m) => ({ name: `${MOODS[m]} ${m}`, value: m }))],
    { default: answers.mood ?? null },
  );
  await step({ mood });
  const done = await p.select<boolean | null>(
    'Did you do what you intended?',
    [
      { name: 'Yes', value: true },
      { name: 'No', value: false },
      { name: 'Skip', value: null },
    ],
    { default: answers.previous_completed ?? true },
  );
  await step({ previous_completed: done });

  for (;;) {
    io.err(c.dim('\nPreview (not sent yet):\n'));
    io.out(renderCheckIn({ ...current, ...answers, blocked: Boolean(answers.blockers), teams: current.teams } as CheckIn, c, true));
    const next = await p.select('Send it?', [
      { name: 'Send', value: 'send' },
      { name: 'Edit in $EDITOR first', value: 'edit' },
      { name: 'Cancel (keep the draft)', value: 'cancel' },
    ]);
    if (next === 'send') break;
    if (next === 'cancel') throw new CancelledError(`Not sent; your answers are kept as a draft (\`${target.resumeCommand} --resume\` sends them)`);
    const edited = parseTemplate(await ctx.editText(buildTemplate(answers, current.date)));
    if (isBlankTemplate(edited)) throw new CancelledError(`Nothing was written; your earlier answers are kept as a draft`);
    await step(edited);
  }
  await send(ctx, target, withoutNulls(answers), false, true);
}

/**
 * One text answer. A one-line suggestion is the prompt's default; a longer one is shown above
 * the prompt, kept with Enter, and cleared with "-" (the prompt itself is a single line).
 */
async function askText(ctx: Context, message: string, suggestion: string | null | undefined): Promise<string> {
  const p = ctx.prompter();
  if (!suggestion || !suggestion.includes('\n')) return p.input(message, { default: suggestion ?? '' });
  const c = await ctx.colors();
  ctx.io.out(c.dim(sanitize(suggestion).replace(/^/gm, '  ')) + '\n');
  const typed = await p.input(`${message} (Enter keeps the text above, - clears it)`);
  return typed === '' ? suggestion : typed === '-' ? '' : typed;
}

/** What the prompts produced, as the PATCH body: the answer fields only. */
function withoutNulls(a: CheckInAnswers): CheckInAnswers {
  const out: CheckInAnswers = {};
  if (a.previous !== undefined && a.previous !== null) out.previous = a.previous;
  if (a.intentions !== undefined && a.intentions !== null) out.intentions = a.intentions;
  out.blockers = a.blockers ?? '';
  out.mood = a.mood ?? null;
  if (a.previous_completed !== undefined && a.previous_completed !== null) out.previous_completed = a.previous_completed;
  if (a.team_ids) out.team_ids = a.team_ids;
  return out;
}
