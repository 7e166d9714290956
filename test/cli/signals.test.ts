// A stop signal never loses a word: what was piped is on disk before the first request goes out
// (GET /me included, when the person's zone is not cached yet), and SIGINT, SIGTERM or SIGHUP in
// any window leaves the draft and says in one plain line how to send it. The built binary, a
// sandbox that never answers the request of the window, and real signals.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { draftEntries } from '../helpers/outbox.js';
import { folderView } from '../helpers/outbox.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

const drafts = () => draftEntries<{ target: unknown; content: unknown }>(env.CHECKIN_CONFIG_DIR!);

/** Resolves once the sandbox holds a request of `method` unanswered (the window is open). */
async function hanging(method: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (sb.requests.some((r) => r.method === method && r.status === -1)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${method} request held open; got ${sb.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
}

/** Runs checkin, sends `signal` once `method` is held open, and collects how it ended. */
async function stopDuring(args: string[], input: string, method: string, signal: NodeJS.Signals) {
  const child = spawnCli(args, env);
  let stderr = '';
  let stdout = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig })),
  );
  child.stdin!.end(input);
  try {
    await hanging(method);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  child.kill(signal);
  return { ...(await ended), stdout, stderr };
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

describe('a stop signal', () => {
  for (const signal of SIGNALS) {
    it(`${signal} during the first request (GET /me, nothing cached): the piped text is kept and the line says how to send it`, async () => {
      // Without TZ, today's date is in the profile's zone: GET /me comes first.
      delete env.TZ;
      sb.inject({ method: 'GET', path: '/me', hang: true });
      const r = await stopDuring(['today', '-p', '-'], 'Piped before /me\n', 'GET', signal);
      expect(r.signal).toBe(signal);
      expect(r.stderr).toMatch(
        /^\nStopped\. What you wrote is kept as a draft: `checkin checkin \d{4}-\d\d-\d\d --resume` sends it \(`checkin drafts` lists everything waiting\)\.\n$/,
      );
      expect(drafts().map((d) => d.content)).toEqual([{ kind: 'answers', answers: { previous: 'Piped before /me' } }]);
      // Nothing went out but the GET.
      expect(sb.requests.map((q) => q.method)).toEqual(['GET']);
    });

    it(`${signal} during the PATCH: the draft is kept, the line says so, and the resume command sends it`, async () => {
      expect((await runCli(['me', '--json'], { env })).code).toBe(0); // me (and the zone) cached
      sb.inject({ method: 'PATCH', hang: true });
      const r = await stopDuring(['today', '-i', '-'], 'Piped before the PATCH\n', 'PATCH', signal);
      expect(r.signal).toBe(signal);
      const [line] = r.stderr.trim().split('\n');
      expect(r.stderr).toBe(`\n${line}\n`);
      expect(line).toMatch(
        /^Stopped\. What you wrote is kept as a draft: `checkin checkin \d{4}-\d\d-\d\d --resume` sends it \(`checkin drafts` lists everything waiting\)\.$/,
      );
      const resume = /`(checkin checkin \S+ --resume)`/.exec(line!)![1]!;
      expect(drafts().map((d) => d.content)).toEqual([{ kind: 'answers', answers: { intentions: 'Piped before the PATCH' } }]);
      const sent = await runCli([...resume.split(' ').slice(1), '--json'], { env });
      expect(sent.code).toBe(0);
      expect(JSON.parse(sent.stdout)).toMatchObject({ intentions: 'Piped before the PATCH' });
      expect(sent.stderr).toBe('');
      // The stopped run's claim was taken back: nothing at all is left.
      expect(folderView(join(env.CHECKIN_CONFIG_DIR!, 'drafts'))).toEqual([]);
    });
  }

  it('with nothing typed, a signal ends the run as it would any program: no line, no draft', async () => {
    sb.inject({ method: 'GET', hang: true });
    const r = await stopDuring(['status'], '', 'GET', 'SIGTERM');
    expect(r).toMatchObject({ signal: 'SIGTERM', stderr: '', stdout: '' });
    expect(drafts()).toEqual([]);
  });
});
