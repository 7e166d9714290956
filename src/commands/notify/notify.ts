// `checkin notify`: looks once for what is new for the person (others' comments on their check-ins
// and goal updates, @mentions of them, teammates newly blocked on them) and shows each new thing
// through the desktop's own notifier. The OS's timer does the repeating (`checkin notify install`,
// from ./units.ts); a run by hand looks once too. What is new, and the requests it costs, is
// domain/notices.ts's; the notifier is system/notifier.ts's.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { parseQuietHours } from '../../core/quiet-hours.js';
import { claimNotices, lookDone, lookForNotices, MAX_NOTICES, type Look, type Notice } from '../../domain/notices.js';
import { findNotifier, notifierMissing, showNotices, type Shown } from '../../system/notifier.js';
import { systemHost, type Host } from '../../system/programs.js';
import { takeRunEnvironment } from '../../system/schedule.js';
import { runEnvOption } from '../flags.js';
import { jsonOption, printJson, type JsonFlag } from '../../ui/output.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { CliError, EXIT } from '../../errors.js';
import { NOTIFY_SUBCOMMANDS } from './units.js';

export const NOTICE_FIELDS = ['kind', 'id', 'at', 'person', 'about', 'on', 'url', 'text'] as const;

export interface NotifyOptions {
  once?: boolean;
  dryRun?: boolean;
  json?: JsonFlag;
  quietHours?: string;
  env?: string[];
}

export function notifyCommand(ctx: Context, host: () => Host = () => systemHost(ctx.env)) {
  const notify = new Command('notify')
    .description('Show what is new for you as desktop notifications: comments, @mentions, teammates blocked on you')
    .option('--once', 'look once and exit (what every run does: the OS timer of `checkin notify install` repeats it)')
    .option('--dry-run', 'print what would be shown; show nothing, mark nothing as seen')
    .option('--quiet-hours <HH:MM-HH:MM>', 'show nothing, and ask nothing, between these times (e.g. 19:00-08:00)')
    .addOption(runEnvOption())
    .addOption(jsonOption(NOTICE_FIELDS, 'print the notices as a JSON array (shown too, unless --dry-run)'))
    .addHelpText(
      'after',
      `\nA notice is a sentence saying who did what on which check-in: a comment or reply on your check-in\nor goal update, an @mention of you, a teammate newly blocked on you. None is shown twice (not by two runs at\nonce either: each is claimed before it is shown), none for your own words, none for what\n\`checkin inbox\` already showed you; at most ${MAX_NOTICES} at a time (the last counts the rest). Nothing is shown within --quiet-hours, on a day with no check-in scheduled, or on\none you are marked absent.\n\nRequests: one (GET /digest?per_page=1, with If-None-Match) when nothing is new; the inbox's reading\nwhen something is; teammates blocked on you at most hourly; today's schedule once a day.\n\nThe notifier: notify-send or gdbus (the freedesktop Notifications service) on Linux, osascript on\nmacOS, a toast through Windows PowerShell (powershell.exe: PowerShell 7's pwsh cannot show one) on Windows. \`checkin doctor --notify-test\` shows a test notice.\nWhen none can be shown (no notifier on PATH, or it failed), none is marked as seen: the run exits 1\nwith the reason in one line, prints nothing else, and the next run shows them (\`--dry-run\` prints\nthem). When some were shown and a later one failed, the shown ones are not shown again: the rest\nare printed as \"Not shown: …\" and the run exits 1.\n\nA click on a comment's or mention's notice opens the check-in (or goal update) in the web app,\nwhere the notifier can say so without anything waiting for the click: on Linux, a last line \"Open the check-in\" linking to it when the\nnotification server advertises links (body-hyperlinks; asked through gdbus, also beside\nnotify-send: with notify-send and no gdbus, no link); on Windows, the toast itself opens it;\nmacOS's display notification (osascript) has no click target. Only the service's https\nlink is used (http only to this machine), without its query, never one carrying your token.\n\nExamples:\n  checkin notify --dry-run\n  checkin notify --dry-run --quiet-hours 19:00-08:00\n  checkin notify --dry-run --json kind,text`,
    )
    .action((opts) => runNotify(ctx, opts, host()));
  for (const define of NOTIFY_SUBCOMMANDS) notify.addCommand(define(ctx));
  // `checkin notify install --dry-run --quiet-hours …`: commander hands notify every option it does not
  // know at the top, so notify's own --dry-run, --quiet-hours and --json would be taken from its
  // subcommand's words. Given after a subcommand's name, they are the subcommand's: moved to it here
  // (one notify's subcommand does not take is refused as unknown, as commander refuses any other).
  notify.hook('preSubcommand', (parent, sub) => {
    for (const option of parent.options) {
      const key = option.attributeName();
      if (parent.getOptionValueSource(key) !== 'cli') continue;
      const mine = sub.options.find((o) => o.long === option.long);
      if (!mine) {
        sub.error(`error: unknown option '${option.long}'`, { code: 'commander.unknownOption' });
        continue;
      }
      sub.setOptionValueWithSource(mine.attributeName(), parent.getOptionValue(key), 'cli');
      parent.setOptionValueWithSource(key, undefined, 'default');
    }
  });
  return notify;
}

