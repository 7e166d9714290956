// Profiles and the outbox, against two sandboxes on two ports (each its own token and person): a
// draft kept under one profile is sent only under it — refused under another, which names the right
// one and sends nothing, even where both profiles name the same service and person — and the
// profile in use is named where a person could take one account for another (status's first line,
// drafts' PROFILE column, the yes question of a write).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otherSandbox, TODAY, useWorld, type RunOptions } from '../helpers/harness.js';
import { Screen } from '../helpers/terminal.js';

const w = useWorld();
let b: Awaited<ReturnType<typeof otherSandbox>>;
const TOKEN_B = 'sandbox_pat_profile_b_0123456789';

beforeEach(async () => {
  b = await otherSandbox({ token: TOKEN_B });
  // B's token is another person's (grace), on another port.
  const grace = b.sb.service.data.people.find((p) => p.username === 'grace')!;
  b.sb.service.data.tokens.find((t) => t.token === TOKEN_B)!.person_id = grace.id;
});
afterEach(async () => {
  await b.sb.close();
});

/** config.json with the profiles given (each a service and its token), "a" the default. */
function profiles(list: Record<string, { api_url: string; token: string }>): void {
  mkdirSync(w.configDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(w.configDir, 'config.json'), JSON.stringify({ profile: 'a', profiles: list }), { mode: 0o600 });
}
/** checkin as the person runs it: no CHECKIN_TOKEN or CHECKIN_API_URL, the profile's own. */
const run = (args: string[], opts: RunOptions = {}) => w.cli(args, { ...opts, env: { CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, ...opts.env } });
const writes = (sent: string[]) => sent.filter((r) => !r.startsWith('GET '));
const down = { method: 'PATCH', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"maintenance"}' } as const;
type Listed = { id: string; here: boolean; kept_for: string | null; account: { api_url: string; profile?: string } };

