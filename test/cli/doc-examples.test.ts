// Every command example of the README and the manual, run as written in a shell against the
// sandbox: an example that errors fails here. What an example cannot do here is said once, by rule
// (a terminal it needs, a service other than this machine), and each rule must still match
// something. Ids the examples show as placeholders (`<goal-id>`, `<check-in-id>`) are the
// sandbox's own.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, cleanEnv, outcome, ROOT } from '../helpers/cli.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { docExamples, type Example } from '../helpers/doc-examples.js';

const examples = docExamples();
const hasJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Why an example is not run here; each rule names where what it needs is tested instead. */
const NOT_HERE: { why: string; test: (e: Example) => boolean }[] = [
  {
    why: 'asks questions on a terminal (test/terminal/, test/cli/today-interactive.test.ts)',
    test: (e) => /\bon a terminal\b|^asks\b|asks the questions/.test(e.comment) || /^checkin login\b(?!.*--with-token)/.test(e.line),
  },
  { why: 'opens $EDITOR on a terminal (test/terminal/prompts-editor.test.ts, editor-outbox.test.ts)', test: (e) => /\s(-e|--edit)(\s|$)/.test(e.line) },
  { why: 'a live view of the whole terminal (test/terminal/team-watch.test.ts)', test: (e) => /--watch\b/.test(e.line) },
  { why: 'numbers an inbox listing shown in this terminal (test/cli/inbox.test.ts)', test: (e) => /--reply \d/.test(e.line) },
  { why: 'starts a service that runs until Ctrl-C; this test runs its own (test/sandbox/)', test: (e) => /^checkin sandbox\b/.test(e.line) },
  { why: 'names a service other than this machine; tests talk only to 127.0.0.1', test: (e) => /example\.com/.test(e.line) },
  { why: "zsh's completion, sourced in zsh (test/terminal/completion.test.ts)", test: (e) => /completion zsh\)/.test(e.line) },
  { why: "PowerShell's $PROFILE (test/terminal/completion.test.ts checks the script)", test: (e) => /\$PROFILE/.test(e.line) },
  { why: 'jq is not installed here', test: (e) => !hasJq && /\|\s*jq\b/.test(e.line) },
];
const whyNot = (e: Example) => NOT_HERE.find((r) => r.test(e))?.why;

/** A day the examples are run on: now (the real clock, or shifted to another day for every process), and what is true that day. */
interface Day {
  name: string;
  /** The instant the day's examples run at (default: now). */
  at?: (now: Date) => Date;
  /** What is true that day, once the sandbox has started. */
  arrange?: (sb: Sandbox) => void;
  /** How many days ago the examples' repository last had a commit (0: today). */
  commitDaysAgo: number;
  examples: Example[];
}

/** The next `weekday` (0 Sunday … 6 Saturday) after today, at 10:30 UTC. */
function next(weekday: number): (now: Date) => Date {
  return (now) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 10, 30));
    do d.setUTCDate(d.getUTCDate() + 1);
    while (d.getUTCDay() !== weekday);
    return d;
  };
}
const dateKey = (at: number) => new Date(at).toISOString().slice(0, 10);
const SHIM = join(ROOT, 'test', 'helpers', 'shifted-clock.cjs');
/**
 * The examples whose checkin reads no day: neither the clock nor a day's data on the service (its
 * version, settings, shell completion, the agent's setup and skill files, the token). They are run
 * today; on another day each would be the same run again, so the other days leave them out.
 */
const READS_NO_DAY =
  /^(echo .*\| )?checkin (--version|config |completion |mcp --print-config|skill |auth status|login --with-token|logout)|^echo 'source <\(checkin completion|\$\(checkin auth token\)/;
const readmeAndTopics = examples.filter((e) => e.where.startsWith('README.md') || e.where.startsWith('docs/topics/'));
/** The README's and the topics' examples that read a day: what the other days run. */
const onOtherDays = readmeAndTopics.filter((e) => !READS_NO_DAY.test(e.line));

