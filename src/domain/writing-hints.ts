// The writing hints a check-in's preview shows (the CLI's form and the agent's draft): what would
// surprise the person once sent. They never stop a send. Requests: none, unless the answers
// @mention someone — then who is on my teams comes from the cached directory (people with their
// @usernames and teams); when there is none, or a mention matches nobody in a directory that was
// cached before, it is asked for once (GET /people and /teams). If that fails, the mention hints
// are left out.
import type { CheckInAnswers } from '../api/types.js';
import type { Context } from '../context.js';
import { SECTIONS } from '../core/checkin-answers.js';
import { mentionsIn, writingHints, type Named, type WritingHint } from '../core/blockers.js';
import { directoryPeople, me } from './account.js';

/** How old a cached directory may be before an unknown @mention asks for it again. */
const DIRECTORY_AGE_MS = 60 * 60_000;

/** The people on my teams (me included), whether the directory was just asked for, and when it was. */
async function teammates(ctx: Context, refresh: boolean): Promise<{ members: Named[]; fresh: boolean; fetchedAt: string }> {
  const person = await me(ctx);
  const mine = new Set(person.teams.map((t) => t.id.toLowerCase()));
  const found = await directoryPeople(ctx, { refresh });
  // A directory cached by an earlier version does not know the teams: asked for once.
  if (!found.fresh && found.people.some((p) => p.team_ids === undefined)) return teammates(ctx, true);
  const members = found.people.filter((p) => (p.team_ids ?? []).some((t) => mine.has(t.toLowerCase())));
  return { members: [{ name: person.name, username: person.username }, ...members], fresh: found.fresh, fetchedAt: found.fetchedAt };
}

/** The hints for answers as they will stand once sent. */
export async function previewHints(ctx: Context, answers: CheckInAnswers): Promise<WritingHint[]> {
  const mentioned = SECTIONS.some((s) => mentionsIn(answers[s.field]).length > 0);
  if (!mentioned) return writingHints(answers, undefined);
  try {
    let known = await teammates(ctx, false);
    let hints = writingHints(answers, known.members);
    // Someone may have joined since the directory was cached: once more, fresh — but not more than
    // once an hour (a mention of someone outside the teams would otherwise ask at every preview).
    if (!known.fresh && hints.some((h) => h.kind === 'unknown-mention') && ctx.now().getTime() - Date.parse(known.fetchedAt) > DIRECTORY_AGE_MS) {
      known = await teammates(ctx, true);
      hints = writingHints(answers, known.members);
    }
    return hints;
  } catch {
    return writingHints(answers, undefined);
  }
}
