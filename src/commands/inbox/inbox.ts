// `checkin inbox`: the comments and reactions others left on my check-ins and goal updates since I
// last looked, newest first, grouped by what they are on and numbered; `--reply <n>` comments on
// the n-th item's check-in or update, kept as a draft until the service has it. The numbering is
// kept per terminal (ui/io.ts's terminal key): a reply answers the listing this person last saw
// where they typed it, names the thread it answers, and is refused when that listing is missing,
// more than LISTING_HOURS old or has no item n.
import { Command } from '@commander-js/extra-typings';
import type { Commentable } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { isDateKey } from '../../core/datekey.js';
import { shortDay } from '../../core/dayname.js';
import type { InboxListing, ListedItem } from '../../config/store.js';
import { UsageError, withHint } from '../../errors.js';
import { blockedOnMeKept } from '../../domain/blockers.js';
import { today } from '../../domain/days.js';
import { rangeDay } from '../../domain/days.js';
import { commentBody, dropOwn, editKept, newestToEdit, type Entry } from '../../domain/outbox.js';
import { postCommentKept } from '../../domain/writes.js';
import { JSON_FIELDS, jsonOption, printJson, printList, printOne, viewFor, type JsonFlag } from '../../ui/output.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { sayDone } from '../../ui/success.js';
import { blockedOnYouLines, commentRows, inboxRows, relativeTime, type InboxThreadView } from '../../ui/views.js';
import { sanitizeDeep } from '../../ui/sanitize.js';
import { intOption, pauseNotice, type Run } from '../flags.js';
import { gatherInbox, INBOX_DAYS, inboxKey, inboxThreads, readMarker, writeMarker, type InboxThread } from '../../domain/inbox-gather.js';
import { project } from '../../api/validate.js';
import { INBOX } from '../../core/shapes.js';
import { quoted, withContext, withoutContext } from '../../ui/editor-text.js';

/** How long a terminal's listing can be answered by its numbers. */
export const LISTING_HOURS = 12;

/** Where numbers cannot be used (no terminal): the thread's id works from anywhere. */
const BY_ID =
  'Reply by id instead: `checkin comments <check-in id> --add "text"` (`--goal-update <id>` for a goal update); `checkin inbox --json` gives each thread\'s id.';

export interface InboxOptions {
  all?: boolean;
  since?: string;
  json?: JsonFlag;
  reply?: number;
  text?: string;
  edit?: boolean;
}

export function inboxCommand(ctx: Context, run: Run<InboxOptions> = runInbox) {
  return new Command('inbox')
    .description('New comments on your check-ins and goal updates, @mentions of you, and teammates blocked on you; --reply <n> answers one')
    .argument('[text]', 'with --reply: the comment (- reads standard input)')
    .option('--all', 'everything, not only what is new since you last looked')
    .option('--since <day>', `look at check-ins and updates from this day on (default: the last ${INBOX_DAYS} days)`)
    .addOption(
      intOption('--reply <n>', `comment on the check-in or update of item n of the listing last shown in this terminal (for ${LISTING_HOURS} hours)`, 1, 10000),
    )
    .option('-e, --edit', 'with --reply: write the comment in $EDITOR')
    .addOption(jsonOption(JSON_FIELDS.inbox, 'print the threads as JSON'))
    .addHelpText(
      'after',
      `\nEach terminal keeps its own numbering: --reply <n> answers item n of the listing\nlast shown in the terminal it is typed in and names the thread it answers. It is\nrefused when this terminal has no listing, or one more than ${LISTING_HOURS} hours old: run\n\`checkin inbox\` again. With no terminal (a script, cron), reply by id:\ncheckin comments <id> --add "text" (the ids are in --json).\n\nExamples:\n  checkin inbox\n  checkin inbox --reply 2 "Thanks, merged!"\n  checkin inbox --all --since monday --json`,
    )
    .action((text, opts) => run(ctx, { ...opts, ...(text !== undefined && { text }) }));
}

/** A kept item as state.json has it (a file that can be edited): only what a reply can go on, its words as strings. */
function keptItem(v: unknown): ListedItem | null | undefined {
  if (v === null) return null;
  const i = v as Partial<Record<keyof ListedItem, unknown>> | undefined;
  if (typeof i !== 'object' || (i.kind !== 'check-in' && i.kind !== 'goal-update') || typeof i.id !== 'string') return undefined;
  const text = (x: unknown) => (typeof x === 'string' ? x : undefined);
  return {
    kind: i.kind,
    id: i.id,
    ...Object.fromEntries((['quote', 'by', 'what', 'thread'] as const).flatMap((k) => (text(i[k]) === undefined ? [] : [[k, text(i[k])]]))),
  };
}

