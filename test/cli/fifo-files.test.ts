// Issue 29, case 8: a FIFO where checkin keeps config.json, cache.json or state.json once hung every
// command before piped text was kept. The built CLI, run as a user runs it (XDG folders of its own):
// each file is refused with a warning naming it, the command ends (each run is bounded by the child's
// timeout), the piped words are on disk as a draft while the service answers 503, and are sent once
// it works. A write of the file replaces the FIFO (a rename) rather than opening it.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkinPaths } from '../../src/config/paths.js';
import { normalizeApiUrl } from '../../src/config/store.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { describeRequest } from '../helpers/harness.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { folderEntries, folderView } from '../helpers/outbox.js';

let sb: Sandbox;
let base: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (base = e)));

/** Each run must end well within this (a run that blocked was still blocked at 10 s). */
const BOUND_MS = 10_000;

/**
 * A user with three XDG folders of their own, no CHECKIN_CONFIG_DIR, and no TZ: "today" is then in
 * the profile's zone, which is what reads the cache (and the settings) before the words are kept.
 */
function user() {
  const root = tempDir('checkin-fifo-');
  const env: NodeJS.ProcessEnv = { ...base, XDG_CONFIG_HOME: join(root, 'config'), XDG_CACHE_HOME: join(root, 'cache'), XDG_STATE_HOME: join(root, 'state') };
  delete env.CHECKIN_CONFIG_DIR;
  delete env.TZ;
  const paths = checkinPaths(env);
  const files = {
    'config.json': join(paths.config, 'config.json'),
    'cache.json': join(paths.cache, 'cache.json'),
    'state.json': join(paths.state, 'state.json'),
  };
  return { env, files, drafts: join(paths.state, 'drafts') };
}

function mkfifo(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { force: true });
  execFileSync('mkfifo', [path]);
}

const isFifo = (path: string) => lstatSync(path).isFIFO();
const draftFiles = (dir: string) => folderView(dir).filter((n) => n.endsWith('.json'));
const warning = (file: string) => `warning: ${file} cannot be read (a FIFO, not a regular file); going on without it\n`;
const unavailable = (times: number) => {
  for (let i = 0; i < times; i++)
    sb.inject({ method: 'PATCH', status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' }, body: '{"message":"down"}' });
};

describe.skipIf(process.platform === 'win32')('a FIFO at one of checkin’s own files (issue 29, case 8)', () => {
  for (const name of ['cache.json', 'state.json', 'config.json'] as const) {
    it(`${name}: \`echo words | checkin today -p -\` ends, keeps the words as a draft while the service answers 503, and sends them once it works`, async () => {
      const u = user();
      const fifo = u.files[name];
      mkfifo(fifo);
      // `today` reads the settings (config.json) and the cache (cache.json); the inbox marker
      // (state.json) is read by `status` and `inbox` (the test after these).
      const warned = name === 'state.json' ? '' : warning(fifo);

      unavailable(3); // every try of the PATCH (GET, HEAD and PATCH are tried three times)
      const down = await runCli(['today', '-p', '-'], { env: u.env, input: 'words\n', timeoutMs: BOUND_MS });
      expect(down.code, down.stderr).toBe(1);
      expect(down.stderr.slice(0, warned.length)).toBe(warned);
      expect(down.stderr.split(warning(fifo)).length).toBe(warned ? 2 : 1); // said once
      expect(down.stderr.split('\n').at(-2)).toBe(
        'What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting).',
      );
      const [draft, ...more] = draftFiles(u.drafts);
      expect(more).toEqual([]);
      const kept = folderEntries(u.drafts).find((e) => `${e.id}.json` === draft) as { target: { key: string }; created_at: string };
      const day = kept.target.key; // today in the profile's zone (Europe/London)
      expect(day).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(kept).toEqual({
        id: draft!.replace(/\.json$/, ''),
        // Whose: the service, and the person once GET /me said (before the PATCH).
        account: {
          api_url: normalizeApiUrl(sb.url),
          person_id: sb.service.data.people.find((p) => p.username === 'ada')!.id,
          token: createHash('sha256').update(sb.token).digest('hex').slice(0, 16),
          // And the profile it was kept under: sent only under it.
          profile: 'default',
        },
        target: { kind: 'check-in', key: day },
        content: { kind: 'answers', answers: { previous: 'words' } },
        made: 'piped',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        saved_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const patches = sb.requests.filter((r) => r.method === 'PATCH');
      expect(patches.map((r) => [describeRequest(r), r.body])).toEqual(Array(3).fill([`PATCH /api/v2/check-ins/${day}`, { previous: 'words' }]));

      if (name === 'cache.json') {
        // What GET /me said was cached: the write replaced the FIFO (renamed over it, never opened).
        expect(isFifo(fifo)).toBe(false);
        expect(Object.values(JSON.parse(readFileSync(fifo, 'utf8')).cache as object)).toEqual([{ me: expect.objectContaining({ username: 'ada' }) }]);
        mkfifo(fifo); // and again, for the run that sends
      } else {
        expect(isFifo(fifo)).toBe(true);
      }

      sb.requests.length = 0;
      const up = await runCli(['today', '--resume', '--json'], { env: u.env, timeoutMs: BOUND_MS });
      expect(up.code).toBe(0);
      expect(up.stderr).toBe(warned);
      expect(sb.requests.filter((r) => r.method !== 'GET').map((r) => [describeRequest(r), r.body])).toEqual([
        [`PATCH /api/v2/check-ins/${day}`, { previous: 'words' }],
      ]);
      expect(JSON.parse(up.stdout)).toMatchObject({ date: day, previous: 'words' });
      expect(draftFiles(u.drafts)).toEqual([]);
    });
  }

  it('state.json: `status` says so, ends, and writes its marker over the FIFO', async () => {
    const u = user();
    const fifo = u.files['state.json'];
    mkfifo(fifo);
    // status's unread line reads the marker, and keeps the count; its exit code says whether today's check-in is done.
    const status = await runCli(['status'], { env: u.env, timeoutMs: BOUND_MS });
    expect(status.stderr).toBe(warning(fifo));
    expect(status.stdout).not.toBe('');
    expect(isFifo(fifo)).toBe(false);
    expect(Object.values(JSON.parse(readFileSync(fifo, 'utf8')).inbox as object)).toEqual([expect.objectContaining({ checked_at: expect.any(String) })]);
    expect(await runCli(['status'], { env: u.env, timeoutMs: BOUND_MS })).toMatchObject({ code: status.code, stdout: status.stdout, stderr: '' });
  });

  it('config.json: `login` sets the FIFO aside and writes the settings anew', async () => {
    const u = user();
    const fifo = u.files['config.json'];
    mkfifo(fifo);
    const login = await runCli(['login', '--with-token', '--api-url', sb.url], {
      env: { ...u.env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined },
      input: sb.token,
      timeoutMs: BOUND_MS,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(
      new RegExp(
        `^${warning(fifo).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}warning: the damaged \\S+config\\.json was set aside as \\S+config\\.json\\.damaged-\\d+\\n`,
      ),
    );
    expect(isFifo(fifo)).toBe(false);
    expect(JSON.parse(readFileSync(fifo, 'utf8'))).toMatchObject({ profiles: { default: { api_url: sb.url, token: sb.token } } });
    const aside = readdirSync(dirname(fifo)).filter((n) => n.startsWith('config.json.damaged-'));
    expect(aside.map((n) => isFifo(join(dirname(fifo), n)))).toEqual([true]);
  });
});
