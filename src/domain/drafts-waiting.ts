// What waits in the outbox for this account (this service, this person), as both faces list it:
// each draft's id (what `checkin drafts send` and the agent's send_* tools take), what it is for,
// its first words, who wrote it and when it was kept, and whether a send of it is under way or may
// already have reached the service. No request: the outbox is files on this machine.
import type { Context } from '../context.js';
import type { DraftRow } from '../core/shapes.js';
import { accountHere, accountLabel, allHere, contentText, firstWords, sameAccount, targetLabel, whenLabel, type DraftTarget, type Entry } from './outbox.js';

export type DraftState = 'waiting' | 'being-sent' | 'maybe-sent';

/** A draft of this account as core/shapes.ts DRAFT has it, with whether a send of it is under way (or may have reached the service) and its entry. */
export interface WaitingDraft extends DraftRow {
  target: DraftTarget;
  sending: DraftState;
  entry: Entry;
}

/** Every draft of this account, oldest first. */
export function waitingDrafts(ctx: Pick<Context, 'config' | 'env' | 'profile' | 'drafts'>): WaitingDraft[] {
  const outbox = ctx.drafts();
  const here = accountHere(ctx);
  return allHere(ctx).map((entry) => ({
    ...draftRow(ctx, entry, here),
    target: entry.target,
    sending: outbox.sender(entry) ? 'being-sent' : outbox.maybeSent(entry) ? 'maybe-sent' : 'waiting',
    entry,
  }));
}

/** A draft as both faces print it (core/shapes.ts DRAFT: `checkin drafts --json`, the agent's drafts): `here`, the account asking. */
export function draftRow(ctx: Pick<Context, 'config' | 'env' | 'profile' | 'drafts'>, e: Entry, here = accountHere(ctx)): DraftRow {
  const outbox = ctx.drafts();
  const sender = outbox.sender(e);
  const maybe = outbox.maybeSent(e);
  const state = sender
    ? `being written or sent (process ${sender.pid})`
    : maybe
      ? `may have been sent ${whenLabel(maybe)}`
      : e.refused
        ? `refused for its words ${whenLabel(e.refused.at)}`
        : outbox.editedUnwatched(e)
          ? 'edited after checkin stopped'
          : 'waiting';
  const mine = sameAccount(e.account, here);
  return {
    id: e.id,
    for: targetLabel(e.target),
    target: e.target,
    account: e.account,
    made: e.made,
    created_at: e.created_at,
    saved_at: e.saved_at,
    base: e.base ?? 'unknown',
    state,
    here: mine,
    kept_for: mine ? null : accountLabel(e.account, here),
    words: firstWords(e.content),
    text: contentText(e.content),
    content: e.content,
  };
}