function examplesOn(day: Day): void {
  let sb: Sandbox;
  let release: Server | undefined;
  let env: NodeJS.ProcessEnv;
  let cwd: string;
  /** The day's clock, in this process: the real one shifted to the day (every checkin started gets the same shift). */
  let shift = 0;
  const now = () => Date.now() + shift;
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${sb.url}/${path}`, { headers: { authorization: `Bearer ${sb.token}` } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return (await res.json()) as T;
  };

  /** The example with the sandbox's ids in place of the placeholders, and what changes this machine turned into a dry run. */
  async function asRun(line: string): Promise<string> {
    const me = await api<{ id: string }>('me');
    const goals = await api<{ id: string }[]>(`goals?people_ids[]=${me.id}`);
    const goal = goals[0]!.id;
    const ids: Record<string, () => Promise<string>> = {
      '<goal-id>': async () => goal,
      '<id>': async () => goal,
      '<team-id>': async () => (await api<{ id: string }[]>('teams'))[0]!.id,
      '<update-id>': anUpdate,
      '<update-uuid>': anUpdate,
      '<answer-id>': async () => (sb.service as unknown as { data: { echo_answers: { id: string }[] } }).data.echo_answers[0]!.id,
      '<draft-id>': keptDraft,
      k7m2: keptDraft,
      '<check-in-uuid>': lastOne,
      '<check-in-id>': async () => (await lastOne()).slice(0, 8),
    };
    for (const [placeholder, id] of Object.entries(ids)) if (line.includes(placeholder)) line = line.split(placeholder).join(await id());
    // `--resume` sends what a failed attempt kept: one is kept first, as a failure would.
    if (/^checkin log --resume\b/.test(line)) await keptDraft();
    // `remind install` and `remove`, `notify install` and `uninstall` would change this machine's timers: their own --dry-run prints the same plan.
    return line.replace(/^(checkin (remind (install|remove)|notify (install|uninstall))\b.*)$/, '$1 --dry-run');
  }
  /** The newest update of any of the sandbox's goals (an example may have deleted another). */
  async function anUpdate(): Promise<string> {
    for (const g of await api<{ id: string }[]>('goals')) {
      const updates = await api<{ id: string }[]>(`goals/${g.id}/goal-updates`);
      if (updates[0]) return updates[0].id;
    }
    throw new Error('the sandbox has no goal update');
  }
  /** The person's most recent check-in before today (yesterday's, unless that was a day off). */
  async function lastOne(): Promise<string> {
    const me = await api<{ id: string }>('me');
    const yesterday = dateKey(now() - 86_400_000);
    const [c] = await api<{ id: string }[]>(`check-ins?people_ids[]=${me.id}&until=${yesterday}&per_page=1`);
    return c!.id;
  }
  /** A draft kept by a send the service failed (a 500), as a person's would be. */
  async function keptDraft(): Promise<string> {
    sb.inject({ method: 'POST', path: /\/activities$/, status: 500, body: '{"error":"down"}' });
    const r = await sh(`checkin log "Kept for the drafts examples"`);
    expect(r.code, r.stderr).toBe(1);
    const list = JSON.parse((await sh('checkin drafts --json')).stdout) as { id: string }[];
    return list.at(-1)!.id;
  }

  /** The line in bash, in the examples' folder (bounded within the test's own time). */
  function sh(line: string) {
    return outcome(track(spawn('bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })), line, 25_000);
  }

  beforeAll(async () => {
    if (once) return;
    const real = new Date();
    shift = day.at ? day.at(real).getTime() - real.getTime() : 0;
    sb = await startSandbox({ rateLimit: false, port: 0, ...(shift && { clock: () => new Date(now()) }) });
    // `checkin upgrade` asks a release folder for its SHA256SUMS: one on this machine, of this very
    // version (so the example says it is up to date), in place of GitHub's.
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    release = createServer((req, res) =>
      req.url === '/SHA256SUMS' ? res.end(`${'a'.repeat(64)}  checkin-${version}-linux-x64.tar.gz\n`) : res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => release!.listen(0, '127.0.0.1', resolve));
    day.arrange?.(sb);
    const bin = tempDir('checkin-bin-');
    writeFileSync(join(bin, 'checkin'), `#!/bin/sh\nexec '${process.execPath}'${shift ? ` --require '${SHIM}'` : ''} '${BIN}' "$@"\n`, { mode: 0o755 });
    // A machine with cron (and no systemd user manager, as here): what `remind install --dry-run` plans for.
    writeFileSync(join(bin, 'crontab'), '#!/bin/sh\n[ "$1" = -l ] && exit 0\ncat >/dev/null\n', { mode: 0o755 });
    env = cleanEnv({
      CHECKIN_API_URL: sb.url,
      CHECKIN_TOKEN: sb.token,
      TOKEN: sb.token,
      PATH: `${bin}:${process.env.PATH}`,
      BROWSER: 'true',
      EDITOR: 'true',
      GIT_CONFIG_NOSYSTEM: '1',
      CHECKIN_RELEASE_URL: `http://127.0.0.1:${(release.address() as AddressInfo).port}`,
      ...(shift && { CHECKIN_TEST_CLOCK_SHIFT_MS: String(shift) }),
    });
    // The folders a person's shell has, which the completion examples write into.
    mkdirSync(join(env.HOME!, '.config', 'fish', 'completions'), { recursive: true });
    mkdirSync(join(env.HOME!, '.zfunc'));
    // The answer template the checking-in topic sets (`checkin config set template ~/standup.md`), set
    // for every day: a day runs only some of the examples, and `--template` needs one.
    writeFileSync(join(env.HOME!, 'standup.md'), '## Previous\n- Reviewed the open PRs\n\n## Intentions\n- Team sync at 10\n');
    execFileSync(process.execPath, [BIN, 'config', 'set', 'template', join(env.HOME!, 'standup.md')], { env, stdio: 'ignore' });
    // A repository (the `git log … | checkin …` examples; git runs on the real clock) with its last
    // commit today, or days ago (a day with nothing to say), and the files examples read.
    cwd = tempDir('checkin-examples-');
    const stamp = new Date(real.getTime() - day.commitDaysAgo * 86_400_000).toISOString();
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        env: {
          ...env,
          GIT_AUTHOR_NAME: 'Ada',
          GIT_AUTHOR_EMAIL: 'ada@example.com',
          GIT_COMMITTER_NAME: 'Ada',
          GIT_COMMITTER_EMAIL: 'ada@example.com',
          GIT_AUTHOR_DATE: stamp,
          GIT_COMMITTER_DATE: stamp,
        },
        stdio: 'ignore',
      });
    git('init', '-q');
    git('config', 'user.email', 'ada@example.com');
    writeFileSync(
      join(cwd, 'answers.md'),
      '## Previous\n- Shipped the invoices endpoint\n\n## Intentions\n- Pair with @linus\n\n## Blockers\n\nMood: focused\nDone: yes\n',
    );
    writeFileSync(join(cwd, 'notes.md'), '- Done\n');
    writeFileSync(join(cwd, 'prompt.md'), 'What did you learn this week?\n');
    writeFileSync(join(cwd, 'goal.json'), '{"title": "Write the on-call handbook", "end_date": "2027-06-30"}\n');
    writeFileSync(join(cwd, 'changes.json'), '{"title": "Write the on-call handbook, second edition"}\n');
    writeFileSync(join(cwd, 'activity.json'), '{"group": "docs", "description": "Wrote the examples test"}\n');
    git('add', '.');
    git('commit', '-q', '-m', 'Reviewed the billing webhooks');
  });
  afterAll(async () => {
    await sb?.close();
    release?.closeAllConnections();
    await new Promise((resolve) => (release ? release.close(resolve) : resolve(undefined)));
  });

  describe.skipIf(once !== '')(`${day.name}${once}`, () => {
    it('the day is the day it says, for this process and for every checkin started', async () => {
      const r = await sh(`node${shift ? ` --require '${SHIM}'` : ''} -e 'console.log(new Date().toISOString().slice(0, 10))'`);
      expect(r.stdout.trim()).toBe(dateKey(now()));
      expect((await api<{ date: string }>(`check-ins/${dateKey(now())}`).catch(() => ({ date: dateKey(now()) }))).date).toBe(dateKey(now()));
    });
    for (const example of inScope(day.examples)) {
      const why = whyNot(example);
      it.skipIf(why !== undefined)(
        `${example.where}: ${example.line}${why ? ` (not here: ${why})` : ''}`,
        async () => {
          const line = await asRun(example.line);
          const r = await sh(line);
          // `status` answers 3 when today's check-in is pending: what it is for, not an error.
          const ok = r.code === 0 || (r.code === 3 && /^checkin status\b/.test(line));
          expect(ok, `${line}\nexit ${r.code}\n${r.stderr}${r.stdout.slice(0, 2000)}`).toBe(true);
        },
        30_000,
      );
    }
  });
}

