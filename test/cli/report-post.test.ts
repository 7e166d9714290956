// `checkin report --post`: the team's digest posted to a chat's incoming webhook — here a receiver
// on 127.0.0.1 that records each request and answers as each test tells it. The sandbox's demo data
// on the fake clock (Sun 22 Nov 2026), the periods named by their dates, as the data has them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();

interface Received {
  method: string;
  path: string;
  type: string | undefined;
  body: string;
}

/** The webhook receiver: what came, and what it answers next (a queue; then 200 "ok"). */
let server: Server;
let base = '';
let received: Received[] = [];
let answers: Array<{ status: number; headers?: Record<string, string>; body?: string; hangUp?: true }> = [];

beforeEach(async () => {
  received = [];
  answers = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, path: req.url!, type: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      const a = answers.shift() ?? { status: 200, body: 'ok' };
      // The post arrived whole, and the connection drops before any answer.
      if (a.hangUp) return void req.socket.destroy();
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The secret part of each webhook: it must never show. */
const SECRET = 's3cr3tW3bh00kT0k3n';
const slack = () => `${base}/services/T0001/B0002/${SECRET}`;
const discord = () => `${base}/api/webhooks/123456/${SECRET}`;
const mattermost = () => `${base}/hooks/${SECRET}`;

/** Mon 16 – Sun 22 Nov 2026 in the demo data: six people, one standing blocker (Linus's, @mentioning Ada). */
const WEEK = ['--since', '2026-11-16', '--until', '2026-11-22'];
const WEEK_TEXT =
  '*Check-ins, Mon 16 Nov – Sun 22 Nov 2026*\n' +
  '6 people · 31 of 37 scheduled days checked in · 1 day absent · 4 days blocked · 2 goal updates\n' +
  'Moods: 🤓 nerdy ×6, 😌 calm ×4, 🙂 happy ×4, 🤯 stressed ×4, 🤔 thoughtful ×4, 🤗 excited ×3, 😴 tired ×3, 🧐 focused ×2, 😎 confident ×1\n' +
  '*Open blockers (1)*\n' +
  '• Waiting on a teammate to review the *webhook retry* change (3 days)\n';

/** Every file under the test's home (config, state, cache, the outbox database) that holds the webhook's secret, but config.json. */
function filesWithSecret(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = statSync(path);
      if (info.isDirectory()) walk(path);
      else if (info.isFile() && readFileSync(path).toString('latin1').includes(SECRET)) out.push(path);
    }
  };
  walk(root);
  return out;
}

/** The one line an accepted post of WEEK to `chat` says (which chat, which period; never the URL). */
const posted = (chat = 'Slack') => `✓ Posted the check-ins of Mon 16 Nov – Sun 22 Nov 2026 to the ${chat} webhook at ${new URL(base).host}\n`;

const listed = async () => JSON.parse((await w.cli(['drafts', '--json', 'id,for,text'])).stdout) as Array<{ id: string; for: string; text: string }>;

