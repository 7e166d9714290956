// `checkin doctor`: what can silently stop checkin (and its reminder) from working — the token, the
// service, the keychain, the folders, the time zone, the reminder, agents' MCP registrations, the
// skill, Node, the outbox — one line each with the fix, as Slack's and other CLIs' doctors do. It
// changes nothing and sends one request (GET /me); the checks are domain/doctor.ts's.
import { Command, Option } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { anyProblem, CHECK_IDS, diagnose } from '../../domain/doctor.js';
import { keychainLookup } from '../../system/probes.js';
import { systemHost, type Host } from '../../system/programs.js';
import { EXIT, ExitSignal } from '../../errors.js';
import { doctorView } from '../../ui/doctor-view.js';
import { jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { CLI_ADVICE } from '../flags.js';

export interface DoctorOptions {
  json?: JsonFlag;
  /** The single binary's keychain probe (domain/doctor.ts probeKeychain): one look-up, its word on stdout. */
  keychainProbe?: string;
  notifyTest?: boolean;
}

export const DOCTOR_FIELDS = ['id', 'status', 'message', 'fix'] as const;

export function doctorCommand(ctx: Context, host: () => Host = () => systemHost(ctx.env)) {
  return new Command('doctor')
    .description(
      'Check what checkin needs: token, service, keychain, folders, time zone, reminder, notifier, MCP, skill, Node, outbox (changes nothing; one request)',
    )
    .addOption(jsonOption(DOCTOR_FIELDS, 'print one {id, status, message, fix} per check as a JSON array'))
    .option('--notify-test', 'show a test notice through the notifier (checkin notify)')
    .addOption(new Option('--keychain-probe <account>').hideHelp())
    .addHelpText(
      'after',
      `\nEach check is ok, a warning or a problem, with the fix in words. Nothing is changed, one request is sent (GET /me; and, when a webhook\nis set for report --post, one to it that posts nothing: GET for Discord, HEAD for Slack and Mattermost),\nand no secret is printed: the token shows only its prefix, paths under your home folder start with ~.\n\nChecks (their ids in --json): ${CHECK_IDS.join(', ')}.\n\nExit status: 0 when nothing is a problem (warnings included), 1 when any check is a problem.\n\nExamples:\n  checkin doctor\n  checkin doctor --json status,id | jq -r '.[] | select(.status != "ok") | .id'`,
    )
    .action((opts) => runDoctor(ctx, opts, host()));
}

export async function runDoctor(ctx: Context, opts: DoctorOptions, host: Host): Promise<void> {
  if (opts.keychainProbe !== undefined) return ctx.io.out(keychainLookup(ctx.env, opts.keychainProbe));
  // A profile that is not there is one of its checks (with the fix), not a refusal.
  ctx.config().acceptUnknownProfile();
  const checks = await diagnose(ctx, { host, cwd: process.cwd(), words: ctx.advice ?? CLI_ADVICE, ...(opts.notifyTest && { notifyTest: true }) });
  await printOne(ctx.io, ctx.now(), checks, opts.json, doctorView);
  if (anyProblem(checks)) throw new ExitSignal(EXIT.FAILURE);
}
