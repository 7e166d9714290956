// git as a careful guest: a repository's own config names programs (a signature verifier, a pager,
// an fsmonitor hook, an external diff, a textconv filter); the *previous* suggestion reads `git log`
// there and none of them may run. git is bounded too: a hung wrapper and its children are killed
// at the deadline, and a huge output or subject is cut, never a reason to drop the repository.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runGit } from '../../src/system/git.js';
import { tempDir } from '../helpers/cleanup.js';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();
let root: string;
let repo: string;
let marks: string;

/** A script that, if anything runs it, leaves a file named after it in `marks`. */
function trap(name: string): string {
  const path = join(root, `${name}.sh`);
  writeFileSync(path, `#!/bin/sh\necho ran > '${join(marks, name)}'\ncat >/dev/null 2>&1\nexit 0\n`);
  chmodSync(path, 0o755);
  return path;
}

const git = (...args: string[]) =>
  execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_COMMITTER_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_EMAIL: 'ada@example.com' },
  });

beforeEach(() => {
  root = tempDir('checkin-hostile-git-');
  repo = join(root, 'hostile');
  marks = join(root, 'marks');
  mkdirSync(repo);
  mkdirSync(marks);
  git('init', '-q');
  git('config', 'user.email', 'ada@example.com');
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  writeFileSync(join(repo, '.gitattributes'), '* diff=evil\n');
  git('add', '.');
  git('commit', '-q', '-m', 'Plain work');
  // A signed commit: the verifier would run for log --show-signature (log.showSignature=true below).
  const head = git('cat-file', 'commit', 'HEAD');
  const signed = head.replace(/(committer [^\n]*\n)/, '$1gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n');
  const sha = execFileSync('git', ['-C', repo, 'hash-object', '-t', 'commit', '-w', '--stdin'], { input: signed, encoding: 'utf8' }).trim();
  git('update-ref', 'HEAD', sha);
  // A 3 MB subject.
  writeFileSync(join(root, 'huge-message'), `${'Huge '.repeat(600_000)}\n`);
  git('commit', '-q', '--allow-empty', '-F', join(root, 'huge-message'));
  git('commit', '-q', '--allow-empty', '-m', 'After the huge one');
  // The repository's own config: every program it names is a trap.
  git('config', 'log.showSignature', 'true');
  git('config', 'gpg.program', trap('gpg'));
  git('config', 'core.pager', trap('pager'));
  git('config', 'pager.log', trap('pager-log'));
  git('config', 'core.fsmonitor', trap('fsmonitor'));
  git('config', 'diff.external', trap('external-diff'));
  git('config', 'diff.evil.textconv', trap('textconv'));
  git('config', 'core.hooksPath', join(root, 'hooks'));
  mkdirSync(join(root, 'hooks'));
  for (const hook of ['post-checkout', 'post-index-change', 'reference-transaction'])
    writeFileSync(join(root, 'hooks', hook), readFileSync(trap(`hook-${hook}`)), { mode: 0o755 });
});

describe('git as a careful guest', () => {
  it('the fixture is hostile: plain git run there starts the programs its config names', () => {
    execFileSync('git', ['-C', repo, 'log', '-3', '--format=%s'], { stdio: 'ignore' });
    execFileSync('git', ['-C', repo, 'status'], { stdio: 'ignore' });
    expect(existsSync(join(marks, 'gpg'))).toBe(true);
    expect(existsSync(join(marks, 'fsmonitor'))).toBe(true);
  });

  it('today --suggest reads the commits there and runs none of the programs; the 3 MB subject is cut, not a reason to skip', async () => {
    const r = await w.cli(['today', '--suggest', '--json'], { env: { CHECKIN_GIT_REPOS: repo } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const commits = (JSON.parse(r.stdout) as { since_last_check_in: string[] }).since_last_check_in.filter((b) => b.endsWith('(hostile)'));
    // git cuts the subject to 200 columns, ending it with "..".
    expect(commits).toEqual(['- After the huge one (hostile)', `- ${'Huge '.repeat(40).slice(0, 198)}.. (hostile)`, '- Plain work (hostile)']);
    expect(execFileSync('ls', [marks], { encoding: 'utf8' })).toBe('');
  });

  it('a git that hangs, with children of its own, is killed whole at the deadline; the skip says why', async () => {
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nsleep 600 &\necho $! > '${join(marks, 'grandchild')}'\nsleep 600\n`, { mode: 0o755 });
    const result = await runGit(repo, ['log'], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeoutMs: 300 });
    expect(result).toEqual({ ok: false, why: 'timeout', stderr: '' });
    const pid = Number(readFileSync(join(marks, 'grandchild'), 'utf8'));
    expect(await gone(pid)).toBe(true);
  });

  it('output past the cap keeps the whole lines that fit', async () => {
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nyes 'a line of output' | head -c 3000000\n`, { mode: 0o755 });
    const result = await runGit(repo, ['log'], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, maxBytes: 1000 });
    expect(result.ok && result.cut).toBe(true);
    if (result.ok) expect(result.out).toBe('a line of output\n'.repeat(Math.floor(1000 / 17)));
  });

  it('a failure with nothing on stderr still says why', async () => {
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const r = await w.cli(['today', '--suggest'], { env: { CHECKIN_GIT_REPOS: repo, PATH: `${bin}:${process.env.PATH}` } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`note: git log failed in ${repo}: exit status 3; skipped\n`);
  });
});

/** Whether a process is gone (or a zombie waiting to be reaped), polling briefly: the kill is asynchronous. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
