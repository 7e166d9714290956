// doctor's pieces on their own: what is shown of a token and a URL, the Codex config's servers, and
// the environment a scheduled run has. (The keychain look-up a child makes: test/cli/keychain-probe.test.ts.)
import { describe, expect, it } from 'vitest';
import { redactToken, redactUrl } from '../../src/domain/doctor.js';
import { codexServers, scheduledEnvironment } from '../../src/system/probes.js';
import { DESKTOP_SESSION } from '../helpers/remind.js';

describe('what doctor shows of a secret', () => {
  it.each([
    ['steady_pat_0123456789abcdef', 'steady_pat_****'],
    ['sandbox_pat_demo', 'sandbox_pat_****'],
    ['steady_pat_', '****'],
    ['abc_secret', '****'],
    ['0123456789', '****'],
    ['', '****'],
  ])('the token %j is shown as %j', (token, shown) => {
    expect(redactToken(token)).toBe(shown);
  });

  it('an API URL loses its user name, password, query and fragment', () => {
    expect(redactUrl('https://ada:hunter2@service.example/api/v2/?token=x#y')).toBe('https://service.example/api/v2');
    expect(redactUrl('not a url')).toBe('(not a valid URL)');
  });
});

describe("Codex's config.toml", () => {
  it('reads each [mcp_servers.<name>] table: command, args, env (inline or its own table)', () => {
    const toml = [
      'model = "o3"',
      '[mcp_servers.checkin]',
      'command = "/usr/local/bin/checkin"',
      'args = ["mcp", \'--allow-send\']',
      'env = { CHECKIN_TOKEN = "steady_pat_x" }',
      '[mcp_servers."other"]',
      "command = 'other'",
      '[mcp_servers.other.env]',
      'KEY = "v"',
      '[profiles.fast]',
      'command = "not a server"',
    ].join('\n');
    expect(codexServers(toml)).toEqual({
      checkin: { command: '/usr/local/bin/checkin', args: ['mcp', '--allow-send'], env: { CHECKIN_TOKEN: 'steady_pat_x' } },
      other: { command: 'other', env: { KEY: 'v' } },
    });
  });
});

describe("a scheduled run's environment", () => {
  const session = DESKTOP_SESSION;

  it("holds the folders, HOME, TZ and a system PATH, and nothing else of the session's", () => {
    const env = scheduledEnvironment(session, undefined);
    expect(Object.keys(env).sort()).toEqual(['CHECKIN_CONFIG_DIR', 'HOME', 'PATH', 'TZ']);
    expect(env.PATH!.split(':')).toEqual(expect.arrayContaining(['/usr/local/bin', '/usr/bin', '/bin']));
    expect(scheduledEnvironment(session, 'https://x.example/api/v2').CHECKIN_API_URL).toBe('https://x.example/api/v2');
  });

  it('holds CHECKIN_PROFILE when the reminder carries a profile (remind install under --profile client-a), and not otherwise', () => {
    expect(scheduledEnvironment({ ...session, CHECKIN_PROFILE: 'client-a' }, undefined).CHECKIN_PROFILE).toBeUndefined();
    expect(scheduledEnvironment(session, undefined, 'client-a').CHECKIN_PROFILE).toBe('client-a');
  });
});
