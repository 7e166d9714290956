// Standard output or error that cannot be written (a full disk: /dev/full answers every write with
// ENOSPC): the failure said in one line, never an uncaught crash with a stack, and the run's exit
// code 1 (this system failed) even when the command itself succeeded. Its reader gone (EPIPE:
// `checkin list | head -1`) is not a failure: quiet, exit 0.
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { outcome, spawnCli, type CliResult, type CliStdio } from '../helpers/cli.js';
import { describeRequest } from '../helpers/harness.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

const FULL = 'error: standard output cannot be written: no space left on the device\n';
/** What `checkin list` says on stderr of a page that may not be the last. */
const MORE = 'More may follow: --page 2 for the next page, --all for every one.\n';

/** `checkin args` with stdout, stderr or both on /dev/full (stdin closed); what it wrote to the streams left to the test. */
async function onFull(args: string[], which: 'stdout' | 'stderr' | 'both', runEnv = env): Promise<CliResult> {
  const full = openSync('/dev/full', 'w');
  try {
    const stdio: CliStdio = ['pipe', which === 'stderr' ? 'pipe' : full, which === 'stdout' ? 'pipe' : full];
    const child = spawnCli(args, runEnv, { stdio });
    child.stdin!.end();
    return await outcome(child, `checkin ${args.join(' ')} (${which} on /dev/full)`);
  } finally {
    closeSync(full);
  }
}

describe.skipIf(!existsSync('/dev/full'))('output that cannot be written', () => {
  it('--version and --help: the one line on stderr and exit 1, no stack', async () => {
    for (const args of [['--version'], ['--help'], ['help', 'exit-codes']]) {
      expect({ args, ...(await onFull(args, 'stdout')) }).toEqual({ args, code: 1, signal: null, stdout: '', stderr: FULL });
    }
  });

  it('a listing against the service: asked for once, then the one line and exit 1 (with --json too)', async () => {
    // The command's own words first, as when stdout takes them; its requests made as when it does (in any order).
    for (const [args, said, asked] of [
      [['list'], MORE, ['GET /api/v2/check-ins']],
      [['list', '--json'], '', ['GET /api/v2/check-ins']],
      [['teams'], '', ['GET /api/v2/me', 'GET /api/v2/teams?page=1&per_page=50']],
    ] as const) {
      sb.requests.length = 0;
      const r = await onFull([...args], 'stdout');
      expect({ args, ...r, asked: sb.requests.map(describeRequest).sort() }).toEqual({ args, code: 1, signal: null, stdout: '', stderr: said + FULL, asked });
    }
  });

  it('a write is never cut short by it: the check-in is sent, then the failure said', async () => {
    const today = localDateKey(new Date()); // the spawned CLI runs with TZ=UTC, as this process does
    expect(await onFull(['today', '-i', 'Sent though stdout is full', '--json'], 'stdout')).toEqual({ code: 1, signal: null, stdout: '', stderr: FULL });
    expect(sb.requests.map((r) => [describeRequest(r), r.status, r.body])).toEqual([
      [`PATCH /api/v2/check-ins/${today}`, 200, { intentions: 'Sent though stdout is full' }],
    ]);
  });

  it('stderr on /dev/full: nothing can be said, no crash; a failing command keeps its own code, a run that said nothing else fails with 1', async () => {
    // An unknown option: a usage error (2), said on stderr, which fails; an uncaught crash would be 1.
    expect(await onFull(['list', '--no-such-option'], 'stderr')).toEqual({ code: 2, signal: null, stdout: '', stderr: '' });
    // Not logged in (4), said on stderr, which fails.
    expect(await onFull(['list'], 'stderr', { ...env, CHECKIN_TOKEN: undefined })).toEqual({ code: 4, signal: null, stdout: '', stderr: '' });
    // Both streams full: the version cannot be printed nor the failure said, only the code tells.
    expect(await onFull(['--version'], 'both')).toEqual({ code: 1, signal: null, stdout: '', stderr: '' });
  });

  it('stdout open only for reading (EBADF): said in words, exit 1', async () => {
    const readOnly = openSync('/dev/null', 'r');
    try {
      const child = spawnCli(['--version'], env, { stdio: ['pipe', readOnly, 'pipe'] });
      child.stdin!.end();
      expect(await outcome(child, 'checkin --version 1</dev/null')).toEqual({
        code: 1,
        signal: null,
        stdout: '',
        stderr: 'error: standard output cannot be written: bad file descriptor\n',
      });
    } finally {
      closeSync(readOnly);
    }
  });

  it('the reader gone (`checkin list | head -1`) is no failure: quiet, exit 0', async () => {
    for (const [args, said] of [
      [['list'], MORE],
      [['list', '--json'], ''],
      [['--version'], ''],
    ] as const) {
      const child = spawnCli([...args], env);
      child.stdout!.destroy(); // the reading end is gone before anything is written
      child.stdin!.end();
      const { code, signal, stderr } = await outcome(child, `checkin ${args.join(' ')} | head -1`);
      expect({ args, code, signal, stderr }).toEqual({ args, code: 0, signal: null, stderr: said });
    }
  });
});
