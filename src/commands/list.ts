// `checkin list`: check-ins filtered by dates, blocked, people and teams; one page or --all.
import { listCheckIns } from '../api/endpoints.js';
import { fetchAll } from '../api/paginate.js';
import type { CheckIn } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { printList } from './output.js';
import { checkInRows } from '../ui/views.js';
import { rangeDay, resolvePeople, resolveTeams } from './resolve.js';

export interface ListOptions {
  since?: string;
  until?: string;
  blocked?: boolean;
  person?: string[];
  team?: string[];
  page?: number;
  perPage?: number;
  all?: boolean;
  json?: boolean;
}

export async function runList(ctx: Context, opts: ListOptions): Promise<void> {
  const since = rangeDay(ctx, opts.since, '--since');
  const until = rangeDay(ctx, opts.until, '--until');
  if (since && until && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  if (opts.all && opts.page !== undefined) throw new UsageError('--all follows every page; leave out --page');
  const query = {
    ...(since && { since }),
    ...(until && { until }),
    ...(opts.blocked && { blocked: true }),
    people_ids: await resolvePeople(ctx, opts.person),
    team_ids: await resolveTeams(ctx, opts.team),
  };
  const api = await ctx.api();
  let list: CheckIn[];
  if (opts.all) {
    list = await fetchAll<CheckIn>(api, 'check-ins', query, { onPause: (s) => ctx.io.err(`Pausing ${s} s to stay under the rate limit…\n`) });
  } else {
    const page = await listCheckIns(api, { ...query, page: opts.page, per_page: opts.perPage });
    // Several teams can return a check-in once per team: show each once.
    const seen = new Set<string>();
    list = page.filter((c) => !seen.has(c.id) && seen.add(c.id));
  }
  await printList(ctx, list, opts.json, 'No check-ins match.', checkInRows);
}