/** How a thread is named: the walk knows the check-in's date or the update's title; the feed gives its own title. */
function labelOf(t: InboxThread): string {
  if (t.label) return t.label;
  if (t.on?.kind === 'goal-update') return `Goal update “${t.title ?? ''}”`;
  return `Check-in ${t.date && isDateKey(t.date) ? shortDay(t.date) : (t.date ?? '')}`;
}

export async function runInbox(ctx: Context, opts: InboxOptions): Promise<void> {
  if (opts.reply !== undefined) return reply(ctx, opts);
  if (opts.text !== undefined || opts.edit) throw new UsageError('A comment goes with --reply <n>', 'checkin inbox --reply 2 "Thanks!"');
  const since = await rangeDay(ctx, opts.since, '--since');
  const key = await inboxKey(ctx);
  const marker = readMarker(ctx, key);
  // Teammates blocked on me today, asked alongside (best effort: it never stops the inbox).
  const day = await today(ctx);
  const blockers = blockedOnMeKept(ctx, day).catch(() => undefined);
  const inbox = await gatherInbox(ctx, {
    ...(since && { since }),
    ...(marker?.seen_at && !opts.all && { seenAt: marker.seen_at }),
    onPause: pauseNotice(ctx),
  });
  let n = 0;
  const views: InboxThreadView[] = inbox.threads.map((t) => ({
    label: labelOf(t),
    ...(t.url && { url: t.url }),
    items: t.items.map((i) => ({ ...i, n: ++n })),
  }));
  // What each number answers, kept for this terminal only (with who wrote what, where: named when replying).
  const items = inbox.threads.flatMap((t) =>
    t.items.map((i): ListedItem | null =>
      t.on
        ? {
            ...t.on,
            quote: `${i.person?.name ?? ''}: ${i.kind === 'comment' ? (i.body ?? '') : `reacted ${i.emoji ?? ''} ${i.name ?? ''}`}`.slice(0, 400),
            by: (i.person?.name ?? '').slice(0, 100),
            what: i.kind === 'comment' ? 'comment' : `${i.emoji ?? ''} ${i.name ?? ''} reaction`.trim().slice(0, 100),
            thread: labelOf(t).slice(0, 200),
          }
        : null,
    ),
  );
  const terminal = ctx.io.terminal;
  const seenAt = [marker?.seen_at, inbox.newest]
    .filter((x): x is string => Boolean(x))
    .sort()
    .at(-1);
  await writeMarker(
    ctx,
    key,
    { ...(seenAt && { seen_at: seenAt }), unread: 0, checked_at: ctx.now().toISOString() },
    terminal ? { terminal, listing: { at: ctx.now().toISOString(), items } } : undefined,
  );
  const onMe = (await blockers) ?? [];
  if (opts.json) {
    const out = { since: inbox.since, seen_before: marker?.seen_at ?? null, threads: inboxThreads(inbox, true), blocked_on_you: onMe };
    return printJson(ctx.io, project(INBOX, out), opts.json);
  }
  const none =
    marker?.seen_at && !opts.all
      ? `Nothing new on your check-ins and goal updates since ${marker.seen_at.slice(0, 16).replace('T', ' ')} UTC (--all shows everything).`
      : `No comments or reactions on your check-ins and goal updates since ${inbox.since}.`;
  // Said before the list: once the list has started a pager, the screen is the pager's.
  if (onMe.length > 0) ctx.io.err(blockedOnYouLines(await viewFor(ctx.io, ctx.now()), sanitizeDeep(onMe), day));
  if (views.length > 0 && ctx.io.stdoutIsTTY)
    ctx.io.err(terminal ? `Reply: checkin inbox --reply <n> "text"\n` : `Reply: checkin comments <id> --add "text" (the ids are in checkin inbox --json)\n`);
  await printList(ctx.io, ctx.now(), views, false, none, inboxRows);
}