describe('checkin report --post', () => {
  it('one POST to Slack with the digest as {"text"} (mrkdwn, no names), nothing on stdout, the URL nowhere', async () => {
    const r = await w.cli(['report', ...WEEK, '--post', slack()]);
    // Nothing on stdout: one line on stderr says it went, wherever it runs.
    expect(r).toEqual({ code: 0, stdout: '', stderr: posted() });
    expect(received).toEqual([
      { method: 'POST', path: `/services/T0001/B0002/${SECRET}`, type: 'application/json; charset=utf-8', body: JSON.stringify({ text: WEEK_TEXT }) },
    ]);
    // What --format slack prints is what was posted.
    expect((await w.cli(['report', ...WEEK, '--format', 'slack'])).stdout).toBe(WEEK_TEXT);
    // Nothing kept: the post was accepted.
    expect(await listed()).toEqual([]);
    expect(filesWithSecret(w.env.HOME!)).toEqual([]);
  });

  it('--names names who is blocked and keeps the @mention; a terminal hears one ✓ line naming the chat and host only', async () => {
    const r = await w.cli(['report', ...WEEK, '--post', slack(), '--names'], { tty: true });
    expect(r.code).toBe(0);
    // The URL typed at a terminal: one note on keeping it out of the shell's history.
    expect(r.stderr).toBe(
      "note: a webhook URL on the command line stays in your shell's history; `checkin config set webhook -` keeps it for this profile (read from standard input), then `checkin report --post` posts there.\n" +
        posted(),
    );
    // Kept for the profile: no note.
    expect((await w.cli(['config', 'set', 'webhook', '-'], { input: `${slack()}\n` })).code).toBe(0);
    const kept = await w.cli(['report', ...WEEK, '--post'], { tty: true });
    expect(kept.stderr).toBe(posted());
    expect(JSON.parse(received[0]!.body).text).toContain('• Linus Torvalds: Waiting on @ada to review the *webhook retry* change (3 days)\n');
  });

  it('--format slack-blocks posts the Block Kit payload as printed', async () => {
    const printed = await w.cli(['report', ...WEEK, '--format', 'slack-blocks']);
    const blocks = JSON.parse(printed.stdout);
    expect(blocks.blocks.map((b: { type: string }) => b.type)).toEqual(['header', 'section', 'section']);
    expect(blocks.blocks[2].text.text).toBe('*Open blockers (1)*\n• Waiting on a teammate to review the *webhook retry* change (3 days)');
    expect((await w.cli(['report', ...WEEK, '--format', 'slack-blocks', '--post', slack()])).code).toBe(0);
    expect(received.map((r) => JSON.parse(r.body))).toEqual([blocks]);
    // Block Kit is Slack's alone: refused for Discord before any request.
    w.forget();
    const refused = await w.cli(['report', ...WEEK, '--format', 'slack-blocks', '--post', discord()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Block Kit is Slack's; Discord takes --format slack");
    expect(w.sent()).toEqual([]);
    const mm = await w.cli(['report', ...WEEK, '--format', 'slack-blocks', '--post', mattermost()]);
    expect(mm.code).toBe(2);
    expect(mm.stderr).toContain("Block Kit is Slack's; Mattermost takes --format slack");
    expect(w.sent()).toEqual([]);
    expect(received).toHaveLength(1);
  });

  it('Discord gets {"content"} within 2000 characters and no mention allowed; Mattermost {"text"} in Markdown', async () => {
    expect((await w.cli(['report', ...WEEK, '--post', discord(), '--names'])).code).toBe(0);
    expect((await w.cli(['report', ...WEEK, '--post', mattermost()])).code).toBe(0);
    const [d, m] = received.map((r) => JSON.parse(r.body));
    expect(Object.keys(d)).toEqual(['content', 'allowed_mentions']);
    expect(d.allowed_mentions).toEqual({ parse: [] });
    expect(d.content.length).toBeLessThanOrEqual(2000);
    expect(d.content).toMatch(/^\*\*Check-ins, Mon 16 Nov – Sun 22 Nov 2026\*\*\n/);
    expect(d.content).toContain('- Linus Torvalds: Waiting on \\@\u2060ada');
    expect(Object.keys(m)).toEqual(['text']);
    expect(m.text).toContain('- Waiting on a teammate to review');
  });

  it('--if-new: a period with nothing in it posts nothing; the same week again posts nothing; a check-in changed since posts again', async () => {
    // A week the demo data holds nothing for (a year before it): nothing new, nothing posted, no draft.
    const quiet = await w.cli(['report', '--since', '2025-11-17', '--until', '2025-11-23', '--post', slack(), '--if-new']);
    expect(quiet).toEqual({
      code: 0,
      stdout: '',
      stderr: `Not posted to the Slack webhook at ${new URL(base).host} (--if-new): nothing was checked in or updated in the period.\n`,
    });
    expect(received).toEqual([]);
    expect((await w.cli(['report', ...WEEK, '--post', slack(), '--if-new'])).code).toBe(0);
    expect(received).toHaveLength(1);
    const again = await w.cli(['report', ...WEEK, '--post', slack(), '--if-new']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^Not posted to the Slack webhook at [^:]+:\d+ \(--if-new\): nothing new since the last post, \w{3} \d+ \w{3} \d\d:\d\d\.\n$/);
    expect(received).toHaveLength(1);
    // Another webhook has its own marker: posted there.
    expect((await w.cli(['report', ...WEEK, '--post', mattermost(), '--if-new'])).code).toBe(0);
    expect(received).toHaveLength(2);
    // A check-in of the week changed after the post: new.
    w.clock.sleep(60_000);
    const friday = w.sb.service.data.check_ins.find((c) => c.person_id === w.id('ada') && c.date === '2026-11-20')!;
    expect((await w.cli(['checkin', friday.date, '--mood', 'happy'])).code).toBe(0);
    expect((await w.cli(['report', ...WEEK, '--post', slack(), '--if-new'])).code).toBe(0);
    expect(received).toHaveLength(3);
    expect(filesWithSecret(w.env.HOME!)).toEqual([]);
  });

  it('a refused post (500) exits 1 with a clear line, keeps the body as a draft; --resume sends it once, as kept', async () => {
    answers.push({ status: 500, body: `internal error at /services/T0001/B0002/${SECRET}` });
    const r = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Slack refused the post: 500 (internal error at [webhook]); nothing was posted');
    // Given on the command line: what sends it gives the URL again (never said).
    expect(r.stderr).toContain('`checkin report --post <the URL you gave> --resume` sends it');
    expect(r.stderr).not.toContain(SECRET);
    const kept = await listed();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.text).toBe(JSON.stringify({ text: WEEK_TEXT }));
    received = [];
    // Resumed against the same webhook: the kept post once, as kept, and none left; no report is read.
    w.forget();
    const resumed = await w.cli(['report', '--post', slack(), '--resume']);
    expect(resumed.code).toBe(0);
    expect(received.map((x) => x.body)).toEqual([JSON.stringify({ text: WEEK_TEXT })]);
    expect(w.sent().filter((s) => !s.startsWith('GET /api/v2/me'))).toEqual([]);
    expect(await listed()).toEqual([]);
    expect(filesWithSecret(w.env.HOME!)).toEqual([]);
  });

  it('a post refused for its words (a 400, 413 or 422) is kept, never lost, and --resume does not send it blindly: it says how to see it and send it', async () => {
    // Refused for now (500): kept as it was. Then the same words refused for what they are (400): exit 2, kept once, and marked so.
    answers.push({ status: 500, body: 'down' });
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    const kept = await listed();
    answers.push({ status: 400, body: 'invalid_payload' });
    const bad = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Slack refused the post: 400 (invalid_payload); nothing was posted');
    expect(bad.stderr).toContain(`note: the same post to the Slack webhook at ${new URL(base).host} was kept already; it is kept once.\n`);
    expect((await listed()).map((d) => d.id)).toEqual(kept.map((d) => d.id));
    received = [];
    // --resume sends nothing, says why and what to run; the words are still kept.
    const id = kept[0]!.id;
    const resumed = await w.cli(['report', '--post', slack(), '--resume']);
    expect(resumed).toMatchObject({ code: 1, stdout: '' });
    expect(resumed.stderr).toMatch(
      new RegExp(
        `^note: the draft ${id} was refused for its words on \\w{3} \\d+ \\w{3} \\d\\d:\\d\\d \\(Slack refused the post: 400 \\(invalid_payload\\); nothing was posted\\); it is kept and not sent again by a resume\\. \`checkin drafts show ${id}\` shows it; \`CHECKIN_WEBHOOK=<the URL you gave> checkin drafts send ${id}\` sends it again as it is, \`checkin drafts drop ${id}\` drops it\\.\n`,
      ),
    );
    expect(resumed.stderr).toContain('Nothing was sent: the draft for a post to the Slack webhook');
    expect(received).toEqual([]);
    expect((await listed()).map((d) => d.text)).toEqual([JSON.stringify({ text: WEEK_TEXT })]);
    // `checkin drafts` says so too.
    const states = JSON.parse((await w.cli(['drafts', '--json', 'id,state'])).stdout) as Array<{ id: string; state: string }>;
    expect(states).toEqual([{ id, state: expect.stringMatching(/^refused for its words \w{3} \d+ \w{3} \d\d:\d\d$/) }]);
    // Sent by its id, on the person's word: once, and then done with.
    expect((await w.cli(['drafts', 'send', id], { env: { CHECKIN_WEBHOOK: slack() } })).code).toBe(0);
    expect(received.map((x) => x.body)).toEqual([JSON.stringify({ text: WEEK_TEXT })]);
    expect(await listed()).toEqual([]);
    // A first post refused for its words is marked too; a 408 is not (a moment's, not the words'): --resume sends it.
    answers.push({ status: 422, body: 'no_text' });
    expect((await w.cli(['report', ...WEEK, '--post', mattermost()])).code).toBe(2);
    expect((await w.cli(['report', '--post', mattermost(), '--resume'])).stderr).toContain('was refused for its words');
    expect((await w.cli(['drafts', 'drop', (await listed())[0]!.id, '--yes'])).code).toBe(0);
    answers.push({ status: 408, body: 'timeout' });
    expect((await w.cli(['report', ...WEEK, '--post', mattermost()])).code).toBe(1);
    received = [];
    expect((await w.cli(['report', '--post', mattermost(), '--resume'])).code).toBe(0);
    expect(received).toHaveLength(1);
    expect(await listed()).toEqual([]);
  });

  it('a post to a URL given on the command line, refused (404): the advice gives that URL again without saying it, and what it says works', async () => {
    const host = new URL(base).host;
    answers.push({ status: 404, body: 'no_service' });
    const r = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: Slack refused the post: 404 (no_service); nothing was posted\n' +
        'What you wrote is kept as a draft: `checkin report --post <the URL you gave> --resume` sends it (`checkin drafts` lists everything waiting).\n',
    });
    const [kept] = await listed();
    // Not the configured webhook (there is none): `drafts send` says what to type, and sends nothing.
    received = [];
    const bare = await w.cli(['drafts', 'send', kept!.id]);
    expect(bare).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error: The draft ${kept!.id} is a post to a webhook whose URL was given on the command line, and checkin keeps no such URL; it was not sent and is still kept\n` +
        `\`CHECKIN_WEBHOOK=<the URL you gave> checkin drafts send ${kept!.id}\` sends it there.\n`,
    });
    expect(received).toEqual([]);
    // As the advice said: the kept post once, said in one line (which chat, which period; never the URL).
    const resumed = await w.cli(['report', '--post', slack(), '--resume']);
    expect(resumed).toEqual({ code: 0, stdout: '', stderr: `✓ Posted the check-ins of Mon 16 Nov – Sun 22 Nov 2026 to the Slack webhook at ${host}\n` });
    expect(received.map((x) => x.body)).toEqual([JSON.stringify({ text: WEEK_TEXT })]);
    expect(await listed()).toEqual([]);
    // The same by its id, the URL given as the advice says.
    answers.push({ status: 404, body: 'no_service' });
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(2);
    const [again] = await listed();
    const sent = await w.cli(['drafts', 'send', again!.id], { env: { CHECKIN_WEBHOOK: slack() } });
    expect(sent).toEqual({ code: 0, stdout: '', stderr: `✓ Posted the check-ins of Mon 16 Nov – Sun 22 Nov 2026 to the Slack webhook at ${host}\n` });
    expect(await listed()).toEqual([]);
    expect(filesWithSecret(w.env.HOME!)).toEqual([]);
  });

  it('a post refused for its words (400): the failed post and --resume give the same advice (show, send by its id, drop), never "--resume sends it"', async () => {
    expect((await w.cli(['config', 'set', 'webhook', '-'], { input: `${slack()}\n` })).code).toBe(0);
    answers.push({ status: 400, body: 'invalid_payload' });
    const bad = await w.cli(['report', ...WEEK, '--post']);
    const [kept] = await listed();
    const id = kept!.id;
    const advice = `\`checkin drafts show ${id}\` shows it; \`checkin drafts send ${id}\` sends it again as it is, \`checkin drafts drop ${id}\` drops it.`;
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: Slack refused the post: 400 (invalid_payload); nothing was posted\nThe draft ${id} is kept and not sent again by a resume. ${advice}\n`,
    });
    const resumed = await w.cli(['report', '--post', '--resume']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(
      new RegExp(
        `^note: the draft ${id} was refused for its words on [^(]+\\(Slack refused the post: 400 \\(invalid_payload\\); nothing was posted\\); it is kept and not sent again by a resume\\. `,
      ),
    );
    expect(resumed.stderr).toContain(advice);
    // The same words refused again: this run's copy goes, and the advice names the one kept.
    answers.push({ status: 400, body: 'invalid_payload' });
    const twice = await w.cli(['report', ...WEEK, '--post']);
    expect(twice.stderr).toBe(
      `note: the same post to the Slack webhook at ${new URL(base).host} was kept already; it is kept once.\n` +
        `error: Slack refused the post: 400 (invalid_payload); nothing was posted\nThe draft ${id} is kept and not sent again by a resume. ${advice}\n`,
    );
    // Sent by its id, as said: once, and said.
    const sent = await w.cli(['drafts', 'send', id]);
    expect(sent).toEqual({
      code: 0,
      stdout: '',
      stderr: `✓ Posted the check-ins of Mon 16 Nov – Sun 22 Nov 2026 to the Slack webhook at ${new URL(base).host}\n`,
    });
    expect(await listed()).toEqual([]);
  });

  it('a refusal by the webhook itself (403, 404 channel_not_found, 410 channel_is_archived) is not of the words: exit 2, kept unmarked, and --resume sends it once the channel is put right', async () => {
    for (const [status, body] of [
      [403, 'action_prohibited'],
      [404, 'channel_not_found'],
      [410, 'channel_is_archived'],
    ] as const) {
      answers.push({ status, body });
      const r = await w.cli(['report', ...WEEK, '--post', slack()]);
      expect({ status, code: r.code, stderr: r.stderr }).toEqual({
        status,
        code: 2,
        stderr: expect.stringContaining(`Slack refused the post: ${status} (${body}); nothing was posted`),
      });
      const states = JSON.parse((await w.cli(['drafts', '--json', 'state'])).stdout) as Array<{ state: string }>;
      expect({ status, states }).toEqual({ status, states: [{ state: 'waiting' }] });
      received = [];
      expect((await w.cli(['report', '--post', slack(), '--resume'])).code).toBe(0);
      expect(received.map((x) => x.body)).toEqual([JSON.stringify({ text: WEEK_TEXT })]);
      expect(await listed()).toEqual([]);
    }
  });

  it('a resumed post moves the --if-new marker: the week is not posted again', async () => {
    answers.push({ status: 500, body: 'down' });
    expect((await w.cli(['report', ...WEEK, '--post', slack(), '--if-new'])).code).toBe(1);
    expect((await w.cli(['report', '--post', slack(), '--resume'])).code).toBe(0);
    expect(received.map((x) => x.body)).toEqual([JSON.stringify({ text: WEEK_TEXT }), JSON.stringify({ text: WEEK_TEXT })]);
    const again = await w.cli(['report', ...WEEK, '--post', slack(), '--if-new']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^Not posted to the Slack webhook at [^:]+:\d+ \(--if-new\): nothing new since the last post, \w{3} \d+ \w{3} \d\d:\d\d\.\n$/);
    expect(received).toHaveLength(2);
    // Sent by `drafts send` too: the marker moves the same way.
    answers.push({ status: 500, body: 'down' });
    expect((await w.cli(['report', ...WEEK, '--post', mattermost(), '--if-new'])).code).toBe(1);
    const [kept] = await listed();
    expect((await w.cli(['drafts', 'send', kept!.id], { env: { CHECKIN_WEBHOOK: mattermost() } })).code).toBe(0);
    expect(received).toHaveLength(4);
    expect((await w.cli(['report', ...WEEK, '--post', mattermost(), '--if-new'])).stderr).toContain('(--if-new): nothing new since the last post');
    expect(received).toHaveLength(4);
  });

  it('a post accepted after a refusal of the same text ends the kept draft: --resume has nothing to post', async () => {
    answers.push({ status: 500, body: 'down' });
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    expect(await listed()).toHaveLength(1);
    const ok = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(ok).toEqual({
      code: 0,
      stdout: '',
      stderr: `note: a kept post of the same text to the Slack webhook at ${new URL(base).host} is done with (dropped).\n${posted()}`,
    });
    expect(await listed()).toEqual([]);
    const resumed = await w.cli(['report', '--post', slack(), '--resume']);
    expect(resumed.code).not.toBe(0);
    expect(received).toHaveLength(2);
  });

  it('a kept post goes only to its own webhook; `drafts send` sends it to the configured one', async () => {
    answers.push({ status: 503, body: 'down' });
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    const [kept] = await listed();
    expect(kept!.for).toBe('a post to a chat webhook');
    received = [];
    const other = await w.cli(['report', '--post', mattermost(), '--resume']);
    expect(other.code).not.toBe(0);
    expect(received).toEqual([]);
    // Kept for the profile, the webhook is the one `drafts send` uses.
    expect((await w.cli(['config', 'set', 'webhook', '-'], { input: `${slack()}\n` })).code).toBe(0);
    const sent = await w.cli(['drafts', 'send', kept!.id]);
    expect(sent.code).toBe(0);
    expect(received.map((x) => x.body)).toEqual([JSON.stringify({ text: WEEK_TEXT })]);
    expect(await listed()).toEqual([]);
  });

  it('429 with Retry-After: waited for and posted again, once; a second 429 is refused and kept', async () => {
    answers.push({ status: 429, headers: { 'retry-after': '2' }, body: 'rate_limited' });
    const r = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(r).toEqual({ code: 0, stdout: '', stderr: `Slack asked to wait 2 s; posting again then…\n${posted()}` });
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(w.clock.slept).toContain(2000);
    expect(await listed()).toEqual([]);
    received = [];
    answers.push({ status: 429, headers: { 'retry-after': '1' } }, { status: 429, headers: { 'retry-after': '1' } });
    const twice = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('Slack refused the post: 429; nothing was posted');
    expect(received).toHaveLength(2);
    expect(await listed()).toHaveLength(1);
    // A 500 is not retried, with or without Retry-After; a wait longer than a minute is not waited for.
    received = [];
    answers.push({ status: 500, headers: { 'retry-after': '1' } });
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    answers.push({ status: 429, headers: { 'retry-after': '3600' } });
    const long = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(long.stderr).toContain('Slack refused the post: 429 and asked to wait 3600 s, longer than checkin waits; nothing was posted');
    expect(received).toHaveLength(2);
  });

  it('--debug traces the post with the URL as its origin and [webhook] only', async () => {
    const r = await w.cli(['report', ...WEEK, '--post', slack(), '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`> POST ${base}/[webhook]\n`);
    expect(r.stderr).toContain('< 200\n');
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain('/services/T0001');
  });

  it("--debug: a refusal that repeats the webhook's path is traced with [webhook] in its place", async () => {
    answers.push({ status: 500, body: `no such hook: /services/T0001/B0002/${SECRET}` });
    const r = await w.cli(['report', ...WEEK, '--post', slack(), '--debug']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('< no such hook: [webhook]\n');
    expect(r.stderr).toContain('Slack refused the post: 500 (no such hook: [webhook]); nothing was posted');
    expect(r.stderr).not.toContain(SECRET);
  });

  it("a refusal or trace that repeats only the webhook's token (its last part) says [webhook] in its place", async () => {
    answers.push({ status: 404, body: `{"message": "Unknown Webhook", "token": "${SECRET}"}` });
    const r = await w.cli(['report', ...WEEK, '--post', discord(), '--debug']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Discord refused the post: 404 ({"message": "Unknown Webhook", "token": "[webhook]"}); nothing was posted');
    expect(r.stderr).not.toContain(SECRET);
  });

  it('the webhook kept for the profile: set from standard input, shown redacted, 0600, used by --post, unset', async () => {
    const set = await w.cli(['config', 'set', 'webhook', '-'], { input: `${slack()}\n` });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/^The webhook is the Slack webhook at 127\.0\.0\.1:\d+, kept in .*config\.json \(there is no keychain in the tests\)\.\n$/);
    expect(set.stderr + set.stdout).not.toContain(SECRET);
    expect(await w.cli(['config', 'get', 'webhook'])).toEqual({ code: 0, stdout: `${base}/… (Slack; in config.json)\n`, stderr: '' });
    expect(JSON.parse((await w.cli(['config', 'get', 'webhook', '--json'])).stdout)).toEqual({ service: 'Slack', host: new URL(base).host, kept: 'file' });
    expect((await w.cli(['config', 'list'])).stdout).toContain(`webhook=${base}/… (Slack; in config.json)\n`);
    const file = join(w.configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(filesWithSecret(w.env.HOME!)).toEqual([file]);
    const r = await w.cli(['report', ...WEEK, '--post']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: posted() });
    expect(received.map((x) => x.path)).toEqual([`/services/T0001/B0002/${SECRET}`]);
    expect((await w.cli(['config', 'unset', 'webhook'])).code).toBe(0);
    expect(filesWithSecret(w.env.HOME!)).toEqual([]);
    const none = await w.cli(['report', ...WEEK, '--post']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No webhook to post to');
  });

  it('refused before any request: http to another host, a URL no chat has, a user in it; the URL never repeated', async () => {
    w.forget();
    for (const [url, words] of [
      [`http://hooks.slack.com/services/T/B/${SECRET}`, 'must be an https URL'],
      [`https://example.com/incoming/${SECRET}`, 'not an incoming webhook of a chat checkin knows'],
      [`https://me:${SECRET}@hooks.slack.com/services/T/B/x`, 'must not carry a user or password'],
      [`not a url ${SECRET}`, 'not a URL'],
    ] as const) {
      const r = await w.cli(['report', ...WEEK, '--post', url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(words);
      expect(r.stderr).not.toContain(SECRET);
      const set = await w.cli(['config', 'set', 'webhook', '-'], { input: url });
      expect(set.code).toBe(2);
      expect(set.stderr).not.toContain(SECRET);
    }
    // Given twice: refused, and neither URL repeated (as every other option given twice is said with its values).
    const twice = await w.cli(['report', ...WEEK, '--post', slack(), '--post', discord()]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--post was given more than once');
    expect(twice.stderr).not.toContain(SECRET);
    expect(w.sent()).toEqual([]);
    expect(received).toEqual([]);
    expect((await w.cli(['report', '--post', slack(), '--format', 'csv'])).stderr).toContain("--post sends the team's digest");
    expect((await w.cli(['report', '--if-new'])).stderr).toContain('--if-new is for --post');
  });

  it('doctor reaches the kept webhook without posting: a HEAD to Slack, a GET to Discord (404: a problem); the URL never said', async () => {
    expect((await w.cli(['config', 'set', 'webhook', '-'], { input: slack() })).code).toBe(0);
    const check = async () => {
      const r = await w.cli(['doctor', '--json']);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      return { code: r.code, webhook: (JSON.parse(r.stdout) as Array<{ id: string; status: string; message: string }>).find((c) => c.id === 'webhook') };
    };
    const host = new URL(base).host;
    expect((await check()).webhook).toMatchObject({
      status: 'ok',
      message: `the Slack webhook at ${host}: reachable (HEAD answered 200; nothing posted — whether it takes a post is known only by posting)`,
    });
    expect(received.map((r) => [r.method, r.body])).toEqual([['HEAD', '']]);
    received = [];
    expect((await w.cli(['config', 'set', 'webhook', '-'], { input: discord() })).code).toBe(0);
    answers.push({ status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' });
    const gone = await check();
    expect(gone.code).toBe(1);
    expect(gone.webhook).toMatchObject({
      status: 'problem',
      message: `the Discord webhook at ${host}: Discord does not know it (GET answered 404): deleted, or its token changed`,
    });
    expect(received.map((r) => r.method)).toEqual(['GET']);
    // Unreachable: the receiver gone.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const down = await check();
    expect(down.webhook).toMatchObject({ status: 'problem', message: `the Discord webhook at ${host}: cannot be reached (ECONNREFUSED)` });
    server = createServer().listen(0, '127.0.0.1');
  });

  it('with a keychain, the webhook is kept there (account "webhook <profile>"), config.json only says so; each profile has its own', async () => {
    const entries = new Map<string, string>();
    const keychain = () => ({
      name: 'the test keychain',
      get: (account: string) => entries.get(account),
      set: (account: string, secret: string) => void entries.set(account, secret),
      delete: (account: string) => void entries.delete(account),
    });
    const set = await w.cli(['config', 'set', 'webhook', '-'], { input: slack(), secrets: keychain });
    expect(set.stderr).toBe(`The webhook is the Slack webhook at ${new URL(base).host}, kept in the test keychain.\n`);
    expect([...entries]).toEqual([['webhook default', slack()]]);
    expect(filesWithSecret(w.env.HOME!)).toEqual([]);
    expect((await w.cli(['config', 'get', 'webhook'], { secrets: keychain })).stdout).toBe(`${base}/… (Slack; in the keychain)\n`);
    expect((await w.cli(['report', ...WEEK, '--post'], { secrets: keychain })).code).toBe(0);
    expect(received.map((r) => r.path)).toEqual([`/services/T0001/B0002/${SECRET}`]);
    // Another profile (made here: an unknown one is refused before anything) has none of it.
    expect((await w.cli(['--profile', 'work', 'config', 'set', 'team', 'Platform'], { secrets: keychain })).code).toBe(0);
    const other = await w.cli(['report', ...WEEK, '--post', '--profile', 'work'], { secrets: keychain });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('No webhook to post to');
    expect((await w.cli(['config', 'unset', 'webhook'], { secrets: keychain })).code).toBe(0);
    expect([...entries]).toEqual([]);
  });

  it('a post that got no answer (the connection dropped after it went) may have reached the chat: kept, and never posted again unasked', async () => {
    answers.push({ status: 0, hangUp: true });
    const r = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('may have reached the service');
    expect(r.stderr).not.toContain(SECRET);
    expect(received).toHaveLength(1);
    const resumed = await w.cli(['report', '--post', slack(), '--resume']);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain('may have reached the service');
    expect(received).toHaveLength(1);
    expect(await listed()).toHaveLength(1);
  });
  it('a post that may have reached the chat is not posted again by a new run of the same text (a retried job, --if-new): it says so', async () => {
    answers.push({ status: 0, hangUp: true });
    expect((await w.cli(['report', ...WEEK, '--post', slack(), '--if-new'])).code).toBe(1);
    const [kept] = await listed();
    for (const flags of [['--if-new'], []]) {
      const again = await w.cli(['report', ...WEEK, '--post', slack(), ...flags]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`The draft ${kept!.id} may have reached the service`);
      expect(again.stderr).not.toContain(SECRET);
    }
    expect(received).toHaveLength(1);
    expect((await listed()).map((d) => d.id)).toEqual([kept!.id]);
    // Another period is another text: posted.
    expect((await w.cli(['report', '--since', '2026-11-09', '--until', '2026-11-15', '--post', slack()])).code).toBe(0);
    expect(received).toHaveLength(2);
  });
  it('Discord is sent &, < and > as written, escaped by a backslash (it shows HTML entities as typed); Slack and Mattermost read them as entities', async () => {
    for (const c of w.sb.service.data.check_ins) if (c.blockers?.includes('webhook retry')) c.blockers = 'Waiting on R&D: latency < 200 ms > <@U123>';
    for (const url of [discord(), mattermost(), slack()]) expect((await w.cli(['report', ...WEEK, '--post', url])).code).toBe(0);
    const [d, m, s] = received.map((r) => JSON.parse(r.body) as { content?: string; text?: string });
    expect(d!.content).toContain('- Waiting on R&D\\: latency \\< 200 ms \\> \\<a teammate\\> (3 days)\n');
    expect(m!.text).toContain('- Waiting on R&amp;D\\: latency &lt; 200 ms &gt; &lt;a teammate&gt; (3 days)\n');
    expect(s!.text).toContain('• Waiting on R&amp;D: latency &lt; 200 ms &gt; &lt;a teammate&gt; (3 days)\n');
  });
  it('a kept post of a week that a later post of the same week outdoes is done with: the week is never posted twice, by a new post or --resume', async () => {
    const friday = w.sb.service.data.check_ins.find((c) => c.person_id === w.id('ada') && c.date === '2026-11-20')!;
    const change = async (mood: string) => {
      w.clock.sleep(60_000);
      expect((await w.cli(['checkin', friday.date, '--mood', mood])).code).toBe(0);
    };
    // Refused, kept; the week changes; posted anew and accepted: the kept one (older words of the same week) goes.
    answers.push({ status: 500, body: 'down' });
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    await change('happy');
    const ok = await w.cli(['report', ...WEEK, '--post', slack()]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe(
      `note: a kept post of the same period with no newer words to the Slack webhook at ${new URL(base).host} is done with (dropped).\n${posted()}`,
    );
    expect(await listed()).toEqual([]);
    expect(received).toHaveLength(2);
    // Refused twice, the week changing between: --resume posts the newer words once, and drops the older.
    received = [];
    answers.push({ status: 500, body: 'down' }, { status: 500, body: 'down' });
    await change('tired');
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    await change('calm');
    expect((await w.cli(['report', ...WEEK, '--post', slack()])).code).toBe(1);
    expect(await listed()).toHaveLength(2);
    const newer = received[1]!.body;
    const resumed = await w.cli(['report', '--post', slack(), '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(
      `note: a kept post to the Slack webhook at ${new URL(base).host} of a period that a newer kept post covers dropped; each period is posted once, with its newest words.\n`,
    );
    expect(received.map((r) => r.body)).toEqual([received[0]!.body, newer, newer]);
    expect(await listed()).toEqual([]);
  });
});
