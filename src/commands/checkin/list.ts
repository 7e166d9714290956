// `checkin list`: check-ins filtered by dates, blocked, people and teams; one page or --all.
import { Command } from '@commander-js/extra-typings';
import { listCheckIns, walkCheckIns, type CheckInFilter } from '../../api/endpoints.js';
import type { CheckIn } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { resolvePeople, resolveTeams } from '../../domain/account.js';
import { rangeDay } from '../../domain/days.js';
import { JSON_FIELDS, jsonOption, printList, streamList, type JsonFlag } from '../../ui/output.js';
import { checkInRows, checkInRowStream } from '../../ui/views.js';
import { intOption, pauseNotice, whoOptions, type Run, type WhoOptions } from '../flags.js';

/** The service's page size when none is asked for (api-v2: 20). */
const DEFAULT_PAGE = 20;

export interface ListOptions extends WhoOptions {
  since?: string;
  until?: string;
  blocked?: boolean;
  page?: number;
  perPage?: number;
  all?: boolean;
  json?: JsonFlag;
}

export function listCommand(ctx: Context, run: Run<ListOptions> = runList) {
  return whoOptions(new Command('list'))
    .description('List check-ins (newest first)')
    .option('--since <day>', 'from this day (YYYY-MM-DD, today, yesterday, a weekday name)')
    .option('--until <day>', 'up to this day, inclusive')
    .option('--blocked', 'only check-ins with blockers')
    .addOption(intOption('--page <n>', 'page number', 1, 100000))
    .addOption(intOption('--per-page <n>', 'check-ins per page (at most 50)', 1, 50))
    .option('--all', 'follow every page')
    .addOption(jsonOption(JSON_FIELDS.checkIn, 'print one JSON array'))
    .addHelpText('after', '\nExamples:\n  checkin list --since monday --blocked\n  checkin list --person me --all --json\n  checkin list --team Platform --person @grace,@linus')
    .action((opts) => run(ctx, opts));
}

/** The filters of a listing, days and names resolved (a request or two for names not cached). */
export async function listQuery(ctx: Context, opts: ListOptions): Promise<CheckInFilter> {
  const since = await rangeDay(ctx, opts.since, '--since');
  const until = await rangeDay(ctx, opts.until, '--until');
  if (since && until && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  if (opts.all && opts.page !== undefined) throw new UsageError('--all follows every page; leave out --page');
  return {
    ...(since && { since }),
    ...(until && { until }),
    ...(opts.blocked && { blocked: true }),
    people_ids: await resolvePeople(ctx, opts.person),
    team_ids: await resolveTeams(ctx, opts.team),
  };
}

/** One page of check-ins, each once; `full` when the page is full (more may follow). */
export async function listPage(ctx: Context, query: CheckInFilter, opts: Pick<ListOptions, 'page' | 'perPage'>): Promise<{ list: CheckIn[]; full: boolean }> {
  const page = await listCheckIns(await ctx.api(), { ...query, page: opts.page, per_page: opts.perPage });
  // Several teams can return a check-in once per team: show each once.
  const seen = new Set<string>();
  // A full page: there may be more (the service gives no count).
  return { list: page.filter((c) => !seen.has(c.id) && seen.add(c.id)), full: page.length === (opts.perPage ?? DEFAULT_PAGE) };
}

export async function runList(ctx: Context, opts: ListOptions): Promise<void> {
  const query = await listQuery(ctx, opts);
  const api = await ctx.api();
  let list: CheckIn[];
  if (opts.all) {
    // Every page, several at once within the rate budget, printed as they come: memory stays flat.
    const out = await streamList<CheckIn>(ctx.io, ctx.now(), opts.json, 'No check-ins match.', checkInRowStream);
    await walkCheckIns(api, query, (items) => out.add(items), {
      onPause: (ms) => {
        pauseNotice(ctx)(ms);
      },
    });
    return out.end();
  } else {
    const page = await listPage(ctx, query, opts);
    list = page.list;
    if (page.full && !opts.json) {
      ctx.io.err(`More may follow: --page ${(opts.page ?? 1) + 1} for the next page, --all for every one.\n`);
    }
  }
  await printList(ctx.io, ctx.now(), list, opts.json, 'No check-ins match.', checkInRows);
}
