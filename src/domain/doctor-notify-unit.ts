// `checkin doctor`'s check of the notices' scheduled job (`checkin notify install`): whether it is
// installed, with which scheduler and schedule, enabled or not, when the timer last fired and how
// its last run ended (systemd only: asked of the user manager, each child with a time limit), and
// whether the token is stored where a scheduled run can read it.
import type { AdviceWords, Context } from '../context.js';
import { describeTimes, installedNotices, NOTIFY, type NoticeTimes } from '../system/notify-units.js';
import type { Host } from '../system/programs.js';
import { MECHANISM_NAME, userManager, type Installed } from '../system/scheduled.js';
import { scheduledRunToken } from './scheduled-run.js';

/** When the timer last fired and how the service's last run ended, as the user manager says; empty when it cannot say. */
async function lastRun(host: Host): Promise<{ fired?: string; result?: string }> {
  const systemctl = host.find('systemctl');
  if (!systemctl || !(await userManager(host))) return {};
  const show = async (unit: string, property: string) => {
    const r = await host.run(systemctl, ['--user', 'show', unit, `--property=${property}`, '--value']);
    const value = r.code === 0 ? r.stdout.trim().split('\n')[0]! : '';
    // Only what systemd writes there: a time, a word (nothing else reaches the message).
    return /^[\w :+.-]{1,64}$/.test(value) && value !== 'n/a' ? value : undefined;
  };
  const fired = await show(`${NOTIFY.unit}.timer`, 'LastTriggerUSec');
  const result = fired ? await show(`${NOTIFY.unit}.service`, 'Result') : undefined;
  return { ...(fired && { fired }), ...(result && { result }) };
}

type CheckStatus = 'ok' | 'warning' | 'problem';
/** doctor's `notify-unit` line (domain/doctor.ts Check): its own type, so that this file needs nothing of doctor.ts. */
export interface NotifyUnitCheck {
  id: 'notify-unit';
  status: CheckStatus;
  message: string;
  fix: string | null;
}

/** The user manager's log of the unit (a program of the system's, not checkin's). */
const journal = `\`${['journalctl', '--user', '-u', `${NOTIFY.unit}.service`].join(' ')}\``;

export async function notifyUnit(ctx: Context, host: Host, w: AdviceWords, keychainOpens?: boolean): Promise<NotifyUnitCheck> {
  let found: Array<Installed<NoticeTimes>>;
  try {
    found = await installedNotices(host, undefined);
  } catch (err) {
    return { id: 'notify-unit', status: 'warning', message: `could not be looked for: ${(err as Error).message}`, fix: null };
  }
  if (found.length === 0)
    return { id: 'notify-unit', status: 'ok', message: `not installed (\`${w.notifySchedule('install')}\` schedules the notices)`, fix: null };
  const u = found[0]!;
  const what = `${MECHANISM_NAME[u.mechanism]}${u.schedule ? `: ${describeTimes(u.schedule)}` : ' (its schedule could not be read)'}${found.length > 1 ? ` (and ${found.length - 1} more)` : ''}`;
  const notes: string[] = [];
  let status: CheckStatus = 'ok';
  let fix: string | null = null;
  const worse = (s: CheckStatus, f: string) => {
    if (s === 'problem' || (s === 'warning' && status === 'ok')) {
      status = s;
      fix = f;
    }
  };
  if (!u.schedule) worse('warning', `Run \`${w.notifySchedule('install')}\` again: it writes the schedule anew.`);
  if (u.enabled === false) {
    notes.push('not enabled');
    worse('problem', `Run \`${w.notifySchedule('install')}\` again in a session with a systemd user manager.`);
  } else if (u.mechanism === 'systemd') {
    const last = await lastRun(host);
    if (!last.fired) notes.push('no run yet');
    else {
      notes.push(`last run ${last.fired}${last.result ? ` (${last.result === 'success' ? 'it ended well' : `it failed: ${last.result}`})` : ''}`);
      if (last.result && last.result !== 'success') worse('warning', `${journal} says why; \`${w.notifySchedule('run')}\` tries it now.`);
    }
  }
  const unstored = scheduledRunToken(ctx, w, u.mechanism, keychainOpens);
  if (unstored) {
    notes.push(unstored.note);
    worse(unstored.status, unstored.fix);
  }
  return { id: 'notify-unit', status, message: notes.length > 0 ? `${what}: ${notes.join('; ')}` : what, fix };
}