describe('a draft kept under one profile', () => {
  it('is refused under another (named, nothing sent to it) and sent under its own', async () => {
    mkProfiles();
    w.sb.inject(down);
    const kept = await run(['today', '-i', 'Plan for A', '--mood', 'focused']);
    expect(kept.code).toBe(1);
    const [d] = JSON.parse((await run(['drafts', '--json', 'id,here,kept_for,account'])).stdout) as Listed[];
    expect(d).toMatchObject({ here: true, kept_for: null, account: { api_url: w.sb.url, profile: 'a' } });

    // Under b: listed as a's, with its profile in a column of its own.
    const underB = JSON.parse((await run(['--profile', 'b', 'drafts', '--json', 'id,here,kept_for'])).stdout) as Listed[];
    expect(underB).toEqual([{ id: d!.id, here: false, kept_for: 'the profile a' }]);
    // drafts show names the profile it was kept under.
    const shown = await run(['--profile', 'b', 'drafts', 'show', d!.id]);
    expect(shown.stdout.split('\n')[1]).toMatch(new RegExp(`, for ${w.sb.url.replace(/[.]/g, '\\.')} \\(profile a\\)$`));
    const listed = await run(['--profile', 'b', 'drafts']);
    expect(listed.stdout.split('\t').slice(0, 2)).toEqual([d!.id, 'a']);
    expect(listed.stderr).toBe(`1 of them was kept under another profile (a); \`checkin --profile a drafts send <id>\` sends one as its own.\n`);

    // --resume and drafts send under b: refused, naming a, and nothing written to b's service.
    const resumed = await run(['--profile', 'b', 'today', '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toBe(
      `error: There is no draft for today (${TODAY}) under the profile b; one was kept under another: ${d!.id} (kept for the profile a on Sun 22 Nov 09:30); nothing was sent\n\`checkin --profile a today --resume\` sends it as that profile.\n`,
    );
    const sent = await run(['--profile', 'b', 'drafts', 'send', d!.id]);
    expect(sent.code).toBe(2);
    expect(sent.stderr).toBe(
      `error: The draft ${d!.id} was kept under the profile a, not b (the one in use); it was not sent and is still kept\n\`checkin --profile a drafts send ${d!.id}\` sends it as that profile.\n`,
    );
    expect(writes(b.sb.requests.map((r) => `${r.method} ${r.path}`))).toEqual([]);

    // Under a (the default): sent, to a's service.
    w.forget();
    const ok = await run(['today', '--resume']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(writes(w.sent())).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(w.sb.requests.find((r) => r.method === 'PATCH')!.body).toMatchObject({ intentions: 'Plan for A', mood: 'focused' });
    expect(JSON.parse((await run(['drafts', '--json'])).stdout)).toEqual([]);
  });

  it('kept under --profile b: every command its advice names carries --profile b (chosen by CHECKIN_PROFILE: as typed)', async () => {
    mkProfiles();
    b.sb.inject(down);
    const kept = await run(['--profile', 'b', 'today', '-i', 'Plan for B']);
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain(
      'What you wrote is kept as a draft: `checkin --profile b today --resume` sends it (`checkin --profile b drafts` lists everything waiting).\n',
    );
    const [d] = JSON.parse((await run(['--profile', 'b', 'drafts', '--json', 'id'])).stdout) as Listed[];
    const show = await run(['--profile', 'b', 'drafts', 'send', d!.id]);
    expect(show.stderr).not.toMatch(/`checkin (?!--profile b )/);
    const dropped = await run(['--profile', 'b', 'drafts', 'drop', d!.id]);
    expect(dropped.code).toBe(2);
    expect(dropped.stderr).toContain(`Run \`checkin --profile b drafts drop ${d!.id} --yes\` to do it anyway.\n`);
    // Grace's check-in on b's service has answers the draft did not see: the resume's advice too.
    const resumed = await run(['--profile', 'b', 'today', '--resume']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(
      `At a terminal, \`checkin --profile b checkin ${TODAY} --resume\` shows both and asks; \`checkin --profile b drafts drop ${d!.id}\` drops the draft.\n`,
    );
    // The advice runs as written: under b, where the draft is.
    const gone = await run(['--profile', 'b', 'drafts', 'drop', d!.id, '--yes']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(writes(b.sb.requests.map((r) => `${r.method} ${r.path}`))).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    // CHECKIN_PROFILE chose it: still set in the shell the advice is run in, so the words are as typed.
    b.sb.inject(down);
    const env = await run(['today', '-i', 'More for B'], { env: { CHECKIN_PROFILE: 'b' } });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain('What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting).\n');
  });

  it('is never sent under another profile naming the same service and person, whatever is said, and without a request', async () => {
    profiles({ a: { api_url: w.sb.url, token: w.sb.token }, c: { api_url: w.sb.url, token: w.sb.token } });
    w.sb.inject(down);
    expect((await run(['today', '-i', 'Plan kept under a'])).code).toBe(1);
    const [d] = JSON.parse((await run(['drafts', '--json', 'id'])).stdout) as Listed[];
    w.forget();
    const sent = await run(['drafts', 'send', d!.id], { env: { CHECKIN_PROFILE: 'c' }, tty: true });
    expect(sent.code).toBe(2);
    expect(sent.stderr).toContain(`error: The draft ${d!.id} was kept under the profile a, not c (the one in use)`);
    const resumed = await run(['today', '--resume'], { env: { CHECKIN_PROFILE: 'c' } });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('`checkin --profile a today --resume` sends it as that profile.\n');
    expect(writes(w.sent())).toEqual([]);
    // An entry kept before profiles (no profile in its account) is matched by its account, as before.
    expect((await run(['today', '--resume'], { env: { CHECKIN_PROFILE: 'a' } })).code).toBe(0);
    expect(writes(w.sent())).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
  });
});

describe('the profile in use, named', () => {
  it("status's first line names it when there are several; with one profile called default, status reads as before", async () => {
    mkProfiles();
    const underB = await run(['--profile', 'b', 'status']);
    expect(underB.stdout.split('\n')[0]).toMatch(new RegExp(`^b: Today's check-in \\(${TODAY}\\) is `));
    const underA = await run(['status']);
    expect(underA.stdout.split('\n')[0]).toMatch(new RegExp(`^a: Today's check-in \\(${TODAY}\\) is `));
    // --json carries it as auth status does; with one profile called default, it is left out.
    expect(JSON.parse((await run(['--profile', 'b', 'status', '--json'])).stdout).profile).toBe('b');
    expect(JSON.parse((await run(['status', '--json', 'date,profile'])).stdout)).toEqual({ date: TODAY, profile: 'a' });
    writeFileSync(join(w.configDir, 'config.json'), JSON.stringify({ profiles: { default: { api_url: w.sb.url, token: w.sb.token } } }), { mode: 0o600 });
    expect((await run(['status'])).stdout.split('\n')[0]).toMatch(new RegExp(`^Today's check-in \\(${TODAY}\\) is `));
    expect(JSON.parse((await run(['status', '--json'])).stdout)).not.toHaveProperty('profile');
    // Chosen by the environment, even the only one: named.
    expect((await run(['status'], { env: { CHECKIN_PROFILE: 'default' } })).stdout.split('\n')[0]).toMatch(/^default: Today's/);
  });

  it('the yes question of a write names it (a pseudo-terminal, the exact question)', async () => {
    mkProfiles();
    w.sb.inject({ method: 'POST', drop: true });
    const env = { ...w.env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, CHECKIN_PROFILE: 'a' };
    expect((await w.bin(['log', 'Reviewed the invoices PR'], { env })).code).toBe(1);
    const [d] = JSON.parse((await run(['drafts', '--json', 'id'])).stdout) as Listed[];
    w.forget();
    const s = new Screen(['drafts', 'send', d!.id], Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv);
    await s.waitFor(/\(y\/N\)/);
    expect(s.text()).toContain(`Send the draft ${d!.id} as it is (profile a)? (y/N)`);
    s.type('y\r');
    expect((await s.exit()).code, s.text()).toBe(0);
    expect(writes(w.sent())).toEqual(['POST /api/v2/activities']);
  });
});

describe('the wall and doctor name the profile', () => {
  it("team's title names it on a terminal; doctor's first line says which and where it was chosen", async () => {
    mkProfiles();
    const wall = await run(['--profile', 'b', 'team'], { tty: true });
    expect(wall.code, wall.stderr).toBe(0);
    expect(wall.stdout.split('\n')[0]).toMatch(new RegExp(`^\\S.* \\(profile b\\) — ${TODAY}  `));
    const doctor = await run(['doctor', '--json', 'id,status,message'], { env: { CHECKIN_PROFILE: 'b' } });
    expect((JSON.parse(doctor.stdout) as unknown[])[0]).toEqual({ id: 'profile', status: 'ok', message: 'b (from CHECKIN_PROFILE); config.json holds a, b' });
    const unknown = await run(['--profile', 'nobody', 'doctor', '--json', 'id,status,message,fix']);
    expect((JSON.parse(unknown.stdout) as unknown[])[0]).toEqual({
      id: 'profile',
      status: 'warning',
      message: 'nobody (from --profile); config.json holds a, b: no profile nobody yet',
      fix: 'Run `checkin --profile nobody login` to make it.',
    });
  });
});

function mkProfiles(): void {
  profiles({ a: { api_url: w.sb.url, token: w.sb.token }, b: { api_url: b.sb.url, token: TOKEN_B } });
}
