// `checkin list`: check-ins filtered by dates, blocked, people and teams; one page or --all.
import { Command } from '@commander-js/extra-typings';
import { walkCheckIns } from '../../api/endpoints.js';
import type { CheckIn } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkInFilter, checkInPage } from '../../domain/list-checkins.js';
import { rememberShown, SHOWN_MAX } from '../../domain/short-ids.js';
import { dayRange } from '../../domain/days.js';
import { JSON_FIELDS, jsonOption, printList, streamList, type JsonFlag } from '../../ui/output.js';
import { checkInRows, checkInRowStream } from '../../ui/views.js';
import { intOption, pauseNotice, whoOptions, type Run, type WhoOptions } from '../flags.js';

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
    .option('--since <day>', 'from this day (YYYY-MM-DD, today, yesterday, a weekday name: the most recent on or before today)')
    .option('--until <day>', 'up to this day, inclusive')
    .option('--blocked', 'only check-ins with blockers')
    .addOption(intOption('--page <n>', 'page number', 1, 100000))
    .addOption(intOption('--per-page <n>', 'check-ins per page (at most 50)', 1, 50))
    .option('--all', 'follow every page')
    .addOption(jsonOption(JSON_FIELDS.checkIn, 'print one JSON array'))
    .addHelpText(
      'after',
      '\nExamples:\n  checkin list --since monday --blocked\n  checkin list --person me --all --json\n  checkin list --team Platform --person @grace,@linus',
    )
    .action((opts) => run(ctx, opts));
}

export async function runList(ctx: Context, opts: ListOptions): Promise<void> {
  const days = await dayRange(ctx, opts, { since: '--since', until: '--until' });
  if (opts.all && opts.page !== undefined) throw new UsageError('--all follows every page; leave out --page');
  const query = await checkInFilter(ctx, { ...days, blocked: opts.blocked, people: opts.person, teams: opts.team });
  const api = await ctx.api();
  let list: CheckIn[];
  if (opts.all) {
    // Every page, several at once within the rate budget, printed as they come: memory stays flat.
    const out = await streamList<CheckIn>(ctx.io, ctx.now(), opts.json, 'No check-ins match.', checkInRowStream);
    const seen: string[] = [];
    await walkCheckIns(
      api,
      query,
      (items) => {
        if (seen.length < SHOWN_MAX) seen.push(...items.slice(0, SHOWN_MAX - seen.length).map((c) => c.id));
        out.add(items);
      },
      {
        onPause: (ms) => {
          pauseNotice(ctx)(ms);
        },
      },
    );
    await rememberShown(ctx, 'check-in', seen);
    return out.end();
  } else {
    const page = await checkInPage(ctx, query, opts);
    list = page.list;
    if (page.full && !opts.json) {
      ctx.io.err(`More may follow: --page ${(opts.page ?? 1) + 1} for the next page, --all for every one.\n`);
    }
  }
  // Remembered for resolving short ids (best effort).
  await rememberShown(
    ctx,
    'check-in',
    list.map((c) => c.id),
  );
  await printList(ctx.io, ctx.now(), list, opts.json, 'No check-ins match.', checkInRows);
}
