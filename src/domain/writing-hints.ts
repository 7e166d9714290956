// The writing hints a check-in's preview shows (the CLI's form and the agent's draft): what would
// surprise the person once sent. They never stop a send. Requests: none, unless the answers
// @mention someone — then GET /teams/{id} for each of my teams (overlapped), to know who is on them,
// with their @usernames from the cached directory (GET /people and /teams only when none is cached);
// if that fails, the mention hints are left out.
import { getTeam } from '../api/endpoints.js';
import type { CheckInAnswers } from '../api/types.js';
import type { Context } from '../context.js';
import { mentionsIn, writingHints, type Named, type WritingHint } from '../core/blockers.js';
import { directoryPeople, me } from './account.js';

/** The people on my teams (me included); undefined when they cannot be read. */
async function teammates(ctx: Context): Promise<Named[] | undefined> {
  try {
    const person = await me(ctx);
    const api = await ctx.api();
    const [teams, everyone] = await Promise.all([Promise.all(person.teams.map((t) => getTeam(api, t.id))), directoryPeople(ctx)]);
    const handle = new Map(everyone.map((p) => [p.id, p.username]));
    return [{ name: person.name, username: person.username }, ...teams.flatMap((t) => (t.people ?? []).map((p) => ({ name: p.name, username: handle.get(p.id) ?? null })))];
  } catch {
    return undefined;
  }
}

/** The hints for answers as they will stand once sent. */
export async function previewHints(ctx: Context, answers: CheckInAnswers): Promise<WritingHint[]> {
  const mentioned = [answers.previous, answers.intentions, answers.blockers].some((t) => mentionsIn(t).length > 0);
  return writingHints(answers, mentioned ? await teammates(ctx) : undefined);
}
