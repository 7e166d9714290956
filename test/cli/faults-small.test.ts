// The small faults from the last attack, each a clear line and the documented exit code: a token
// HTTP cannot carry, a timeout too long for a timer, a date at the end of the calendar.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { UsageError } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';
import { useWorld } from '../helpers/harness.js';
import { patient } from '../helpers/patience.js';

const w = useWorld();

describe('small faults', () => {
  it('a token with a line break or a character past Latin-1: exit 4 naming where it came from, nothing sent, no retry, no timer left (the binary ends at once)', async () => {
    // A timer left behind would be a request's (an hour here), far past the bound however loaded the
    // machine is; the bound itself is stretched by the load, as a process's start is.
    const ends = patient(3000);
    const newline = await runCli(['me'], { env: { ...w.env, CHECKIN_TOKEN: 'abc\ndef', CHECKIN_TIMEOUT: '3600' }, timeoutMs: ends });
    expect(newline).toMatchObject({
      code: 4,
      stdout: '',
      stderr: 'error: The token in CHECKIN_TOKEN cannot be sent: it holds a line break\nCopy the token again, exactly as the service shows it.\n',
    });
    const wide = await runCli(['today', '-p', 'x'], {
      env: { ...w.env, CHECKIN_TOKEN: undefined, STEADY_TOKEN: 'tök€n', CHECKIN_TIMEOUT: '3600' },
      timeoutMs: ends,
    });
    expect(wide).toMatchObject({
      code: 4,
      stderr:
        'error: The token in STEADY_TOKEN cannot be sent: it holds a character HTTP headers cannot carry\nCopy the token again, exactly as the service shows it.\n',
    });
    expect(w.sent()).toEqual([]);
  });

  it('CHECKIN_TIMEOUT beyond what a timer holds is a usage error, before any request', async () => {
    const r = await w.cli(['me'], { env: { CHECKIN_TIMEOUT: '3000000' } });
    expect(r).toMatchObject({ code: 2, stderr: 'error: CHECKIN_TIMEOUT must be a number of seconds from 0.001 to 3600, got "3000000"\n' });
    expect(w.sent()).toEqual([]);
  });

  it('activity --until 9999-12-31 asks up to the last second of that day', async () => {
    const r = await w.cli(['activity', '--until', '9999-12-31', '--json']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual(['GET /api/v2/activities?until=9999-12-31T23%3A59%3A59Z&page=1&per_page=50']);
  });

  it('https:// against a plain http server: plain words, no retry', async () => {
    const r = await w.cli(['me'], { env: { CHECKIN_API_URL: w.sb.url.replace('http://', 'https://') } });
    expect(r).toMatchObject({
      code: 1,
      stderr: `error: GET /api/v2/me: ${new URL(w.sb.url).host} does not answer https (TLS): it looks like a plain http server\nCheck CHECKIN_API_URL: a local sandbox is http://127.0.0.1:…, the service is https://.\n`,
    });
  });

  it('an unreachable proxy is named as the proxy, not as the service', async () => {
    const closed = await closedPort();
    const r = await w.cli(['me'], { env: { CHECKIN_API_URL: 'https://checkin.invalid/api/v2', HTTPS_PROXY: `http://127.0.0.1:${closed}` } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').slice(-2)).toEqual([
      `error: GET /api/v2/me: cannot reach the proxy 127.0.0.1:${closed} (connection refused) on the way to checkin.invalid`,
      'Check HTTPS_PROXY / HTTP_PROXY (or leave this host out with NO_PROXY).',
    ]);
  });

  it('a header value HTTP cannot carry fails at once as a usage error: nothing sent, no retry, no timer left armed', async () => {
    const client = new ApiClient({ baseUrl: w.sb.url, token: 'ok', userAgent: 'checkin\r\nX-Injected: 1', sleep: async () => undefined });
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await expect(client.get('me', { check: (v: unknown) => v } as never)).rejects.toBeInstanceOf(UsageError);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(timersBefore);
    expect(w.sent()).toEqual([]);
    await client.close();
  });
});

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