// What this tests is the documents against the commands, not the Node that runs them. `npm test` in a
// clone runs every example. In CI every pass names its Node (CHECKIN_TEST_NODE, .ci/run), and each
// pass must end within 600 s where this whole file takes ~670 s on a loaded machine: so the README's
// examples (~130 s loaded), on the four days, run in one pass, on the oldest Node checkin supports
// (package.json's engines, where an example is likeliest to break); no other pass runs them.
const floor = Number(/\d+/.exec((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node)![0]);
const scope = !process.env.CHECKIN_TEST_NODE ? 'all' : Number(process.versions.node.split('.')[0]) === floor ? 'readme' : 'none';
const once = scope === 'none' ? ` — skipped: run once per CI run, on Node ${floor} (package.json's engines)` : '';
/** The examples this run runs of `list` (in CI, the README's). */
const inScope = (list: Example[]) => (scope === 'readme' ? list.filter((e) => e.where.startsWith('README.md')) : list);
describe.skipIf(once !== '')(`the examples of the README and the manual${once}`, () => {
  it('are found, and every rule for what cannot run here matches one', () => {
    expect(examples.length).toBeGreaterThan(150);
    expect(examples.filter((e) => e.where.startsWith('README.md')).length).toBeGreaterThan(20);
    expect(examples.filter((e) => e.where.startsWith('docs/commands/')).length).toBeGreaterThan(60);
    for (const rule of NOT_HERE.filter((r) => !r.why.startsWith('jq'))) expect(examples.some(rule.test), rule.why).toBe(true);
    // The other days leave out only what reads no day, and that rule finds some.
    expect(onOtherDays.length).toBeLessThan(readmeAndTopics.length);
    expect(onOtherDays.length / readmeAndTopics.length).toBeGreaterThan(0.7);
    // What is run is most of it.
    expect(examples.filter((e) => !whyNot(e)).length / examples.length).toBeGreaterThan(0.8);
  });
});

describe('run as written in a shell against the sandbox', () => {
  describe('today', () => {
    examplesOn({ name: 'today, every example', commitDaysAgo: 0, examples });
  });
  // The README's and the topics' examples on the days a newcomer meets that are not today.
  describe('a Monday (the weekend between it and the last weekday)', () => {
    examplesOn({ name: 'a Monday', at: next(1), commitDaysAgo: 0, examples: onOtherDays });
  });
  describe('after a day off (Ada absent yesterday)', () => {
    examplesOn({
      name: 'a Wednesday after a day off',
      at: next(3),
      arrange: (sb) => {
        const ada = sb.service.data.tokens.find((t) => t.token === sb.token)!.person_id;
        const yesterday = addDays(sb.service.today(), -1);
        sb.service.data.absences.push({ person_id: ada, from: yesterday, to: yesterday });
      },
      commitDaysAgo: 0,
      examples: onOtherDays,
    });
  });
  describe('a day with nothing to say (no commits since last week)', () => {
    examplesOn({ name: 'a Thursday with nothing to say', at: next(4), commitDaysAgo: 8, examples: onOtherDays });
  });
});
