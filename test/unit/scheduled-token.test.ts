// Where a scheduled run finds the token and whether it can read it: one answer (system/schedule.ts
// `scheduledToken`), said by both faces alike — an install's warning (`tokenWarning`: `checkin remind
// install`, `notify install`, `cron`) and doctor's reminder and notify-unit checks (domain/scheduled-run.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ADVICE } from '../../src/commands/flags.js';
import { ConfigStore } from '../../src/config/store.js';
import { scheduledRunToken } from '../../src/domain/scheduled-run.js';
import { scheduledToken, tokenWarning } from '../../src/system/schedule.js';
import { tempDir } from '../helpers/cleanup.js';

const URL = 'http://127.0.0.1:9/api/v2';
const FIX = 'run `checkin login --insecure-storage` so that the token is kept in the settings file, which a scheduled run can read';

/** A run with `stored` as its config.json and `env` as its environment; the keychain is never asked (it throws). */
function run(stored: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv = {}) {
  const dir = tempDir('checkin-scheduled-token-');
  if (stored) writeFileSync(join(dir, 'config.json'), JSON.stringify(stored), { mode: 0o600 });
  const store = new ConfigStore({ CHECKIN_CONFIG_DIR: dir, ...env }, undefined, () => {
    throw new Error('the keychain was asked');
  });
  return { config: () => store, advice: CLI_ADVICE };
}

/** What both faces say for a cron line: the install's comment line, and doctor's note and status for a crontab reminder. */
function bothFaces(ctx: ReturnType<typeof run>, keychainOpens?: boolean) {
  const doctor = scheduledRunToken(ctx, CLI_ADVICE, 'crontab', keychainOpens);
  return { install: tokenWarning(ctx, 'cron'), doctor: doctor && { note: doctor.note, status: doctor.status, fix: doctor.fix } };
}

describe('where a scheduled run finds the token', () => {
  it.each([
    ['the settings file (a variable here is used before it, not by a scheduled run)', { api_url: URL, token: 't' }, { CHECKIN_TOKEN: 'e' }, 'file', undefined],
    [
      'the keychain, not asked from a scheduled run',
      { api_url: URL, token_store: 'keychain' },
      {},
      'keychain',
      'is in the keychain, which cron often cannot open',
    ],
    ['CHECKIN_TOKEN only', undefined, { CHECKIN_TOKEN: 'e', STEADY_TOKEN: 's' }, 'CHECKIN_TOKEN', 'comes from CHECKIN_TOKEN, which cron does not have'],
    [
      'STEADY_TOKEN only (an empty CHECKIN_TOKEN is none)',
      undefined,
      { CHECKIN_TOKEN: '', STEADY_TOKEN: 's' },
      'STEADY_TOKEN',
      'comes from STEADY_TOKEN, which cron does not have',
    ],
    [
      'a keychain named without a service (no token is kept there) and CHECKIN_TOKEN',
      { token_store: 'keychain' },
      { CHECKIN_TOKEN: 'e' },
      'CHECKIN_TOKEN',
      'comes from CHECKIN_TOKEN, which cron does not have',
    ],
    ['nowhere', undefined, {}, 'nowhere', 'is not stored, so cron has none to use'],
  ])('%s: the install and doctor say the same', (_, stored, env, where, why) => {
    const ctx = run(stored, env);
    expect(scheduledToken(ctx, 'cron').where).toBe(where);
    expect(bothFaces(ctx)).toEqual(
      why === undefined
        ? { install: undefined, doctor: undefined }
        : {
            install: `# Your token ${why}: ${FIX}.\n`,
            doctor: { note: `the token ${why}`, status: where === 'keychain' ? 'warning' : 'problem', fix: `R${FIX.slice(1)}.` },
          },
    );
  });

  it("the keychain asked from a scheduled run's environment (doctor) settles it: read, nothing said; not read, a problem", () => {
    const ctx = run({ api_url: URL, token_store: 'keychain' });
    expect(bothFaces(ctx, true).doctor).toBeUndefined();
    expect(bothFaces(ctx, false).doctor).toMatchObject({
      note: "the token is in the keychain, which did not give it to a scheduled run's environment",
      status: 'problem',
    });
    expect(scheduledToken(ctx, 'cron', false)).toMatchObject({ where: 'keychain', readable: 'no' });
  });

  it('a systemd timer or launchd agent is "a scheduled run" in doctor; the install names its own', () => {
    const ctx = run(undefined, { CHECKIN_TOKEN: 'e' });
    expect(scheduledRunToken(ctx, CLI_ADVICE, 'systemd', undefined)?.note).toBe('the token comes from CHECKIN_TOKEN, which a scheduled run does not have');
    expect(tokenWarning(ctx, 'the reminder')).toBe(`# Your token comes from CHECKIN_TOKEN, which the reminder does not have: ${FIX}.\n`);
  });
});
