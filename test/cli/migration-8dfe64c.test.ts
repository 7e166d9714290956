// A person's files made by checkin 8dfe64c, the last build before profiles (test/fixtures/config-8dfe64c:
// its README says how), read by this checkin: nothing is lost, they are the profile "default", and
// config.json takes the new shape at the first write. The files are copied as they are, with one
// change: the old sandbox's address (port 4297) becomes this test's sandbox's, since a port is
// chosen anew each run. The sandbox and every checkin run on the day the files were made (a clock
// shifted back to it), so the draft's day, the inbox's marker and the cached person are as they were.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { cleanEnv, ROOT, runCli, type CliResult } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'config-8dfe64c', 'home');
const OLD_ORIGIN = 'http://127.0.0.1:4297';
/** When make.sh ran its commands (faketime's start), and a few seconds after: when this test's runs are. */
const MADE_AT = Date.parse('2026-12-04T10:00:05Z');
const SHIFT_CLOCK = join(ROOT, 'test', 'helpers', 'shifted-clock.cjs');

let sb: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
const configFile = () => join(home, '.config', 'checkin', 'config.json');
const cli = (args: string[]): Promise<CliResult> => runCli(args, { env });

/** Every file under `dir` that is JSON, with the old address put right. */
function readdress(dir: string, origin: string): void {
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = join(dir, name);
    if (!name.endsWith('.json') || !statSync(file).isFile()) continue;
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(OLD_ORIGIN, origin), { mode: 0o600 });
  }
  // The outbox keeps each draft's account (its API URL) in its rows.
  const db = new DatabaseSync(join(dir, '.local', 'state', 'checkin', 'drafts', 'outbox.db'));
  db.prepare('UPDATE entries SET data = replace(data, ?, ?)').run(OLD_ORIGIN, origin);
  db.close();
}

beforeAll(async () => {
  // The test's own clock may be faked (the dated passes): the shift is from it, and the children share it.
  const shift = MADE_AT - Date.now();
  sb = await startSandbox({ rateLimit: false, clock: () => new Date(Date.now() + shift) });
  home = tempDir('checkin-8dfe64c-');
  cpSync(FIXTURE, home, { recursive: true });
  readdress(home, new URL(sb.url).origin);
  env = cleanEnv({
    HOME: home,
    // The folders 8dfe64c used with no variable set: ~/.config, ~/.cache and ~/.local/state.
    CHECKIN_CONFIG_DIR: undefined,
    CHECKIN_GIT_REPOS: undefined,
    NODE_OPTIONS: `--require ${SHIFT_CLOCK}`,
    CHECKIN_TEST_CLOCK_SHIFT_MS: String(shift),
  });
});

afterAll(async () => {
  await sb?.close();
});

describe('a config made by 8dfe64c', () => {
  it('is read as the profile "default" without a write: its settings, its cached person, its inbox marker', async () => {
    const before = readFileSync(configFile(), 'utf8');
    sb.requests.length = 0;
    for (const [key, value] of [
      ['team', 'Platform'],
      ['editor', 'nano'],
      ['git_repos', '/srv/src/checkin'],
    ]) {
      const r = await cli(['config', 'get', key!]);
      expect(r, key).toMatchObject({ code: 0, stdout: `${value}\n` });
    }
    const me = await cli(['me']);
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain('Ada Lovelace (@ada)');
    // What 8dfe64c listed was looked at then: none of it is new now.
    const inbox = await cli(['inbox', '--json']);
    expect(inbox.code, inbox.stderr).toBe(0);
    expect(JSON.parse(inbox.stdout)).toMatchObject({ seen_before: '2026-12-03T11:30:00Z', threads: [] });
    // The cached person (and teams) answered: GET /me was never asked.
    expect(sb.requests.filter((q) => q.path.endsWith('/me'))).toEqual([]);
    expect(sb.requests.length).toBeGreaterThan(0);
    // Reading is not writing: the file is as 8dfe64c left it.
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('its kept draft is listed and sent by `today --resume`, once, under the profile "default"', async () => {
    const listed = await cli(['drafts', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const drafts = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(drafts).toHaveLength(1);
    expect(JSON.stringify(drafts[0])).toContain('Reviewed the migration');
    sb.requests.length = 0;
    const sent = await cli(['today', '--resume', '--profile', 'default']);
    expect(sent.code, sent.stderr).toBe(0);
    const patches = sb.requests.filter((q) => q.method === 'PATCH');
    expect(patches.map((q) => [q.path, q.status])).toEqual([['/api/v2/check-ins/2026-12-04', 200]]);
    expect(patches[0]!.body).toMatchObject({ previous: 'Reviewed the migration', intentions: 'Ship profiles' });
    expect(sb.requests.filter((q) => q.path.endsWith('/me'))).toEqual([]);
    const after = await cli(['drafts', '--json']);
    expect(JSON.parse(after.stdout)).toEqual([]);
  });

  it('is written in the new shape at the first write, its token, service and settings in the profile "default"', async () => {
    const r = await cli(['config', 'set', 'pager', 'less']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({
      profiles: { default: { token: 'sandbox_pat_demo', api_url: sb.url, team: 'Platform', git_repos: ['/srv/src/checkin'] } },
      editor: 'nano',
      pager: 'less',
    });
    // Without --profile, as before: the same account, its settings and its team.
    const team = await cli(['team', '--json']);
    expect(team.code, team.stderr).toBe(0);
    expect((JSON.parse(team.stdout) as Array<{ team: { name: string } }>).map((t) => t.team.name)).toEqual(['Platform']);
    expect((await cli(['config', 'get', 'editor'])).stdout).toBe('nano\n');
  });
});