const SILENCE: Record<NonNullable<Look['silent']>, (quiet?: string) => string> = {
  'quiet-hours': (q) => `Quiet hours (${q}): nothing asked, nothing shown.`,
  'nothing-scheduled': () => 'No check-in is scheduled today: nothing shown.',
  absent: () => 'You are marked absent today: nothing shown.',
  'no-digest': () => 'This service has no feed (GET /digest answered 404), which checkin notify reads: nothing shown. checkin inbox still works.',
};

/** The sentence as it is shown anywhere: through the one sanitiser, on one line. */
const sentence = (n: Notice) => sanitizeLine(n.text);
/** The words of a notice's link (where the notifier shows one). */
const linkLabel = (n: Notice) => (n.on?.kind === 'goal-update' ? 'Open the goal update' : 'Open the check-in');

export async function runNotify(ctx: Context, opts: NotifyOptions, host: Host): Promise<void> {
  takeRunEnvironment(ctx.env, opts.env);
  const quiet = opts.quietHours !== undefined ? parseQuietHours(opts.quietHours) : undefined;
  const look = await lookForNotices(ctx, { ...(quiet && { quiet }) });
  if (opts.dryRun) {
    const notices = look.notices;
    if (opts.json) return printJson(ctx.io, notices, opts.json);
    if (look.silent) return ctx.io.err(`${SILENCE[look.silent](quiet?.text)}\n`);
    if (notices.length === 0) return ctx.io.err('Nothing new: nothing would be shown.\n');
    ctx.io.err(`Would show ${notices.length === 1 ? '1 notice' : `${notices.length} notices`} (--dry-run: nothing shown, nothing marked as seen):\n`);
    return ctx.io.out(notices.map((n) => `${sentence(n)}\n`).join(''));
  }
  // Each notice claimed before it is shown: another run at the same moment shows the ones it claimed.
  const claimed = claimNotices(ctx, look);
  const notices = claimed.notices;
  if (notices.length === 0) {
    if (!opts.json)
      ctx.io.err(
        look.silent
          ? `${SILENCE[look.silent](quiet?.text)}\n`
          : claimed.elsewhere > 0
            ? 'Nothing new here: another checkin is showing it.\n'
            : 'Nothing new.\n',
      );
    // What another run is showing moves the marker there (here it would move past one that run then fails to show);
    // ones shown already (by a run that could not move the marker past them) move it here.
    await lookDone(ctx, look, { shown: claimed.elsewhere === 0 });
    if (opts.json) printJson(ctx.io, notices, opts.json);
    return;
  }
  // Shown: never shown again. None shown (no notifier, or it failed): nothing is marked as seen, the
  // next run shows them, and this one fails with the reason in one line (a timer's journal is not a
  // person seeing them, and a broken notifier prints no lines over and over).
  const notifier = findNotifier(host);
  const shown = notifier
    ? await showNotices(
        host,
        notifier,
        notices.map((n) => ({ title: 'checkin', body: sentence(n), ...(n.url && { link: { url: n.url, label: linkLabel(n) } }) })),
      )
    : notices.map((): Shown => ({ shown: false, detail: notifierMissing(host) }));
  claimed.settle(shown.map((s) => s.shown));
  const failed = shown.find((s) => !s.shown);
  const some = shown.some((s) => s.shown);
  await lookDone(ctx, look, { shown: some });
  if (opts.json) printJson(ctx.io, notices, opts.json);
  else if (some) ctx.io.out(notices.map((n, i) => `${shown[i]!.shown ? '' : 'Not shown: '}${sentence(n)}\n`).join(''));
  if (!failed) return;
  const why = sanitizeLine(failed.detail ?? 'the notifier failed');
  const count = (k: number) => (k === 1 ? '1 notice' : `${k} notices`);
  const unshown = shown.filter((s) => !s.shown).length;
  if (some)
    throw new CliError(`${count(unshown)} of ${notices.length} could not be shown (${why}); printed above`, EXIT.FAILURE, ...(failed.fix ? [failed.fix] : []));
  throw new CliError(
    `${count(notices.length)} could not be shown: ${why}. Nothing is marked as seen: the next run shows ${notices.length === 1 ? 'it' : 'them'}`,
    EXIT.FAILURE,
    ...(failed.fix ? [failed.fix] : []),
  );
}
