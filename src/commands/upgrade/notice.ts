// The update notice's face (src/domain/update-notice.ts decides): after a command's work, at most
// once a day, one line on stderr; and, at most once a day, the release asked again by a detached
// `checkin upgrade --record` the command does not wait for. Run only when the run is not quiet
// (src/program.ts asks quietBecause first, which reads `kind`), and never throws.
import { buildKind } from '../../config/installation.js';
import type { Context } from '../../context.js';
import { decide, readState, writeState } from '../../domain/update-notice.js';
import { platformName, upgradeCommand, type InstallKind } from '../../domain/upgrade.js';

export function updateNotice(ctx: Context, kind: InstallKind): void {
  try {
    const state = readState(ctx.env);
    const now = ctx.now();
    const hint = upgradeCommand(kind, state.latest ?? '<version>', platformName(process.platform, process.arch)) ?? 'checkin upgrade';
    const decision = decide(state, now, hint);
    let kept = decision.state;
    if (decision.line) ctx.io.err(`${decision.line}\n`);
    if (decision.check) {
      // Marked as asked first: two runs in the same minute start one check, not two.
      kept = { ...kept, checkedAt: now.toISOString() };
      writeState(ctx.env, kept);
      const args = buildKind() === 'npm' && process.argv[1] ? [process.argv[1], 'upgrade', '--record'] : ['upgrade', '--record'];
      const child = process
        .getBuiltinModule('node:child_process')
        .spawn(process.execPath, args, { detached: true, stdio: 'ignore', env: { ...ctx.env, CHECKIN_NO_UPDATE_NOTIFIER: '1' }, windowsHide: true });
      child.on('error', () => undefined);
      child.unref();
    } else if (decision.line) writeState(ctx.env, kept);
  } catch {
    // A notice is never worth an error.
  }
}
