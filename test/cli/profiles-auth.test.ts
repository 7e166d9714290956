// Profiles at the surface, against two sandboxes on two ports, each its own token and person (Ada
// on the first, Grace on the second): login to both, the profile a run uses (--profile,
// CHECKIN_PROFILE, `auth switch`), every request going to the right port with the right token,
// `auth status` and its JSON, logout of one leaving the other, `config` under a profile and
// --show-origin, completion of the names; and a person with one profile making the requests they made.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkinPaths } from '../../src/config/paths.js';
import { tempDir } from '../helpers/cleanup.js';
import { describeRequest, otherSandbox, TODAY, useWorld, type RunOptions } from '../helpers/harness.js';
import { call } from '../helpers/http.js';
import { scripted } from '../helpers/prompter.js';

const w = useWorld();
let b: Awaited<ReturnType<typeof otherSandbox>>;
beforeEach(async () => {
  b = await otherSandbox({});
});
afterEach(async () => {
  await b.sb.close();
});

const GRACE = 'sandbox_pat_grace';
const file = () => join(w.configDir, 'config.json');
const config = () => JSON.parse(readFileSync(file(), 'utf8'));
/** checkin with nothing in the environment naming a service or a token: only what the profiles hold. */
const cli = (args: string[], opts: RunOptions = {}) => w.cli(args, { ...opts, env: { CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, ...opts.env } });
/** The Authorization header of each request a sandbox was sent, with its method and path. */
const seen = (sb: typeof w.sb) => sb.requests.map((r) => `${describeRequest(r)} ${r.headers.authorization}`);

/** Ada's login to the first sandbox as "default", Grace's to the second as "grace". */
async function loginBoth() {
  const a = await cli(['login', '--with-token', '--api-url', w.sb.url], { input: w.sb.token });
  expect(a.code, a.stderr).toBe(0);
  const g = await cli(['login', '--profile', 'grace', '--with-token', '--api-url', b.sb.url], { input: GRACE });
  expect(g.code, g.stderr).toBe(0);
  return { a, g };
}

describe('login to two services', () => {
  it("each login stores its profile's URL and token, says which profile, and how to use one that is not the default", async () => {
    const { a, g } = await loginBoth();
    const where = `${join(w.configDir, 'config.json')} (mode 0600): there is no keychain in the tests.`;
    // The first and only profile, "default": the words as before profiles.
    expect(a.stderr).toBe(`Logged in as Ada Lovelace (@ada) at ${w.sb.url}\nThe token is in ${where}\n`);
    expect(g.stderr).toBe(
      `Logged in as Grace Hopper (@grace) at ${b.sb.url}, as the profile grace\nThe token is in ${where}\n` +
        'To use it: `checkin auth switch grace` (from now on), or `checkin --profile grace …` (one command).\n',
    );
    expect(config()).toMatchObject({
      profiles: { default: { api_url: w.sb.url, token: w.sb.token }, grace: { api_url: b.sb.url, token: GRACE } },
    });
    expect(config().profile).toBeUndefined();
  });

  it('a first login under a name makes that profile the default, so the next run uses it', async () => {
    const g = await cli(['login', '--profile', 'work', '--with-token', '--api-url', b.sb.url], { input: GRACE });
    expect(g.stderr).toContain(`at ${b.sb.url}, as the profile work\n`);
    expect(g.stderr).toContain('It is your only profile, so it is now the default (`checkin auth switch` changes that).\n');
    expect(config().profile).toBe('work');
    b.sb.requests.length = 0;
    expect((await cli(['today', '--json'])).code).toBe(0);
    expect(new Set(seen(b.sb).map((s) => s.split(' ').at(-1)))).toEqual(new Set([GRACE]));
  });
});

