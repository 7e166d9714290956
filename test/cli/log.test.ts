// `checkin log`: one POST /activities, the description checked before anything is sent, the text
// kept as a draft until the service took it.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();

describe('checkin log', () => {
  it('records an activity with one POST; --json prints what the service answered', async () => {
    const r = await w.cli(['log', 'Paired with @grace on the flaky test', '--url', 'https://github.com/engines/web/pull/409', '--json']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual(['POST /api/v2/activities']);
    expect(w.sb.requests[0]!.body).toEqual({
      group: 'checkin',
      description: 'Paired with @grace on the flaky test',
      url: 'https://github.com/engines/web/pull/409',
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ group: 'checkin', description: 'Paired with @grace on the flaky test', person: { name: 'Ada Lovelace' } });
    // It is there for the others (and for tomorrow's suggestion).
    const list = await w.cli(['activity', '--person', 'me', '--json']);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ description: 'Paired with @grace on the flaky test' });
  });

  it('reads standard input; --group sets the label; shows it (the ✓ line only on a terminal)', async () => {
    const r = await w.cli(['log', '-', '--group', 'git'], { input: 'Fix the retry loop\n' });
    expect(r.code).toBe(0);
    expect(w.sb.requests[0]!.body).toEqual({ group: 'git', description: 'Fix the retry loop' });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\t').slice(2, 5)).toEqual(['api', 'Ada Lovelace', 'Fix the retry loop']);
  });

  it('refuses, before sending anything: more than 256 characters, an empty text, a URL that is not https', async () => {
    expect(await w.cli(['log', 'x'.repeat(257)])).toMatchObject({
      code: 2,
      stderr: 'error: The text is 257 characters; an activity takes at most 256\nShorten it, or put the details behind --url.\n',
    });
    expect((await w.cli(['log', '🎉'.repeat(256)])).code).toBe(0); // characters, not bytes
    w.forget();
    expect(await w.cli(['log', '  '])).toMatchObject({ code: 2, stderr: 'error: Nothing to record: the text is empty\n' });
    expect(await w.cli(['log', 'x', '--url', 'http://example.com'])).toMatchObject({
      code: 2,
      stderr: 'error: --url takes an https:// link, got "http://example.com"\n',
    });
    expect(await w.cli(['log'])).toMatchObject({ code: 2 });
    expect(w.sent()).toEqual([]);
  });

  it('a failed POST keeps the text; --resume sends it once', async () => {
    w.sb.inject({ method: 'POST', status: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"maintenance"}' });
    const r = await w.cli(['log', '-'], { input: 'Kept when the service is down' });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').at(-2)).toBe('What you wrote is kept as a draft: `checkin log --resume` sends it (`checkin drafts` lists everything waiting).');
    expect(w.sent()).toEqual(['POST /api/v2/activities']);
    const again = await w.cli(['log', '--resume', '--json']);
    expect(again.code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities']);
    expect(w.sb.requests.at(-1)!.body).toEqual({ group: 'checkin', description: 'Kept when the service is down' });
    expect(await w.cli(['log', '--resume'])).toMatchObject({ code: 2, stderr: 'error: There is no draft for an activity\n' });
    expect(w.sent()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities']);
  });
});
