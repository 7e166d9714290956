// The MCP server itself, on the official SDK (loaded only by `checkin mcp`): the tools (read.ts,
// write.ts), the resources (today's check-in, the team's day and its open blockers, my goals, the
// drafts; every word from outside marked as read.ts's tools mark it) and one prompt that
// walks an agent through suggest → draft → show → send. It speaks on stdin and stdout; stdout
// carries nothing but protocol messages (ui/io.ts guards it), and everything checkin would
// print goes to stderr; messages are read by stdio.ts (one a line, at most 10 MiB, and what it
// cannot read is answered with an error). It ends when the client closes standard input.
import { completable, McpServer, ProtocolError, ResourceTemplate } from '@modelcontextprotocol/server';
import { getGoal, listGoalUpdates } from '../api/endpoints.js';
import { shortIds } from '../core/short-ids.js';
import { cachedEntry, cachedTeamNames, DAY_WORDS } from '../domain/candidates.js';
import { goalIdOf } from '../domain/short-ids.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { createContext, type Context } from '../context.js';
import { describeError } from '../error-text.js';
import { allHere, contentText, targetNoun } from '../domain/outbox.js';
import { fetchOrNull, todayTarget } from '../domain/target.js';
import { protocolIO } from '../ui/io.js';
import { sanitize, sanitizeLine } from '../ui/sanitize.js';
import { teamDay } from '../domain/team-day.js';
import { openBlockers } from '../domain/blockers.js';
import { findGoals } from '../domain/goals-list.js';
import { entryFor, NoDraftError, othersWords, plainView, readable, type Served } from './kit.js';
import { markedBlockers, markedCheckIn, markedGoal, markedGoals, markedTeamDays } from './marked.js';
import { LineTransport } from './stdio.js';
import { acceptSubscriptions, DRAFTS_URI, watchOutbox, type Listener } from './notices.js';
import { waitingDrafts } from '../domain/drafts-waiting.js';
import { markedDrafts } from './marked.js';
import { registerTools } from './tool.js';
import { DEFAULT_TOOLS, servedTools, type ToolName } from './toolsets.js';
import { CAPABILITIES, instructionsFor, SERVER_INFO, WRITING_GUIDANCE } from './identity.js';
import { TOOLS } from './tools/index.js';
import { tellingIO, tellRequests } from './log.js';

/** What a resource read failed with: the CLI's one-line messages. */
function resourceError(ctx: Context, err: unknown): Error {
  return new Error(describeError(err, ctx.debug.stacks).lines.join('\n'));
}

/** The most values one completion answers with (the protocol's own limit). */
const MAX_COMPLETIONS = 100;
/** A value a client may show and put back in a URI or an argument as it is: one line, nothing hidden. */
const offerable = (v: string) => v !== '' && v.length <= 200 && sanitizeLine(v) === v && !/[\u0085\u2028\u2029]/.test(v);

/** The values that complete `typed`: those starting with it (case-insensitive), then those containing it; at most 100. */
export function completing(values: Iterable<string>, typed: string | undefined): string[] {
  const t = (typed ?? '').toLowerCase();
  const all = [...new Set(values)].filter(offerable);
  const starts = all.filter((v) => v.toLowerCase().startsWith(t));
  const has = all.filter((v) => !v.toLowerCase().startsWith(t) && v.toLowerCase().includes(t));
  return [...starts, ...has].slice(0, MAX_COMPLETIONS);
}

/**
 * Completions, from what checkin has cached or keeps on disk (no request, ever): day words; team
 * names (mine and the directory's); goal ids in their short forms (the start `goals` shows), matched
 * by the id's start or the goal's title; draft ids.
 */
export const complete = {
  day: (ctx: Context, typed: string | undefined) =>
    completing(
      DAY_WORDS.map(([w]) => w),
      typed,
    ),
  team: (ctx: Context, typed: string | undefined) => completing(cachedTeamNames(cachedEntry(ctx)), typed),
  goal: (ctx: Context, typed: string | undefined) => {
    const goals = cachedEntry(ctx).goals ?? [];
    const shorts = shortIds(goals.map((g) => g.id));
    const t = (typed ?? '').toLowerCase();
    const byId = goals.filter((g) => g.id.toLowerCase().startsWith(t) || shorts.get(g.id)!.toLowerCase().startsWith(t));
    const byTitle = goals.filter((g) => !byId.includes(g) && t !== '' && sanitizeLine(g.title).toLowerCase().includes(t));
    return [...byId, ...byTitle]
      .map((g) => shorts.get(g.id)!)
      .filter(offerable)
      .slice(0, MAX_COMPLETIONS);
  },
  draft: (ctx: Context, typed: string | undefined) =>
    completing(
      allHere(ctx).map((d) => d.id),
      typed,
    ),
};

