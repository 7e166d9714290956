// `checkin drafts`: everything waiting in the outbox — typed, piped or edited text the service has
// not accepted yet (a failed send, a cancel, a stop signal, an agent's draft) — with its age and
// target; `show`, `send` and `drop` one by its id (or the start of it). Nothing here is sent or
// dropped without the person's word: `send` of a draft kept for another service or person, or of
// one that may already have reached the service, and every `drop`, ask first (a drop takes --yes;
// a send never does: a flag any program can pass is not the person's yes).
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { CancelledError, UsageError } from '../../errors.js';
import { sendEntry } from '../../domain/writes.js';
import {
  accountHere,
  accountLabel,
  boundToProfile,
  firstWords,
  drop,
  otherProfile,
  sameAccount,
  targetLabel,
  whenLabel,
  type Entry,
} from '../../domain/outbox.js';
import { draftRow } from '../../domain/drafts-waiting.js';
import { askedHere } from '../../domain/asked.js';
import { CLI_ADVICE, hereCommand } from '../flags.js';
import { fieldsOf } from '../../api/validate.js';
import { DRAFT } from '../../core/shapes.js';
import { printJson, printList, jsonOption, type JsonFlag } from '../../ui/output.js';
import { sanitize, sanitizeLine } from '../../ui/sanitize.js';
import { sayDone, sayPosted } from '../../ui/success.js';
import { draftRows } from '../../ui/views.js';

/** The fields of `checkin drafts --json` (and `show --json`): core/shapes.ts DRAFT's. */
export const DRAFT_FIELDS = fieldsOf(DRAFT);

export interface DraftsOptions {
  json?: JsonFlag;
}
export interface DraftIdOptions {
  id: string;
  json?: JsonFlag;
  yes?: boolean;
}

export function draftsCommand(ctx: Context) {
  const show = new Command('show')
    .description('Print a draft whole: what it is for, when and how it was written, and its words')
    .argument('<id>', 'its id (or the start of it), as `checkin drafts` lists it')
    .addOption(jsonOption(DRAFT_FIELDS, 'print the draft as JSON'))
    .action((id, opts) => runShow(ctx, { ...opts, id }));
  const send = new Command('send')
    .description('Send a draft as it is (one request), and remove it once the service accepted it')
    .argument('<id>', 'its id (or the start of it)')
    .action((id) => runSend(ctx, { id }));
  const dropCmd = new Command('drop')
    .description('Remove a draft for good (asks first on a terminal)')
    .argument('<id>', 'its id (or the start of it)')
    .option('-y, --yes', 'drop without asking')
    .action((id, opts) => runDrop(ctx, { ...opts, id }));
  return new Command('drafts')
    .description('What you wrote that the service does not have yet: list, show, send or drop it')
    .addOption(jsonOption(DRAFT_FIELDS, 'print the drafts as JSON'))
    .action((opts) => runList(ctx, opts))
    .addCommand(show)
    .addCommand(send)
    .addCommand(dropCmd)
    .addHelpText(
      'after',
      '\nEvery write that carries your words is kept here before it goes out, and stays until the service has it.\nSeveral drafts may wait for one target (three commits logged while the service was down); none replaces another.\n\nExamples:\n  checkin drafts\n  checkin drafts show k7m2\n  checkin drafts send k7m2\n  checkin log --resume        # every activity waiting, oldest first\n  checkin drafts --json id,for,state',
    );
}

export async function runList(ctx: Context, opts: DraftsOptions): Promise<void> {
  const here = accountHere(ctx);
  const rows = ctx
    .drafts()
    .list()
    .map((e) => draftRow(ctx, e, here));
  const named = ctx.config().profileToName() !== undefined;
  await printList(ctx.io, ctx.now(), rows, opts.json, 'No drafts are waiting.', (v, list) => draftRows(v, list, named));
  if (opts.json) return;
  // Kept under another profile: only that profile sends it. Kept for another service or person: sent here on the person's yes.
  const profiles = [...new Set(rows.flatMap((r) => (r.here ? [] : [otherProfile(r.account, here)]).filter((p) => p !== undefined)))];
  const underOther = rows.filter((r) => !r.here && otherProfile(r.account, here) !== undefined).length;
  const elsewhere = rows.filter((r) => !r.here).length - underOther;
  if (underOther > 0)
    ctx.io.err(
      `${underOther} of them ${underOther === 1 ? 'was' : 'were'} kept under another profile (${profiles.map((p) => sanitizeLine(p)).join(', ')}); \`${CLI_ADVICE.asProfile('checkin drafts send <id>', sanitizeLine(profiles[0]!))}\` sends one as its own.\n`,
    );
  if (elsewhere > 0)
    ctx.io.err(
      `${elsewhere} of them ${elsewhere === 1 ? 'was' : 'were'} kept for another service or person (see FOR); \`${hereCommand(ctx, 'checkin drafts send <id>')}\` sends one here once you say yes.\n`,
    );
}

