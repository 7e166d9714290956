// The small faults from the last attack, each a clear line and the documented exit code: a token
// HTTP cannot carry, a timeout too long for a timer, a date at the end of the calendar.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useWorld } from './helpers/harness.js';

const w = useWorld();

describe('small faults', () => {
  it('a token with a line break or a character past Latin-1: exit 4 naming where it came from, nothing sent, no retry, no timer left (the binary ends at once)', async () => {
    const newline = await runCli(['me'], { env: { ...w.env, CHECKIN_TOKEN: 'abc\ndef' }, timeoutMs: 3000 });
    expect(newline).toMatchObject({ code: 4, stdout: '', stderr: 'error: The token in CHECKIN_TOKEN cannot be sent: it holds a line break\nCopy the token again, exactly as the service shows it.\n' });
    const wide = await runCli(['today', '-p', 'x'], { env: { ...w.env, CHECKIN_TOKEN: undefined, STEADY_TOKEN: 'tök€n' }, timeoutMs: 3000 });
    expect(wide).toMatchObject({ code: 4, stderr: 'error: The token in STEADY_TOKEN cannot be sent: it holds a character HTTP headers cannot carry\nCopy the token again, exactly as the service shows it.\n' });
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
});