/** My teams' day (or the named ones') as the marked text the team_day tool gives. */
async function teamDayResource(ctx: Context, uri: URL, which: Parameters<typeof teamDay>[1]) {
  try {
    const report = await teamDay(ctx, which);
    return {
      contents: [
        { uri: uri.href, mimeType: 'text/plain', text: readable(report ? markedTeamDays(await plainView(ctx, true), report) : 'You are in no team.\n') },
      ],
    };
  } catch (err) {
    throw resourceError(ctx, err);
  }
}

/** Today's check-in, the team's day (mine, or one team's) and its open blockers. */
function registerDayResources(served: Served): void {
  const { server, ctx } = served;
  server.registerResource(
    'today',
    'checkin://check-ins/today',
    { title: "Today's check-in", description: 'My check-in for today, as text (or that none is scheduled)', mimeType: 'text/plain' },
    async (uri) => {
      try {
        const target = await todayTarget(ctx);
        const c = await fetchOrNull(ctx, target);
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'text/plain',
              text: readable(c ? markedCheckIn(await plainView(ctx), c) : `No check-in scheduled for ${target.label}.\n`),
            },
          ],
        };
      } catch (err) {
        throw resourceError(ctx, err);
      }
    },
  );
  server.registerResource(
    'team-today',
    'checkin://team/today',
    { title: "The team's day", description: "My teams' check-ins today: filled in, not yet, blocked (and by what), none", mimeType: 'text/plain' },
    async (uri) => {
      return teamDayResource(ctx, uri, {});
    },
  );
  server.registerResource(
    'blockers-today',
    'checkin://team/blockers',
    {
      title: "The team's open blockers",
      description: "My teams' open blockers today: who, what, and for how many days in a row (since when) the blocker has stood",
      mimeType: 'text/plain',
    },
    async (uri) => {
      try {
        const found = await openBlockers(ctx, {});
        const text = !found
          ? 'You are in no team.\n'
          : found.blockers.length === 0
            ? `No open blockers on ${found.date}.\n`
            : `${found.blockers.length} open blocker${found.blockers.length === 1 ? '' : 's'} on ${found.date}:\n${markedBlockers(found)}`;
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: readable(text) }] };
      } catch (err) {
        throw resourceError(ctx, err);
      }
    },
  );
  server.registerResource(
    'team-day',
    new ResourceTemplate('checkin://teams/{team}', { list: undefined, complete: { team: (typed) => complete.team(ctx, typed) } }),
    {
      title: "A team's day",
      description: "One of my teams' check-ins today, by the team's name or id: filled in, not yet, blocked (and by what), none",
      mimeType: 'text/plain',
    },
    async (uri, { team }) => {
      return teamDayResource(ctx, uri, { teams: [decodeURIComponent(String(team))] });
    },
  );
}

/** My goals, and one goal with its latest updates. */
function registerGoalResources(served: Served): void {
  const { server, ctx } = served;
  server.registerResource(
    'my-goals',
    'checkin://goals/mine',
    { title: 'My goals', description: 'My goals with their ids (the goal tool takes them), progress, confidence and due dates', mimeType: 'text/plain' },
    async (uri) => {
      try {
        const { goals } = await findGoals(ctx, {});
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: readable(goals.length === 0 ? 'No goals of yours.\n' : markedGoals(goals)) }] };
      } catch (err) {
        throw resourceError(ctx, err);
      }
    },
  );
  server.registerResource(
    'goal',
    new ResourceTemplate('checkin://goals/{goal_id}', { list: undefined, complete: { goal_id: (typed) => complete.goal(ctx, typed) } }),
    { title: 'A goal', description: 'A goal (by its id or the start of it) with its latest updates, newest first', mimeType: 'text/plain' },
    async (uri, { goal_id }) => {
      try {
        const id = await goalIdOf(ctx, decodeURIComponent(String(goal_id)), 'The goal id');
        const api = await ctx.api();
        const [goal, updates] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: 3 })]);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: readable(markedGoal(await plainView(ctx, true), goal, updates)) }] };
      } catch (err) {
        throw resourceError(ctx, err);
      }
    },
  );
}

