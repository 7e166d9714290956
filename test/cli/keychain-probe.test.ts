// The keychain look-up doctor has a child make (system/probes.ts probeKeychain) — with exactly this
// session's environment, or with a scheduled run's — against a stand-in keyring module that opens
// only where a session bus is named; and one that never answers, killed at the time limit.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ADVICE } from '../../src/commands/flags.js';
import { keychainVerdict } from '../../src/domain/doctor.js';
import { probeKeychain, scheduledEnvironment } from '../../src/system/probes.js';
import { tempDir } from '../helpers/cleanup.js';
import { DESKTOP_SESSION } from '../helpers/remind.js';

describe('the keychain, from this session and from a scheduled run', () => {
  /** A stand-in for @napi-rs/keyring: it opens only where a session bus is named, and holds one token. */
  function fakeKeyring(
    body = `getPassword() { if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('Platform secure storage failure: no session bus\\nbacktrace'); return this.account === 'https://x.example/api/v2' ? 'steady_pat_secret' : null; }`,
  ) {
    const file = join(tempDir('checkin-fake-keyring-'), 'keyring.cjs');
    writeFileSync(file, `exports.Entry = class { constructor(service, account) { this.account = account; } ${body} };\n`);
    return file;
  }
  const session = DESKTOP_SESSION;

  it('the child finds the token with the session bus, cannot open the keychain without it, and never hands the token back', async () => {
    const mod = fakeKeyring();
    const here = await probeKeychain(mod, 'https://x.example/api/v2', session, 10_000);
    expect(here).toEqual({ found: true });
    expect(await probeKeychain(mod, 'https://other.example/api/v2', session, 10_000)).toEqual({ found: false });
    const scheduled = await probeKeychain(mod, 'https://x.example/api/v2', scheduledEnvironment(session, undefined), 10_000);
    expect(scheduled).toEqual({ error: 'Platform secure storage failure: no session bus' });
    expect(JSON.stringify([here, scheduled])).not.toContain('secret');
    expect(keychainVerdict('the system keychain', here, scheduled, CLI_ADVICE)).toEqual({
      id: 'keychain',
      status: 'warning',
      message:
        "the system keychain holds the token from this session, but cannot be opened (Platform secure storage failure: no session bus) from a scheduled run's environment",
      fix: 'For the reminder, run `checkin login --insecure-storage`: the token is then kept in the settings file (mode 0600), which a scheduled run can read.',
    });
    expect(keychainVerdict('the system keychain', here, here, CLI_ADVICE).status).toBe('ok');
    expect(keychainVerdict('the system keychain', { found: false }, here, CLI_ADVICE).status).toBe('problem');
  });

  it('a keychain that never answers is given up on at the time limit (the child killed)', async () => {
    const mod = fakeKeyring('getPassword() { for (;;) {} }');
    expect(await probeKeychain(mod, 'https://x.example/api/v2', session, 300)).toEqual({ error: 'no answer within 0.3 s' });
  });
});
