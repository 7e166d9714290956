// `checkin team`: for each of my teams, who has filled in that day's check-in, who has not yet,
// who is blocked (and by what), and who has none (absent or not scheduled).
import { getTeam } from '../api/endpoints.js';
import { fetchAll } from '../api/paginate.js';
import type { CheckIn, Ref } from '../api/types.js';
import type { Context } from '../context.js';
import { renderJson } from '../ui/render.js';
import { sanitizeLine } from '../ui/sanitize.js';
import { table, tsv } from '../ui/table.js';
import { text } from '../ui/views.js';
import { rangeDay, resolveTeams, today } from './resolve.js';

export type MemberState = 'blocked' | 'filled' | 'pending' | 'none';
const ORDER: MemberState[] = ['blocked', 'pending', 'filled', 'none'];

export async function runTeam(ctx: Context, opts: { date?: string; team?: string[]; json?: boolean }): Promise<void> {
  const date = rangeDay(ctx, opts.date, '--date') ?? today(ctx);
  const teamIds = opts.team?.length ? await resolveTeams(ctx, opts.team) : (await ctx.me()).teams.map((t) => t.id);
  if (teamIds.length === 0) {
    ctx.io.err('You are in no team.\n');
    if (opts.json) ctx.io.out('[]\n');
    return;
  }
  const api = await ctx.api();
  const [teams, checkIns] = await Promise.all([
    Promise.all(teamIds.map((id) => getTeam(api, id))),
    fetchAll<CheckIn>(api, 'check-ins', { since: date, until: date, team_ids: teamIds }),
  ]);
  const report = teams.map((team) => ({
    team: { id: team.id, name: team.name },
    date,
    members: (team.people ?? []).map((person: Ref) => {
      const c = checkIns.find((x) => x.person?.id === person.id && (x.teams ?? []).some((t) => t.id === team.id)) ?? checkIns.find((x) => x.person?.id === person.id) ?? null;
      const state: MemberState = !c ? 'none' : c.blocked ? 'blocked' : c.completed_at ? 'filled' : 'pending';
      return { person, state, check_in: c };
    }).sort((a, b) => ORDER.indexOf(a.state) - ORDER.indexOf(b.state) || a.person.name.localeCompare(b.person.name)),
  }));

  if (opts.json) return ctx.io.out(renderJson(report));
  const v = await ctx.view();
  if (!v.rich) {
    ctx.io.out(tsv(report.flatMap((r) => r.members.map((m) => [sanitizeLine(r.team.name), date, sanitizeLine(m.person.name), m.state, m.state === 'blocked' ? sanitizeLine(m.check_in?.blockers ?? '') : '']))));
    return;
  }
  const label: Record<MemberState, string> = {
    blocked: v.c.red('⚠ blocked'),
    pending: v.c.yellow('· not yet'),
    filled: v.c.green('✓ filled in'),
    none: v.c.dim('– no check-in (absent or not scheduled)'),
  };
  for (const r of report) {
    const counts = ORDER.map((s) => [s, r.members.filter((m) => m.state === s).length] as const).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`);
    ctx.io.out(`${v.c.bold(sanitizeLine(r.team.name))} — ${date}  ${v.c.dim(counts.join(', '))}\n`);
    ctx.io.out(table(r.members.map((m) => ['', sanitizeLine(m.person.name), label[m.state]]), v.width));
    for (const m of r.members.filter((x) => x.state === 'blocked')) {
      ctx.io.out(`    ${v.c.bold(sanitizeLine(m.person.name))}: ${text(v, m.check_in?.blockers ?? '').replace(/\n/g, '\n    ')}\n`);
    }
    ctx.io.out('\n');
  }
}