/** The drafts waiting, and each one. */
function registerDraftResources(served: Served): void {
  const { server, ctx } = served;
  server.registerResource(
    'drafts',
    DRAFTS_URI,
    {
      title: 'The drafts waiting',
      description:
        "The drafts waiting in the outbox (the person's and agents'): each id, what it is for, its state and first words; subscribe to be told when one appears, is sent or is dropped",
      mimeType: 'text/plain',
    },
    async (uri) => {
      try {
        const list = waitingDrafts(ctx);
        const text =
          list.length === 0 ? 'No drafts are waiting.\n' : `${list.length} draft${list.length === 1 ? '' : 's'} waiting, oldest first:\n${markedDrafts(list)}`;
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: readable(text) }] };
      } catch (err) {
        throw resourceError(ctx, err);
      }
    },
  );
  const drafts = async () => allHere(ctx).map((d) => ({ id: d.id, draft: d }));
  server.registerResource(
    'draft',
    new ResourceTemplate('checkin://drafts/{draft_id}', {
      complete: { draft_id: (typed) => complete.draft(ctx, typed) },
      list: async () => {
        try {
          return {
            resources: (await drafts()).map(({ id, draft }) => ({
              uri: `checkin://drafts/${id}`,
              name: id,
              title: `Draft ${id}: ${targetNoun(draft.target)} (${draft.made}, saved ${draft.saved_at})`,
              mimeType: 'text/plain',
            })),
          };
        } catch (err) {
          throw resourceError(ctx, err);
        }
      },
    }),
    {
      title: 'A kept draft',
      description: 'A draft kept on disk (by draft_*, or by the CLI after a failed or refused send): what it says and how to send it',
      mimeType: 'text/plain',
    },
    async (uri, { draft_id }) => {
      try {
        const id = String(draft_id);
        const draft = entryFor(ctx, id);
        const text = `Draft ${draft.id}: ${targetNoun(draft.target)}, ${draft.made === 'agent' ? 'written by an agent' : 'written by the person'}, saved ${draft.saved_at}; \`checkin drafts send ${draft.id}\` sends it from a terminal\n\n${othersWords(draft.made === 'agent' ? 'an agent' : 'the person', contentText(draft.content), { from: 'a draft kept on this machine' })}`;
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: readable(text) }] };
      } catch (err) {
        // A draft that is not there is invalid params (the resource is not), in the agent's words; never an internal error.
        if (err instanceof NoDraftError) throw new ProtocolError(RESOURCE_NOT_FOUND, sanitize(err.message), { uri: uri.href });
        throw resourceError(ctx, err);
      }
    },
  );
}

/** A resource that does not exist: invalid params, as the 2026-07-28 specification asks, on every revision (test/mcp/gate). */
const RESOURCE_NOT_FOUND = -32602;

function registerPrompt(served: Served): void {
  served.server.registerPrompt(
    'write_checkin',
    {
      title: "Write my check-in from today's work",
      description: "Suggest, draft, show, and — once I say yes — send my check-in, following the service's writing guidance",
      argsSchema: { day: completable(z.string().describe('which check-in (default today)'), (typed) => complete.day(served.ctx, typed)).optional() },
    },
    ({ day }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Write my check-in${day ? ` for ${day}` : ' for today'} from my real work, with the checkin tools:`,
              `1. Call get_checkin${day ? ` (day: ${JSON.stringify(day)})` : ''} to see it (and whether one is scheduled), and suggest_previous for what I did since my last check-in: my last intentions, my activities and my commits, each with where it came from. Add what you know of this session's work.`,
              '2. Write the answers: previous (what I did), intentions (what I will do next), blockers, and a mood if I told you one.',
              ...WRITING_GUIDANCE.map((g) => `   - ${g}`),
              '3. Call draft_checkin with the answers. It keeps a draft and sends nothing.',
              '4. Show me the preview it returns, exactly, and ask what to change; draft again until I am happy.',
              '5. Only when I say so, call send_checkin with the draft_id: my client asks me once more before anything is sent. If I say no, or sending is refused, tell me the draft is kept and that `checkin drafts send <draft_id>` (with its id) sends it from my terminal.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}

export interface ServeOptions {
  allowSend: boolean;
  /** `checkin mcp --read-only`: only the tools that read are listed; a write called anyway is refused. */
  readOnly?: boolean;
  /** The tools served, by name (`--tools`, `--toolsets`: toolsets.ts `chooseTools`); undefined: the default sets. */
  tools?: readonly ToolName[];
  /** What the command does once the first answer is out (or at the end, when none was): nothing it does delays the first answer. */
  afterFirstAnswer?: () => void;
}

/** What a write called on a read-only server answers: a tool error saying why, and what the person can do. */
export const READ_ONLY_REFUSAL = (name: string) =>
  `error: ${sanitize(name)} writes, and this server was started with \`checkin mcp --read-only\`: nothing was kept or sent.\nThe person can write it from their terminal, or start the server without --read-only.`;

/**
 * Read-only: the write tools are registered disabled (so tools/list leaves them out), and a call to
 * one is answered with READ_ONLY_REFUSAL (a tool error, in the agent's words) rather than the SDK's
 * bare "Tool … disabled".
 */
function readOnly(server: McpServer, writes: Set<string>): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, (request: { params?: { name?: unknown } }, ctx: unknown) => unknown> })
    ._requestHandlers;
  const call = handlers?.get('tools/call');
  if (!handlers || !call) return;
  handlers.set('tools/call', (request, ctx) => {
    const name = request.params?.name;
    if (typeof name === 'string' && writes.has(name)) return Promise.resolve({ isError: true, content: [{ type: 'text', text: READ_ONLY_REFUSAL(name) }] });
    return call(request, ctx);
  });
}