describe('the profile a run uses', () => {
  it("--profile and CHECKIN_PROFILE send to that profile's port with its token; nothing names one: the default", async () => {
    await loginBoth();
    for (const [args, env] of [
      [['--profile', 'grace', 'today', '--json'], {}],
      [['today', '--json', '--profile', 'grace'], {}],
      [['today', '--json'], { CHECKIN_PROFILE: 'grace' }],
    ] as const) {
      w.sb.requests.length = 0;
      b.sb.requests.length = 0;
      const r = await cli([...args], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).date).toBe(TODAY);
      expect(w.sb.requests).toEqual([]);
      expect(b.sb.requests.length).toBeGreaterThan(0);
      for (const line of seen(b.sb)) expect(line).toMatch(new RegExp(` Bearer ${GRACE}$`));
    }
    w.sb.requests.length = 0;
    b.sb.requests.length = 0;
    expect((await cli(['today', '--json'])).code).toBe(0);
    expect(b.sb.requests).toEqual([]);
    for (const line of seen(w.sb)) expect(line).toMatch(new RegExp(` Bearer ${w.sb.token}$`));
    // The flag wins over the environment.
    b.sb.requests.length = 0;
    expect((await cli(['--profile', 'grace', 'me', '--refresh', '--json'], { env: { CHECKIN_PROFILE: 'default' } })).stdout).toContain('"username": "grace"');
    expect(seen(b.sb)).toEqual([`GET /api/v2/me Bearer ${GRACE}`]);
  });

  it('auth switch: with two profiles the other one; by name; an unknown name lists the profiles (exit 2); says what still wins', async () => {
    await loginBoth();
    expect(await cli(['auth', 'switch'])).toEqual({ code: 0, stdout: '', stderr: `The default profile is now grace (${b.sb.url}).\n` });
    expect(config().profile).toBe('grace');
    b.sb.requests.length = 0;
    expect((await cli(['today', '--json'])).code).toBe(0);
    expect(b.sb.requests.length).toBeGreaterThan(0);
    expect(await cli(['auth', 'switch'])).toEqual({ code: 0, stdout: '', stderr: `The default profile is now default (${w.sb.url}).\n` });
    expect(await cli(['auth', 'switch', 'default'])).toEqual({ code: 0, stdout: '', stderr: 'default is already the default profile.\n' });
    const unknown = await cli(['auth', 'switch', 'nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no profile named nobody');
    expect(unknown.stderr).toContain('The profiles: default, grace.');
    expect(config().profile).toBe('default');
    const env = await cli(['auth', 'switch', 'grace'], { env: { CHECKIN_PROFILE: 'default' } });
    expect(env.stderr).toBe(
      `The default profile is now grace (${b.sb.url}).\nNote: CHECKIN_PROFILE=default is set in your environment, and wins over the default.\n`,
    );
  });

  it('auth switch without a name, with three profiles: a choice at a terminal; without one, an error naming them', async () => {
    await loginBoth();
    expect((await cli(['login', '--profile', 'third', '--with-token', '--api-url', b.sb.url], { input: GRACE })).code).toBe(0);
    const prompter = scripted(['third']);
    const r = await cli(['auth', 'switch'], { tty: true, prompter });
    expect(r).toEqual({ code: 0, stdout: '', stderr: `The default profile is now third (${b.sb.url}).\n` });
    expect(prompter.asked).toEqual([
      { kind: 'select', message: 'Which profile should be the default?', default: 'default', choices: ['default (the default now)', 'grace', 'third'] },
    ]);
    const piped = await cli(['auth', 'switch']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('The profiles: default, grace, third.');
  });
});

describe('auth status', () => {
  it('lists every profile (service, person as cached, where the token is, which is in use and why), asking only the active one', async () => {
    await loginBoth();
    w.sb.requests.length = 0;
    b.sb.requests.length = 0;
    const r = await cli(['auth', 'status'], { env: { CHECKIN_PROFILE: 'grace' } });
    expect(r.code, r.stderr).toBe(0);
    const a = `${w.sb.url}`.padEnd(Math.max(w.sb.url.length, b.sb.url.length));
    const g = `${b.sb.url}`.padEnd(Math.max(w.sb.url.length, b.sb.url.length));
    expect(r.stdout).toBe(
      `Logged in to ${b.sb.url} as Grace Hopper (@grace)\n  profile: grace (from CHECKIN_PROFILE)\n  token from: ${file()} (mode 0600)\n  the token works (GET /me answered)\n` +
        `\nProfiles (* in use):\n  default  ${a}  Ada Lovelace (@ada)    token in the config file\n* grace    ${g}  Grace Hopper (@grace)  token in the config file\n`,
    );
    expect(w.sb.requests).toEqual([]);
    expect(seen(b.sb)).toEqual([`GET /api/v2/me Bearer ${GRACE}`]);
    const json = JSON.parse((await cli(['auth', 'status', '--json'])).stdout);
    expect(json).toEqual({
      api_url: w.sb.url,
      token_source: 'file',
      source: `${file()} (mode 0600)`,
      person: { id: w.id('ada'), name: 'Ada Lovelace', username: 'ada' },
      works: true,
      why: '',
      profile: 'default',
      profile_from: 'default',
      profiles: [
        { name: 'default', api_url: w.sb.url, person: { id: w.id('ada'), name: 'Ada Lovelace', username: 'ada' }, token: 'file', active: true },
        { name: 'grace', api_url: b.sb.url, person: { id: expect.any(String), name: 'Grace Hopper', username: 'grace' }, token: 'file', active: false },
      ],
    });
  });

  it('one profile: the words as before profiles; a profile with no token: exit 4 naming it and the others', async () => {
    await cli(['login', '--with-token', '--api-url', w.sb.url], { input: w.sb.token });
    const one = await cli(['auth', 'status']);
    expect(one).toEqual({
      code: 0,
      stdout: `Logged in to ${w.sb.url} as Ada Lovelace (@ada)\n  token from: ${file()} (mode 0600)\n  the token works (GET /me answered)\n`,
      stderr: '',
    });
    // A profile config.json holds with settings but no token (an unknown one is refused: exit 2).
    expect((await cli(['--profile', 'ghost', 'auth', 'status'])).code).toBe(2);
    expect((await cli(['--profile', 'ghost', 'config', 'set', 'team', 'Mobile'])).code).toBe(0);
    const none = await cli(['--profile', 'ghost', 'auth', 'status']);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('Not logged in under the profile ghost (--profile): no token found');
    expect(none.stderr).toContain('or use another profile: default');
  });
});

describe('the keychain', () => {
  it("each profile's token under its own name; auth status reads only the active profile's entry, the others' person from the cache", async () => {
    const data = new Map<string, string>();
    const read: string[] = [];
    const store = {
      name: 'the test keychain',
      get: (a: string) => (read.push(a), data.get(a)),
      set: (a: string, v: string) => void data.set(a, v),
      delete: (a: string) => void data.delete(a),
    };
    const kc = (args: string[], opts: RunOptions = {}) => cli(args, { ...opts, secrets: () => store } as RunOptions);
    expect((await kc(['login', '--with-token', '--api-url', w.sb.url], { input: w.sb.token })).code).toBe(0);
    const g = await kc(['login', '--profile', 'grace', '--with-token', '--api-url', b.sb.url], { input: GRACE });
    expect(g.stderr).toContain('The token is in the test keychain.\n');
    expect([...data.entries()]).toEqual([
      [`default ${w.sb.url}`, w.sb.token],
      [`grace ${b.sb.url}`, GRACE],
    ]);
    expect(JSON.stringify(config())).not.toContain(GRACE);
    read.length = 0;
    const status = JSON.parse((await kc(['auth', 'status', '--json'])).stdout);
    expect(read).toEqual([`default ${w.sb.url}`]);
    expect(status.profiles.map((p: { name: string; token: string; person: { username: string } | null }) => [p.name, p.token, p.person?.username])).toEqual([
      ['default', 'keychain', 'ada'],
      ['grace', 'keychain', 'grace'],
    ]);
    const out = await kc(['logout', '--profile', 'grace']);
    expect(out.stderr).toContain('Logged out of the profile grace: the token was removed from the test keychain\n');
    expect([...data.keys()]).toEqual([`default ${w.sb.url}`]);
  });
});

describe('logout', () => {
  it('of one profile removes its token and cache, keeps its service and settings, and leaves the other working', async () => {
    await loginBoth();
    expect((await cli(['--profile', 'grace', 'config', 'set', 'team', 'Platform'])).code).toBe(0);
    const out = await cli(['auth', 'logout', '--profile', 'grace']);
    expect(out).toEqual({
      code: 0,
      stdout: '',
      stderr: `Logged out of the profile grace: the token was removed from ${file()}\nIts service and settings are kept: \`checkin login --profile grace\` logs in again.\n`,
    });
    expect(config().profiles.grace).toEqual({ api_url: b.sb.url, team: 'Platform' });
    const cache = JSON.parse(readFileSync(join(checkinPaths(w.env).cache, 'cache.json'), 'utf8'));
    expect(JSON.stringify(cache)).not.toContain('Grace Hopper');
    const out4 = await cli(['--profile', 'grace', 'today']);
    expect(out4.code).toBe(4);
    expect(out4.stderr).toContain('Not logged in under the profile grace (--profile): no token found\nRun `checkin login --profile grace`');
    w.sb.requests.length = 0;
    expect((await cli(['today', '--json'])).code).toBe(0);
    for (const line of seen(w.sb)) expect(line).toMatch(new RegExp(` Bearer ${w.sb.token}$`));
    expect(await cli(['logout', '--profile', 'grace'])).toEqual({ code: 0, stdout: '', stderr: 'Not logged in under the profile grace: no stored token.\n' });
    const status = await cli(['auth', 'status']);
    expect(status.stdout).toContain(`  grace    ${b.sb.url}`);
    expect(status.stdout).toMatch(/grace .* \?\s+logged out\n$/);
  });
});

describe('config under a profile', () => {
  it("set writes the profile's keys and says which; list --show-origin says where each value comes from", async () => {
    await loginBoth();
    expect(await cli(['--profile', 'grace', 'config', 'set', 'team', 'Platform'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'team is set for the profile grace.\n',
    });
    expect(await cli(['config', 'set', 'editor', 'nano'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(config().profiles.grace.team).toBe('Platform');
    expect(config().profiles.default.team).toBeUndefined();
    expect(config().editor).toBe('nano');
    // The plain list is unchanged for scripts: no profile line.
    expect((await cli(['--profile', 'grace', 'config', 'list'])).stdout).toBe('editor=nano\nteam=Platform\n');
    // The tests' environment sets CHECKIN_PAGER and CHECKIN_GIT_REPOS (both empty), which win over any file: unset here.
    const quiet = { CHECKIN_PAGER: undefined, CHECKIN_GIT_REPOS: undefined };
    expect((await cli(['--profile', 'grace', 'config', 'list', '--show-origin'], { env: quiet })).stdout).toBe(
      `--profile\tprofile=grace\nfile:${file()}\teditor=nano\nfile:${file()} (profile grace)\tteam=Platform\n`,
    );
    // A folder's .checkin.json, and an environment variable that wins now.
    const dir = tempDir('checkin-profile-dir-');
    const nested = join(dir, 'a', 'b');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(dir, '.checkin.json'), JSON.stringify({ profile: 'grace', team: 'Mobile' }), { mode: 0o644 });
    const here = process.cwd();
    process.chdir(nested);
    try {
      const r = await cli(['config', 'list', '--show-origin'], { env: { ...quiet, CHECKIN_EDITOR: 'vim' } });
      expect(r.stdout).toBe(
        `file:${join(dir, '.checkin.json')}\tprofile=grace\nenv:CHECKIN_EDITOR\teditor=vim\nfile:${join(dir, '.checkin.json')}\tteam=Mobile\n`,
      );
      expect((await cli(['config', 'set', 'team', 'Web'])).stderr).toBe(
        `team is set for the profile grace.\nNote: ${join(dir, '.checkin.json')} sets team, which wins in that folder and below.\n`,
      );
    } finally {
      process.chdir(here);
    }
    expect(config().profiles.grace.team).toBe('Web');
  });
});

describe('a profile config.json does not hold', () => {
  it('named by --profile or CHECKIN_PROFILE: exit 2 before any request, with the names and the nearest; login and config set make it', async () => {
    await loginBoth();
    w.sb.requests.length = 0;
    b.sb.requests.length = 0;
    const typo = await cli(['--profile', 'gracee', 'today', '--json']);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toBe(
      'error: No profile named gracee (from --profile); profiles: default, grace\nDid you mean grace? `checkin login --profile gracee` makes it.\n',
    );
    const env = await cli(['status'], { env: { CHECKIN_PROFILE: 'work' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toBe('error: No profile named work (from CHECKIN_PROFILE); profiles: default, grace\n`checkin login --profile work` makes it.\n');
    for (const args of [
      ['--profile', 'gracee', 'auth', 'status'],
      ['--profile', 'gracee', 'logout'],
      ['--profile', 'gracee', 'config', 'get', 'team'],
      ['--profile', 'gracee', 'drafts'],
    ])
      expect((await cli(args)).code, args.join(' ')).toBe(2);
    expect([...w.sb.requests, ...b.sb.requests]).toEqual([]);
    // "default" is always a profile; the commands that make one take the name.
    expect((await cli(['--profile', 'default', 'today', '--json'])).code).toBe(0);
    const set = await cli(['--profile', 'client-b', 'config', 'set', 'team', 'Mobile']);
    expect(set.code, set.stderr).toBe(0);
    expect(config().profiles['client-b']).toEqual({ team: 'Mobile' });
    const login = await cli(['--profile', 'work', 'login', '--with-token', '--api-url', b.sb.url], { input: GRACE });
    expect(login.code, login.stderr).toBe(0);
    expect((await cli(['today', '--json'], { env: { CHECKIN_PROFILE: 'work' } })).code).toBe(0);
  });
});

describe("a profile's token goes only to its own service", () => {
  it('CHECKIN_API_URL naming another service, no CHECKIN_TOKEN: refused before any request (exit 4), saying what to do', async () => {
    await loginBoth();
    w.sb.requests.length = 0;
    b.sb.requests.length = 0;
    // Grace's service: the profile that is for it is named.
    const there = await cli(['today', '--json'], { env: { CHECKIN_API_URL: b.sb.url } });
    expect(there.code).toBe(4);
    expect(there.stdout).toBe('');
    expect(there.stderr).toBe(
      `error: CHECKIN_API_URL names ${b.sb.url}, but the token of the profile default is for ${w.sb.url}: it is sent nowhere else\n` +
        `The profile grace is for ${b.sb.url}: unset CHECKIN_API_URL and run \`checkin --profile grace …\`; or set CHECKIN_TOKEN beside CHECKIN_API_URL.\n`,
    );
    // A service no profile is for (the sandbox's export line, left in a shell): a login of its own.
    const elsewhere = 'http://127.0.0.1:9/api/v2';
    const other = await cli(['--profile', 'grace', 'status'], { env: { CHECKIN_API_URL: elsewhere } });
    expect(other.code).toBe(4);
    expect(other.stderr).toBe(
      `error: CHECKIN_API_URL names ${elsewhere}, but the token of the profile grace is for ${b.sb.url}: it is sent nowhere else\n` +
        `To use ${elsewhere}, log in to it as a profile of its own: \`checkin login --profile <name> --api-url ${elsewhere}\`; or set CHECKIN_TOKEN beside CHECKIN_API_URL. Unset CHECKIN_API_URL to use the profile grace.\n`,
    );
    // auth status and doctor do not send it either.
    expect((await cli(['auth', 'status'], { env: { CHECKIN_API_URL: b.sb.url } })).code).toBe(4);
    const doctor = await cli(['doctor'], { env: { CHECKIN_API_URL: b.sb.url } });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `token          problem  the profile default's token is for ${w.sb.url}, and CHECKIN_API_URL names another service: it is not sent there\n` +
        `                        fix: Unset CHECKIN_API_URL to use the profile; for ${b.sb.url}, \`checkin --profile <name> login --api-url ${b.sb.url}\`, or set CHECKIN_TOKEN beside CHECKIN_API_URL.\n`,
    );
    expect(doctor.stdout).toContain(`service        warning  ${b.sb.url} not asked: the stored token is not sent there\n`);
    expect([...w.sb.requests, ...b.sb.requests]).toEqual([]);
  });

  it('its own service, however written, is used; with CHECKIN_TOKEN beside CHECKIN_API_URL, both are used', async () => {
    await loginBoth();
    w.sb.requests.length = 0;
    const same = await cli(['today', '--json'], { env: { CHECKIN_API_URL: `${w.sb.url.replace('127.0.0.1', 'localhost')}/` } });
    expect(same.code, same.stderr).toBe(0);
    expect(new Set(seen(w.sb).map((x) => x.split(' ').at(-1)))).toEqual(new Set([w.sb.token]));
    b.sb.requests.length = 0;
    const both = await cli(['today', '--json'], { env: { CHECKIN_API_URL: b.sb.url, CHECKIN_TOKEN: GRACE } });
    expect(both.code, both.stderr).toBe(0);
    expect(new Set(seen(b.sb).map((x) => x.split(' ').at(-1)))).toEqual(new Set([GRACE]));
  });
});

describe("the inbox's markers", () => {
  it("are each profile's own: what one profile has seen stays new under the other", async () => {
    await loginBoth();
    const grace = ['--profile', 'grace'];
    // Each profile's first look marks what it listed as seen: the next look at each has nothing new.
    for (const p of [[], grace]) expect((await cli([...p, 'inbox'])).code).toBe(0);
    for (const p of [[], grace]) expect((await cli([...p, 'inbox'])).stdout).toBe('');
    // Then a new comment at each service, on its person's newest check-in.
    const newest = (sb: typeof w.sb, username: string) => {
      const person = sb.service.data.people.find((p) => p.username === username)!.id;
      return sb.service.data.check_ins.filter((c) => c.person_id === person && c.completed_at).sort((x, y) => (x.date < y.date ? 1 : -1))[0]!;
    };
    w.clock.sleep(60_000);
    b.clock.sleep(60_000);
    await call(w.sb.url, 'POST', `/check-ins/${newest(w.sb, 'ada').id}/comments`, { token: GRACE, body: { body: 'On A, for Ada.' } });
    await call(b.sb.url, 'POST', `/check-ins/${newest(b.sb, 'grace').id}/comments`, { token: w.sb.token, body: { body: 'On B, for Grace.' } });
    const onA = await cli(['inbox']);
    expect(onA.stdout).toContain('On A, for Ada.');
    expect(onA.stdout).not.toContain('On B');
    const onB = await cli([...grace, 'inbox']);
    expect(onB.stdout).toContain('On B, for Grace.');
    expect(onB.stdout).not.toContain('On A');
    // One marker a profile's account (its service and person), side by side in state.json.
    const state = JSON.parse(readFileSync(join(checkinPaths(w.env).state, 'state.json'), 'utf8')) as { inbox: Record<string, unknown> };
    expect(Object.keys(state.inbox).sort()).toEqual(
      [`${w.sb.url} ${w.id('ada')}`, `${b.sb.url} ${b.sb.service.data.people.find((p) => p.username === 'grace')!.id}`].sort(),
    );
  });
});

describe('completion', () => {
  it('offers the profile names after --profile (before or after the command) and for auth switch', async () => {
    await loginBoth();
    const offered = async (...words: string[]) => (await cli(['complete', '--', ...words])).stdout;
    expect(await offered('--profile', '')).toBe(`default\t${w.sb.url}\ngrace\t${b.sb.url}\n:4\n`);
    expect(await offered('today', '--profile', 'g')).toBe(`grace\t${b.sb.url}\n:4\n`);
    expect(await offered('auth', 'switch', '')).toBe(`default\t${w.sb.url}\ngrace\t${b.sb.url}\n:4\n`);
  });
});

describe('one profile: the requests as before', () => {
  it('today and status make the same requests as before profiles, named or not', async () => {
    await cli(['login', '--with-token', '--api-url', w.sb.url], { input: w.sb.token });
    const requests = async (args: string[]) => {
      w.sb.requests.length = 0;
      const r = await cli(args);
      expect(r.code === 0 || r.code === 3, r.stderr).toBe(true);
      return w.sb.requests.map(describeRequest);
    };
    // Counted with the same steps on 53ec9a4, before profiles: today asks for today's check-in;
    // status the first time also the team's blockers, the digest and the week (cached after).
    expect((await requests(['today', '--json'])).length).toBe(1);
    expect((await requests(['status'])).length).toBe(4);
    const day = [`GET /api/v2/check-ins/${TODAY}`];
    expect(await requests(['today', '--json'])).toEqual(day);
    expect(await requests(['status'])).toEqual(day);
    expect(await requests(['--profile', 'default', 'today', '--json'])).toEqual(day);
    expect(await requests(['--profile', 'default', 'status'])).toEqual(day);
  });
});
