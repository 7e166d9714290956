// Change notices: the drafts (checkin://drafts, and each checkin://drafts/{id}) and today's check-in
// (checkin://check-ins/today) are resources a client can subscribe to, and it is told when an entry
// appears, is sent or is dropped — by the agent, or by the person in a terminal (another process).
// One look at the outbox's folder a second (its files' names, sizes and times — the database, its
// write-ahead log, the editor's files: no entry is read unless one of them changed), bounded in what it lists; a change is said as `resources/updated` for
// the URIs a client subscribed to and `resources/list_changed`. Under 2025-11-25 the client
// subscribes with `resources/subscribe`; under 2026-07-28 with `subscriptions/listen`, whose stream
// the SDK's stdio entry keeps (it routes these same notifications onto each stream that asked).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Context } from '../context.js';

/** The resources a change of the outbox changes. */
export const DRAFTS_URI = 'checkin://drafts';
export const TODAY_URI = 'checkin://check-ins/today';
/** How often the outbox is looked at, and the most of its files one look lists. */
export const LOOK_EVERY_MS = 1000;
const MAX_FILES = 2000;

/** A server listening for notices: what its client subscribed to (2025: resources/subscribe; 2026: the SDK's listen router filters). */
export interface Listener {
  server: McpServer;
  era: 'legacy' | 'modern';
  subscribed: Set<string>;
}

/** The outbox's folder as one look sees it: each file's name, size and time; '' when there is no folder. */
export function outboxLook(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir).sort().slice(0, MAX_FILES);
  } catch {
    return '';
  }
  return names
    .map((n) => {
      try {
        const st = statSync(join(dir, n));
        return `${n}:${st.size}:${st.mtimeMs}`;
      } catch {
        return `${n}:gone`;
      }
    })
    .join('\n');
}

/**
 * Each draft now, with what a change of it would change: when it was saved, its text's size, who is
 * sending it, whether it may have been sent. Read from the outbox only after the folder changed.
 */
function entriesOf(ctx: Context): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const drafts = ctx.drafts();
    for (const e of drafts.list()) {
      out.set(e.id, `${e.saved_at}:${JSON.stringify(e.content).length}:${drafts.sender(e)?.pid ?? ''}:${drafts.maybeSent(e) ?? ''}`);
    }
  } catch {
    // the outbox cannot be read now: the next change is looked at again
  }
  return out;
}

/**
 * Watches the outbox for the whole process and tells every listening server of a change. Returns
 * its stop. `look` and `every` are the folder's reading and the timer's period.
 */
export function watchOutbox(
  ctx: Context,
  listeners: Set<Listener>,
  { look = () => outboxLook(ctx.drafts().dir), every = LOOK_EVERY_MS }: { look?: () => string; every?: number } = {},
): () => void {
  let last = look();
  let before = last === '' ? new Map<string, string>() : entriesOf(ctx);
  const tick = () => {
    const now = look();
    if (now === last) return;
    last = now;
    const after = entriesOf(ctx);
    // The entries that appeared, went, or were written again; a claim's coming and going changes the drafts list's states.
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((id) => before.get(id) !== after.get(id));
    const listChanged = [...before.keys()].some((id) => !after.has(id)) || [...after.keys()].some((id) => !before.has(id));
    before = after;
    for (const l of listeners) void tell(l, [DRAFTS_URI, TODAY_URI, ...changed.map((id) => `${DRAFTS_URI}/${id}`)], listChanged);
  };
  const timer = setInterval(tick, every);
  timer.unref();
  return () => clearInterval(timer);
}

async function tell(l: Listener, uris: string[], listChanged: boolean): Promise<void> {
  if (!l.server.isConnected()) return;
  try {
    for (const uri of uris) {
      // Under 2025 only what the client subscribed to; under 2026 the SDK's router sends each to the streams that asked for it.
      if (l.era === 'legacy' && !l.subscribed.has(uri)) continue;
      await l.server.server.sendResourceUpdated({ uri });
    }
    if (listChanged) await l.server.server.sendResourceListChanged();
  } catch {
    // a client gone away: nothing to tell
  }
}

/** The 2025 subscription requests, on a legacy server: what its client subscribed to is remembered for `tell`. */
export function acceptSubscriptions(l: Listener): void {
  if (l.era !== 'legacy') return;
  l.server.server.setRequestHandler('resources/subscribe', (req) => {
    l.subscribed.add(req.params.uri);
    return {};
  });
  l.server.server.setRequestHandler('resources/unsubscribe', (req) => {
    l.subscribed.delete(req.params.uri);
    return {};
  });
}