/**
 * One server for a connection, of the era its opening chose (serveStdio calls it once per
 * connection, and once more for a `server/discover` probe it may throw away): the same tools,
 * resources and prompt for a 2025-11-25 client and a 2026-07-28 one.
 */
export function makeServer(ctx: Context, opts: ServeOptions, era: Served['era'], asking: Served['asking'], listeners?: Set<Listener>): McpServer {
  const names = servedTools(opts.tools ?? DEFAULT_TOOLS, Boolean(opts.readOnly));
  const server = new McpServer(
    { ...SERVER_INFO },
    { instructions: instructionsFor(ctx.config().profileToName(), names), capabilities: structuredClone(CAPABILITIES) },
  );
  if (listeners) {
    const listener: Listener = { server, era, subscribed: new Set() };
    acceptSubscriptions(listener);
    listeners.add(listener);
    const closed = server.server.onclose;
    server.server.onclose = () => {
      listeners.delete(listener);
      closed?.();
    };
  }
  const served: Served = { server, ctx, allowSend: opts.allowSend, era, asking };
  const listed = TOOLS.filter((t) => (opts.tools ?? DEFAULT_TOOLS).includes(t.name));
  const writes = registerTools(served, listed, { readOnly: opts.readOnly });
  // A write called on a read-only server anyway is refused in the agent's words.
  if (opts.readOnly) readOnly(server, writes);
  // The resources, in the order resources/list and resources/templates/list give them.
  registerDayResources(served);
  registerGoalResources(served);
  registerDraftResources(served);
  registerPrompt(served);
  // What checkin warns of while answering is told to a client that asked (log.ts).
  tellRequests(server, era);
  return server;
}

/** Serves until the client closes standard input; stdout's failure (ui/io.ts protocolIO) ends it too, and is returned. */
export async function serve(outer: Context, opts: ServeOptions): Promise<unknown> {
  const { io, input, output, failed } = protocolIO(outer.io);
  const ctx = createContext({ io: tellingIO(io, outer.env), env: outer.env });
  // The profile is chosen once, now (--profile, CHECKIN_PROFILE, the folder's .checkin.json, the
  // default): the session serves that one, whatever `checkin auth switch` says meanwhile.
  if (outer.profileFlag !== undefined) ctx.profileFlag = outer.profileFlag;
  // Chosen already when the first answer was given before this was loaded (first.ts): that one.
  if (outer.opening?.profile) ctx.config().keepProfile(outer.opening.profile);
  ctx.profile();
  // --debug (set on the outer context by the program's hook) traces here too: on stderr.
  ctx.debug.api = outer.debug.api;
  // What bin/checkin.js read (and answered) before this was loaded: read first (stdio.ts).
  const opening = outer.opening;
  outer.opening = undefined;
  const transport = new LineTransport(input, output, undefined, opening);
  let inputEnded = () => {};
  const closed = new Promise<void>((resolve) => {
    inputEnded = resolve;
    input.once('end', () => resolve());
    input.once('close', () => resolve());
  });
  // The questions waiting for the person's answer (2026-07-28's retries), kept for the whole process.
  const asking: Served['asking'] = new Map();
  // The servers a change of the outbox is told to (a probe thrown away leaves when it closes).
  const listeners = new Set<Listener>();
  // The outbox (SQLite, when there are drafts) is first looked at once the first answer is out: a
  // host gives a server about a second to answer initialize or server/discover, and that answer
  // needs none of it (nothing can be subscribed to before it).
  let stopWatching = () => {};
  let later: (() => void) | undefined = () => {
    later = undefined;
    stopWatching = watchOutbox(ctx, listeners);
    opts.afterFirstAnswer?.();
  };
  transport.afterFirstWrite = () => later?.();
  const handle = serveStdio(({ era }) => makeServer(ctx, opts, era, asking, listeners), { transport, onerror: (err) => io.err(`warning: ${err.message}\n`) });
  // Standard input had ended already: its end comes after what was read, as it would have.
  if (opening?.ended) inputEnded();
  const ended = new Promise<void>((resolve) => {
    const close = transport.onclose;
    transport.onclose = () => {
      close?.();
      resolve();
    };
  });
  let failure: unknown;
  try {
    failure = await Promise.race([closed, ended, failed]);
  } finally {
    // Never answered (standard input closed at once): the command's own words are still said.
    if (later) {
      later = undefined;
      opts.afterFirstAnswer?.();
    }
    stopWatching();
    await handle.close().catch(() => undefined);
    await ctx.close().catch(() => undefined);
  }
  return failure;
}
