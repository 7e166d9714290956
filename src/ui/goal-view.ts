// One goal for people (`checkin goal create`, `goal edit`): its title, people, teams, dates,
// parent and description; and a goal about to be created or changed, as it will be sent.
// Piped, one goal is the row `checkin goals` prints for it.

import type { Goal } from '../api/types.js';
import { sanitizeLine } from './sanitize.js';
import { confidenceLabel, goalRows, text, type View } from './views.js';
import { wrap } from './wrap.js';

const refName = (r: unknown): string =>
  r && typeof r === 'object' && typeof (r as { name?: unknown }).name === 'string' ? sanitizeLine((r as { name: string }).name) : '';
const refNames = (list: unknown): string[] => (Array.isArray(list) ? list.map(refName).filter(Boolean) : []);

/** A goal as the service returned it. */
export function goalView(v: View, g: Goal): string {
  if (!v.rich) return goalRows(v, [g]);
  const parent = g.parent && typeof g.parent === 'object' ? (g.parent as { id?: unknown; title?: unknown }) : undefined;
  const parentLine =
    parent && typeof parent.id === 'string'
      ? `${typeof parent.title === 'string' ? `${sanitizeLine(parent.title)} ` : ''}${v.c.dim(`(${sanitizeLine(parent.id)})`)}`
      : undefined;
  return goalLines(v, {
    title: g.title,
    id: g.id,
    owner: g.owner?.name ? sanitizeLine(g.owner.name) : undefined,
    teams: (g.teams ?? []).map((t) => sanitizeLine(t.name)),
    contributors: refNames(g.contributors),
    start_date: typeof g.start_date === 'string' ? g.start_date : undefined,
    end_date: g.end_date ?? undefined,
    parent: parentLine,
    progress: g.progress == null ? undefined : `${g.progress}% · ${confidenceLabel(v, g)}`,
    description: typeof g.description === 'string' ? g.description : undefined,
    url: typeof g.url === 'string' ? g.url : undefined,
  });
}

/** What a goal shows, each part already sanitised but the description (Markdown) and the title. */
export interface GoalShown {
  title?: string | undefined;
  id?: string | undefined;
  owner?: string | undefined;
  teams?: string[] | undefined;
  contributors?: string[] | undefined;
  start_date?: string | null | undefined;
  end_date?: string | null | undefined;
  parent?: string | undefined;
  progress?: string | undefined;
  description?: string | null | undefined;
  url?: string | undefined;
}

/** A goal (or the part of one about to be sent), one fact a line; wrapped to the terminal. */
export function goalLines(v: View, g: GoalShown): string {
  const lines: string[] = [];
  if (g.title !== undefined) lines.push(v.c.bold(sanitizeLine(g.title)) + (g.id ? `  ${v.c.dim(sanitizeLine(g.id))}` : ''));
  const fact = (label: string, value: string | undefined) => value !== undefined && lines.push(`${v.c.dim(label.padEnd(13))}${value}`);
  fact('owner', g.owner);
  if (g.teams !== undefined) fact('teams', g.teams.join(', ') || 'none');
  if (g.contributors !== undefined) fact('contributors', g.contributors.join(', ') || 'none');
  if (g.start_date !== undefined) fact('start', g.start_date === null ? 'none' : sanitizeLine(g.start_date));
  if (g.end_date !== undefined) fact('due', g.end_date === null ? 'none' : sanitizeLine(g.end_date));
  fact('parent', g.parent);
  fact('progress', g.progress);
  let out = wrap(lines.join('\n') + '\n', v.width);
  if (g.description) out += `\n${wrap(text(v, g.description).replace(/^/gm, '  '), v.width)}\n`;
  if (g.url && /^https?:\/\//.test(g.url)) out += `\n${v.c.dim(sanitizeLine(g.url))}\n`;
  return out;
}
