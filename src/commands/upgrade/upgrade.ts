// `checkin upgrade`: the newest checkin, the way this one was installed. npm, npx, Homebrew, the .deb
// Scoop and winget have their own commands: it prints that one and changes nothing. The single binary from
// install.sh replaces itself (src/domain/upgrade.ts: under a lock, streamed to disk and checked against
// SHA256SUMS, run where it was unpacked, then swapped in with one rename) — after a yes at a
// terminal, or with --yes.
import { Command, Option } from '@commander-js/extra-typings';
import { buildKind } from '../../config/installation.js';
import type { Context } from '../../context.js';
import {
  FolderNotWritable,
  installKind,
  latestRelease,
  platformName,
  tidyUpgrade,
  upgradeBinary,
  upgradeCommand,
  type Tidied,
  isNewer,
  type InstallKind,
  type Latest,
} from '../../domain/upgrade.js';
import { readState, writeState } from '../../domain/update-notice.js';
import { CancelledError, CliError, UsageError, withHint } from '../../errors.js';
import { VERSION } from '../../version.js';
import type { Run } from '../flags.js';

export interface UpgradeOptions {
  check?: boolean;
  yes?: boolean;
  record?: boolean;
}

export function upgradeCommandDef(ctx: Context, run: Run<UpgradeOptions> = runUpgrade) {
  return (
    new Command('upgrade')
      .description(
        'Upgrade checkin the way it was installed (npm, Homebrew, .deb, Scoop and winget: prints their command; the install.sh binary: replaces itself)',
      )
      .option('--check', 'say what would be done, change nothing')
      .option('-y, --yes', 'upgrade without asking (scripts)')
      // The update notice's daily check (commands/upgrade/notice.ts): keeps the newest version, prints nothing.
      .addOption(new Option('--record').hideHelp())
      .addHelpText(
        'after',
        '\nThe release is read from CHECKIN_RELEASE_URL (https, or http to this machine), else GitHub\'s latest release.\nCHECKIN_NO_UPDATE_NOTIFIER=1, NO_UPDATE_NOTIFIER or DO_NOT_TRACK=1 turns off the daily "a newer checkin" line and its check (checkin help trust).',
      )
      .action((opts) => run(ctx, opts))
  );
}

const KIND_WORDS: Record<InstallKind, string> = {
  'npm-global': 'installed with npm install -g',
  npx: 'run by npx',
  'npm-project': "installed in a project's node_modules",
  clone: 'run from a clone of its repository',
  homebrew: 'installed by Homebrew',
  deb: 'installed from the .deb (dpkg)',
  scoop: 'installed by Scoop',
  winget: 'installed by winget',
  'windows-binary': 'the Windows binary',
  binary: 'the single binary',
};

/** How this process was installed, read from where it runs. */
export function thisInstall(): InstallKind {
  const fs = process.getBuiltinModule('node:fs');
  let script: string | undefined;
  try {
    script = process.argv[1] ? fs.realpathSync(process.argv[1]) : undefined;
  } catch {
    script = process.argv[1];
  }
  let exe = process.execPath;
  try {
    exe = fs.realpathSync(exe);
  } catch {
    // as it is
  }
  return installKind({
    build: buildKind(),
    platform: process.platform,
    execPath: exe,
    script,
    dpkgOwns: (path) => {
      try {
        return fs.readFileSync('/var/lib/dpkg/info/checkin.list', 'utf8').split('\n').includes(path);
      } catch {
        return false;
      }
    },
  });
}

/** The running program's own file, whatever is at its path now. */
const RUNNING = '/proc/self/exe';

/** Says what was put right of an upgrade stopped earlier: only a binary put back is worth a line. */
function said(ctx: Context, target: string, t: Tidied | undefined): void {
  if (t?.restored) ctx.io.err(`note: an upgrade stopped earlier had left an unchecked checkin in ${target}; the one it replaced is back.\n`);
}

function tidyQuietly(): void {
  try {
    tidyUpgrade(process.getBuiltinModule('node:fs').realpathSync(process.execPath), RUNNING);
  } catch {
    // a notice's errand is never worth an error
  }
}

export async function runUpgrade(ctx: Context, opts: UpgradeOptions): Promise<void> {
  const kind = thisInstall();
  if (opts.record) {
    // The daily check, detached: also what a stopped upgrade left beside the binary is put right, if
    // no upgrade is running (nothing on any other command's way).
    if (kind === 'binary' && process.platform === 'linux') tidyQuietly();
    const latest = await latestRelease(ctx.env).catch(() => undefined);
    if (latest) writeState(ctx.env, { ...readState(ctx.env), checkedAt: ctx.now().toISOString(), latest: latest.version });
    return;
  }
  const platform = platformName(process.platform, process.arch);
  const { io } = ctx;
  let latest: Latest | undefined;
  let failed: unknown;
  try {
    latest = await latestRelease(ctx.env);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    failed = err;
  }
  const upToDate = `checkin ${VERSION} is up to date (the newest release at ${latest?.base}).\n`;
  const command = upgradeCommand(kind, latest?.version ?? '<version>', platform);
  if (command !== undefined) {
    // Not ours to replace: up to date, or the newer version and the line that upgrades it — that line
    // also when the release could not be read (then the error follows, exit 1).
    if (latest && !isNewer(latest.version, VERSION)) return void io.out(upToDate);
    io.out(`checkin ${VERSION}, ${KIND_WORDS[kind]}.\n`);
    if (latest) io.out(`checkin ${latest.version} is out (${latest.base}).\n`);
    io.out(`To upgrade: ${command}\n`);
    if (!latest) throw failed;
    return;
  }
  if (!latest) throw failed;
  if (!platform || process.platform !== 'linux') throw new CliError(`No release binary for ${process.platform}-${process.arch}`);
  const target = process.getBuiltinModule('node:fs').realpathSync(process.execPath);
  if (!isNewer(latest.version, VERSION)) {
    if (!opts.check) said(ctx, target, tidyUpgrade(target, RUNNING));
    io.out(upToDate);
    return;
  }
  const plan = `checkin ${VERSION} → ${latest.version}: download ${latest.base}/checkin-${latest.version}-${platform}.tar.gz, check it against SHA256SUMS, replace ${target}`;
  if (opts.check) {
    io.out(`Would upgrade ${plan}.\n`);
    return;
  }
  if (!opts.yes) {
    if (!io.canPrompt) throw new UsageError(`Upgrading ${target} needs a yes`, 'Add --yes to upgrade without a terminal, or --check to see what it would do.');
    io.out(`${plan}.\n`);
    if (!(await ctx.prompter().confirm('Upgrade?', { default: true }))) throw new CancelledError('Not upgraded');
  }
  const done = await upgradeBinary({
    target,
    latest,
    platform,
    env: ctx.env,
    running: RUNNING,
    onTidied: (t) => said(ctx, target, t),
    // Ctrl-C, SIGTERM or SIGHUP: the work folder and the lock are removed at once, and the run ends by
    // that signal; the target is the old binary, or the new one if the rename had already been made.
    onStart: (stop) =>
      io.onStop(() =>
        stop() === 'upgraded'
          ? `Stopped: checkin ${latest.version} was already in place (${target}).`
          : `Stopped: not upgraded; ${target} is checkin ${VERSION}, as before.`,
      ),
  }).catch((err: unknown) => {
    throw err instanceof FolderNotWritable ? withHint(err, 'Run checkin upgrade as the owner of that folder, or install again with install.sh --dir.') : err;
  });
  io.out(`checkin upgraded from ${done.from} to ${done.to} (${done.target}).\n`);
}