function entryOf(ctx: Context, id: string): Entry {
  const e = ctx.drafts().find(id);
  if (!e) throw new UsageError(`There is no draft ${id}`, `List what waits with \`${hereCommand(ctx, 'checkin drafts')}\`.`);
  return e;
}

export async function runShow(ctx: Context, opts: DraftIdOptions): Promise<void> {
  const row = draftRow(ctx, entryOf(ctx, opts.id));
  if (opts.json) return printJson(ctx.io, row, opts.json);
  // Its profile, where profiles matter or it is another than the one in use (one kept before profiles has none).
  const kept = row.account.profile;
  const profile = kept !== undefined && (ctx.config().profileToName() !== undefined || kept !== ctx.profile().name) ? ` (profile ${kept})` : '';
  ctx.io.page();
  ctx.io.out(
    sanitize(
      `Draft ${row.id}: ${row.for}\nWritten ${whenLabel(row.created_at)} (${row.made === 'agent' ? 'by an agent' : row.made}; base: ${row.base === 'new' || row.base === 'unknown' ? row.base : whenLabel(row.base)})${row.saved_at !== row.created_at ? `, last saved ${whenLabel(row.saved_at)}` : ''}, for ${row.account.api_url}${profile}\nState: ${row.state}\n\n${row.text.replace(/\s+$/, '')}\n`,
    ),
  );
}

/**
 * The person's yes on a terminal; refused (with what to run) where nobody can be asked. A drop takes
 * --yes; a send never does: where words may not be the person's (an agent's, another account's, maybe
 * sent already), a flag any program can pass is not their yes, so it is asked where they can read it.
 */
async function confirmed(ctx: Context, question: string, doing: string, opts: { yes?: boolean }, again: string): Promise<void> {
  if (opts.yes) return;
  if (!ctx.io.canPrompt)
    throw new UsageError(
      `${doing} needs your yes, and there is no terminal to ask on; nothing was done`,
      again.endsWith(' --yes') ? `Run \`${again}\` to do it anyway.` : `At a terminal, \`${again}\` shows it and asks.`,
    );
  if (!(await ctx.prompter().confirm(question, { default: false }))) throw new CancelledError('Nothing was done; the draft is still kept');
}

export async function runSend(ctx: Context, opts: { id: string }): Promise<void> {
  const entry = entryOf(ctx, opts.id);
  const again = hereCommand(ctx, `checkin drafts send ${entry.id}`);
  const here = accountHere(ctx);
  // Kept under another profile: refused, whatever the person would say (that profile sends it).
  boundToProfile(ctx, entry, here);
  const elsewhere = !sameAccount(entry.account, here);
  if (elsewhere)
    await confirmed(
      ctx,
      askedHere(
        ctx,
        `The draft ${entry.id} was kept for ${accountLabel(entry.account, here)} on ${whenLabel(entry.created_at)}. Send it to ${here.api_url} as you?`,
      ),
      `Sending the draft ${entry.id}, kept for ${accountLabel(entry.account, here)}, to ${here.api_url}`,
      {},
      again,
    );
  // An agent's words, or words that may have reached the service: shown whole and asked where they are sent (sendWithDraft).
  const sent = await sendEntry(ctx, entry, { elsewhere });
  // A post has no object to print: the line is its answer, said wherever it runs.
  if (sent.kind === 'webhook-post') await sayPosted(ctx.io, ctx.now(), sent.result);
  else await sayDone(ctx.io, ctx.now(), `Sent the draft ${entry.id} (${targetLabel(entry.target)})`, {});
}

export async function runDrop(ctx: Context, opts: DraftIdOptions): Promise<void> {
  const entry = entryOf(ctx, opts.id);
  const first = sanitizeLine(firstWords(entry.content));
  await confirmed(
    ctx,
    `Drop the draft ${entry.id} (${targetLabel(entry.target)}: "${first.slice(0, 60)}")? Its words are gone for good.`,
    `Dropping the draft ${entry.id} (${targetLabel(entry.target)}: "${first.slice(0, 60)}")`,
    opts,
    hereCommand(ctx, `checkin drafts drop ${entry.id} --yes`),
  );
  drop(ctx, entry);
  ctx.io.err(`Dropped the draft ${entry.id}.\n`);
}
