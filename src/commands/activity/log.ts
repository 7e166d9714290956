// `checkin log "<text>"`: record an activity (POST /activities) for yourself, so it shows in the
// web app and in tomorrow's suggestion. The text is kept as a draft until the service took it.
import { Command } from '@commander-js/extra-typings';
import type { Activity, ActivityInput } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { activityInput, MAX_DESCRIPTION } from '../../domain/activity-input.js';
import { resumeEach, type DraftContent } from '../../domain/outbox.js';
import { logActivityKept } from '../../domain/writes.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { activityRows } from '../../ui/views.js';
import { once, type Run } from '../flags.js';

export interface LogOptions {
  text?: string;
  url?: string;
  group: string;
  resume?: boolean;
  json?: JsonFlag;
}

export function logCommand(ctx: Context, run: Run<LogOptions> = runLog) {
  return new Command('log')
    .argument('[text]', `what you did, at most ${MAX_DESCRIPTION} characters (- reads standard input)`)
    .description("Record an activity: it shows in the web app and in tomorrow's suggestion")
    .option('--url <https-url>', 'a link to it (a pull request, an issue…)', once('--url'))
    .option('--group <label>', 'the label it is shown under', 'checkin')
    .option('--resume', 'send the activity kept from a failed attempt')
    .addOption(jsonOption(JSON_FIELDS.activity, 'print the recorded activity as JSON'))
    .addHelpText(
      'after',
      '\nExamples:\n  checkin log "Paired with @grace on the flaky test"\n  checkin log "Reviewed the invoices PR" --url https://github.com/acme/billing/pull/412\n  git log -1 --format=%s | checkin log - --group git',
    )
    .action((text, opts) => run(ctx, { ...opts, ...(text !== undefined && { text }) }));
}

export async function runLog(ctx: Context, opts: LogOptions): Promise<void> {
  const target = { kind: 'activity' } as const;
  if (opts.resume) {
    // Every activity kept from failed attempts (the git hook's commits while the service was down), oldest first.
    await ctx.api(); // the token first: without one, nothing is taken to send
    const sent = await resumeEach(ctx, target, 'an activity', 'checkin log --resume', (e, k) => logActivityKept(ctx, activityOf(e.content), k));
    for (const { result } of sent) await showRecorded(ctx, result, opts.json);
    return;
  }
  if (opts.text === undefined) throw new UsageError('Say what you did: checkin log "…" (or - to read it from standard input)');
  const piped = opts.text === '-';
  const input = activityInput({ text: piped ? await ctx.io.readStdin() : opts.text, url: opts.url, group: opts.group }, { url: '--url', group: '--group' });
  // Kept before anything can fail on the way to the service (no token yet, say).
  const recorded = await logActivityKept(ctx, input, { made: piped ? 'piped' : 'typed' });
  await showRecorded(ctx, recorded, opts.json);
}

function activityOf(content: DraftContent): ActivityInput {
  if (content.kind !== 'activity') throw new UsageError('That draft holds no activity');
  return content.input;
}

async function showRecorded(ctx: Context, recorded: Activity, json: JsonFlag | undefined): Promise<void> {
  await sayDone(ctx.io, ctx.now(), 'Recorded the activity', { link: recorded.url, json });
  await printOne(ctx.io, ctx.now(), recorded, json, (v, a) => activityRows(v, [a]));
}