async function reply(ctx: Context, opts: InboxOptions): Promise<void> {
  if (opts.all || opts.since) throw new UsageError('--reply takes the comment only: leave out --all and --since');
  if (opts.edit && opts.text !== undefined) throw new UsageError('Give the comment as text or with --edit, not both');
  if (opts.edit && !ctx.io.stdinIsTTY)
    throw new UsageError('--edit needs a terminal for the editor', 'Give the text: checkin inbox --reply <n> "text" (or - to read it from standard input).');
  if (!opts.edit && opts.text === undefined)
    throw new UsageError('--reply needs the comment: checkin inbox --reply <n> "text" (- reads standard input, -e opens $EDITOR)');
  // The text first, before any request.
  let body = opts.text === '-' ? await ctx.io.readStdin() : opts.text;
  if (body !== undefined && body.trim() === '') throw new UsageError('The comment is empty; nothing was sent');
  const n = opts.reply!;
  const notSent = body !== undefined ? `\nYour reply was not sent. Its text:\n${body}` : '';
  // The numbers are those this person saw in this terminal; no terminal, no numbers.
  const terminal = ctx.io.terminal;
  if (!terminal)
    throw new UsageError('--reply <n> answers by the numbers a listing showed in this terminal, and this run has no terminal', `${BY_ID}${notSent}`);
  let listing: InboxListing | undefined;
  try {
    listing = readMarker(ctx, await inboxKey(ctx))?.listings?.[terminal];
  } catch (err) {
    throw body === undefined ? err : withHint(err, `Your reply was not sent. Its text:\n${body}`);
  }
  const listAgain = 'Run `checkin inbox` (or `checkin inbox --all`) here to list again, then `checkin inbox --reply <n> "text"` with a number it shows.';
  if (!listing || typeof listing.at !== 'string' || !Array.isArray(listing.items))
    throw new UsageError(`No inbox listing was shown in this terminal, so there is no item ${n} to answer`, `${listAgain}${notSent}`);
  const now = ctx.now();
  const shown = relativeTime(listing.at, now);
  if (!(now.getTime() - Date.parse(listing.at) <= LISTING_HOURS * 3600_000)) {
    throw new UsageError(
      `The inbox listing in this terminal was shown ${shown}: its numbers are not answered after ${LISTING_HOURS} hours`,
      `${listAgain}${notSent}`,
    );
  }
  const target = keptItem(listing.items[n - 1]);
  if (target === null) {
    throw new UsageError(
      `Item ${n} cannot be answered from here: the service's link for it names no check-in or goal update`,
      `Open it in the web app (its link is in \`checkin inbox --all\`).${notSent}`,
    );
  }
  if (!target && n <= listing.items.length)
    throw new UsageError(`Item ${n} of the listing kept for this terminal cannot be read (state.json holds something else there)`, `${listAgain}${notSent}`);
  if (!target) {
    const had =
      listing.items.length === 0 ? 'it had no items' : listing.items.length === 1 ? 'it had item 1 only' : `it had items 1 to ${listing.items.length}`;
    throw new UsageError(`There is no item ${n} in the listing shown in this terminal ${shown} (${had})`, `${listAgain}${notSent}`);
  }
  const on: Commentable = { kind: target.kind, id: target.id };
  const draftTarget = { kind: 'comment', on: on.kind, id: on.id } as const;
  let folds: Entry[] = [];
  if (opts.edit) {
    // The newest reply kept for this thread is where writing starts again; once this is posted, it is done with.
    const kept = newestToEdit(ctx, draftTarget, ['comment', 'text']);
    if (kept) folds = [kept];
    // What is being answered, quoted above the reply (taken out again).
    const context = target.quote ? [`Replying to ${target.quote.split(':')[0]}:`, ...quoted(target.quote.slice(target.quote.indexOf(':') + 1).trim())] : [];
    // The editor's file is this run's draft from the start: a closed terminal leaves what was saved.
    body = withoutContext(await editKept(ctx, draftTarget, withContext(context, kept ? commentBody(kept, { orEmpty: true }) : ''))).replace(/\s+$/, '');
    if (body.trim() === '') {
      dropOwn(ctx, draftTarget);
      throw new UsageError('The comment is empty; nothing was sent');
    }
  }
  const text = body!;
  // Which thread, said before anything is sent: what the listing showed, through the sanitiser.
  const whose = target.by ? `${sanitizeLine(target.by)}'s ${sanitizeLine(target.what ?? 'comment')}` : `the ${sanitizeLine(target.what ?? 'item')}`;
  const under = sanitizeLine(target.thread ?? (on.kind === 'check-in' ? 'a check-in' : 'a goal update'));
  ctx.io.err(`Replying to item ${n} (listed in this terminal ${shown}): ${under} · ${whose}\n`);
  const again = `checkin comments ${on.kind === 'check-in' ? on.id : `--goal-update ${on.id}`} --resume`;
  const created = await postCommentKept(ctx, on, text, { made: opts.edit ? 'editor' : opts.text === '-' ? 'piped' : 'typed', folds, resume: again });
  await sayDone(ctx.io, ctx.now(), `Replied on the ${on.kind === 'check-in' ? 'check-in' : 'goal update'}`, { json: opts.json });
  await printOne(ctx.io, ctx.now(), created, opts.json, (v, c) => commentRows(v, [c]));
}
