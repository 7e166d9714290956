// A newcomer's day without a stumble (issue 20): each stumble a new user met, tried again in a real
// terminal (the built CLI in a pseudo-terminal, the real prompts) at 60 and 120 columns, or
// through a pipe where that is how it is met.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTemplate } from '../../src/core/checkin-answers.js';
import { withProblems } from '../../src/commands/checkin/edit.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { BINARY, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { KEY, Screen } from '../helpers/terminal.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { draftEntries } from '../helpers/outbox.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const patches = () => sb.requests.filter((r) => r.method === 'PATCH');
const drafts = () => draftEntries<{ content: { answers?: Record<string, unknown> } }>(env.CHECKIN_CONFIG_DIR!);
/** Text without its whitespace: a narrow terminal wraps a line anywhere. */
const squash = (t: string) => t.replace(/\s+/g, '');
const pick = (n: number) => KEY.down.repeat(n) + KEY.enter;
/** An editor that writes `text` into the file it is given, as a person saving would. */
function fakeEditor(text: string): string {
  const dir = tempDir('checkin-editor-');
  writeFileSync(join(dir, 'text'), text);
  const script = join(dir, 'editor.sh');
  writeFileSync(script, `#!/bin/sh\ncat '${join(dir, 'text')}' > "$1"\n`, { mode: 0o755 });
  return script;
}

describe('piped or typed nothing (item 2)', () => {
  it('an empty pipe is refused with a clear line: nothing is sent, -b "" stays the way to say none', async () => {
    const r = await runCli(['today', '-p', '-'], { env, input: '' });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: Nothing came on standard input for --previous; nothing was sent\nTo say there is nothing, give it as an empty value: --previous "".\n',
    });
    expect(patches()).toEqual([]);
    expect((await runCli(['today', '-b', '', '--json'], { env })).code).toBe(0);
    expect(patches().map((p) => p.body)).toEqual([{ blockers: '' }]);
  });

  for (const cols of [60, 120]) {
    it(`Ctrl-D at once on a terminal is the same (${cols} columns)`, async () => {
      const s = new Screen(['today', '-p', '-'], env, { cols, rows: 30 });
      await s.waitFor('press Ctrl-D');
      s.type('\u0004');
      expect((await s.exit()).code).toBe(2);
      expect(squash(s.text())).toContain(squash('Nothing came on standard input for --previous; nothing was sent'));
      expect(patches()).toEqual([]);
    });
  }
});

describe('the questions (items 3, 4, 5)', () => {
  for (const cols of [60, 120]) {
    it(`an unchanged pass changes nothing and leaves no draft; Enter's hint says it keeps a blocker shown (${cols} columns)`, async () => {
      expect((await runCli(['today', '-p', 'Did a', '-i', 'Do b', '-b', 'Waiting on review'], { env })).code).toBe(0);
      const s = new Screen(['today'], env, { cols, rows: 40 });
      await s.answer('Change something?', pick(3)); // Blockers
      await s.waitFor('Are you blocked by anything?');
      expect(s.text()).toContain('Enter keeps the blockers above');
      expect(s.text()).not.toContain('Nothing: just press Enter');
      s.type(KEY.enter);
      await s.answer('Send it?', pick(2)); // Cancel
      expect((await s.exit()).code).toBe(130);
      expect(s.text()).toContain('Not sent; nothing was changed.');
      expect(drafts()).toEqual([]);
      // The next run does not open with "An unsent draft".
      const again = new Screen(['today'], env, { cols, rows: 40 });
      await again.waitFor('Change something?');
      expect(again.text()).not.toContain('An unsent draft');
      again.type(KEY.enter); // Nothing
      expect((await again.exit()).code).toBe(0);
    });

    it(`the line being typed when Ctrl-C comes is in the draft (${cols} columns)`, async () => {
      const s = new Screen(['today'], env, { cols, rows: 40 });
      await s.waitFor(/What went on since your last check-in\?|What did you do previously\?/);
      if (s.text().includes('What went on since')) s.type(KEY.enter);
      await s.answer('What did you do previously?', KEY.enter);
      await s.waitFor('What do you intend to do next?');
      s.type('Review the half-typed');
      await s.waitFor('Review the half-typed');
      s.type(KEY.ctrlC);
      expect((await s.exit()).code).toBe(130);
      expect(drafts().map((d) => d.content.answers?.intentions)).toEqual(['Review the half-typed']);
      expect(s.text()).toContain('What you wrote is kept as a draft');
      expect(patches()).toEqual([]);
    });
  }
});

describe('the editor (items 6, 7)', () => {
  it('line numbers in the problem comment point at the lines of the reopened file', () => {
    const text = '## Previous\nShipped\n\n## Intentions\nReview\n\nDone: yes\nMood: calm\nDone: no\n';
    const { problems } = readTemplate(text);
    expect(problems).toEqual(['line 9: a second Done: line (the first is line 7)']);
    const reopened = withProblems(text, problems).split('\n');
    const [, second, first] = /line (\d+): a second Done: line \(the first is line (\d+)\)/.exec(reopened.join('\n'))!.map(Number);
    expect(reopened[second! - 1]).toBe('Done: no');
    expect(reopened[first! - 1]).toBe('Done: yes');
  });

  for (const cols of [60, 120]) {
    it(`an editor that is not installed is its own message, exit 2 (${cols} columns)`, async () => {
      const { VISUAL: _, ...plain } = env;
      const s = new Screen(['today', '-e'], { ...plain, EDITOR: '/nonexistent/editor' }, { cols, rows: 30 });
      expect((await s.exit()).code).toBe(2);
      expect(squash(s.text())).toContain(squash('The editor "/nonexistent/editor" (EDITOR) was not found or cannot run; nothing was sent'));
      expect(patches()).toEqual([]);
    });

    it(`-e works with CHECKIN_NO_PROMPT=1, and with stdout piped (${cols} columns)`, async () => {
      const editor = fakeEditor('## Intentions\nFrom the editor\n');
      const quiet = new Screen(['today', '-e'], { ...env, EDITOR: editor, CHECKIN_NO_PROMPT: '1' }, { cols, rows: 30 });
      expect((await quiet.exit()).code).toBe(0);
      const piped = new Screen(['today', '-e', '--json'], { ...env, EDITOR: fakeEditor('## Intentions\nThrough a pipe\n') }, { cols, rows: 30 }, '| cat');
      expect((await piped.exit()).code).toBe(0);
      expect(patches().map((p) => (p.body as { intentions?: string }).intentions)).toEqual(['From the editor', 'Through a pipe']);
    });
  }
});

describe('wrong words for wrong places (item 8)', () => {
  it('a write to a URL that serves HTML names the URL (exit 2) and keeps the answers, even those given as flags', async () => {
    const html = { 'content-type': 'text/html' };
    sb.inject(
      { method: 'PATCH', status: 501, headers: html, body: '<html><title>Unsupported method</title></html>' },
      { method: 'GET', path: '/me', status: 404, headers: html, body: '<html>Not here</html>' },
    );
    const r = await runCli(['today', '-p', 'Typed as a flag'], { env: { ...env, TZ: 'UTC' } });
    expect(r.code).toBe(2);
    const [first, hint] = r.stderr.trim().split('\n');
    expect(first).toBe(
      `error: No check-in service (API v2) at ${sb.url}: PATCH /api/v2/check-ins/${r.stderr.match(/check-ins\/(\S+) answered/)![1]} answered 501 (not JSON), and GET /api/v2/me answered 404 (not JSON)`,
    );
    expect(hint).toMatch(/^Check CHECKIN_API_URL/);
    expect(r.stderr.split('\n').slice(2)).toEqual([
      'What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting).',
      '',
    ]);
    expect(drafts().map((d) => d.content.answers)).toEqual([{ previous: 'Typed as a flag' }]);
  });

  it('--from-file given a folder says so', async () => {
    const r = await runCli(['today', '--from-file', tempDir()], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Cannot read \S+: it is a folder, not a file\n$/);
  });

  it('a browser that cannot start says so, and the link is printed', async () => {
    const r = await runCli(['today', '--web'], { env: { ...env, BROWSER: '/nonexistent/browser' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Could not start the browser (BROWSER=/nonexistent/browser: not found); open the link yourself:\n');
    expect(r.stdout).toMatch(/^https?:\/\/\S+\n$/);
  });
});

describe('one success vocabulary (item 12)', () => {
  for (const cols of [60, 120]) {
    it(`answers given as flags on a terminal end with the ✓ line and the link; piped, only the check-in (${cols} columns)`, async () => {
      const s = new Screen(['today', '-i', 'From a flag'], env, { cols, rows: 40 });
      expect((await s.exit()).code).toBe(0);
      expect(squash(s.text())).toMatch(/✓Checkedinfor\w{3}\d+\w{3}http:\/\/127\.0\.0\.1:\d+\/app\/check-ins\//);
      const piped = await runCli(['today', '-i', 'From a flag again'], { env });
      expect(piped).toMatchObject({ code: 0, stderr: '' });
      expect(piped.stdout).toContain('From a flag again');
    });
  }
});

describe('the prefill offers what fits on a screen (item 9)', () => {
  /** A repository with `n` commits of mine since yesterday. */
  function busyRepo(n: number): string {
    const repo = join(tempDir('checkin-busy-'), 'busy-repo');
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, ...args], {
        env: { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_COMMITTER_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_EMAIL: 'ada@example.com' },
      });
    execFileSync('git', ['init', '-q', repo]);
    git('config', 'user.email', 'ada@example.com');
    const now = Date.now();
    for (let i = n; i >= 1; i--) {
      const when = new Date(now - i * 60_000).toISOString();
      execFileSync('git', ['-C', repo, 'commit', '-q', '--allow-empty', '-m', `Change number ${i}`], {
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Ada',
          GIT_COMMITTER_NAME: 'Ada',
          GIT_AUTHOR_EMAIL: 'ada@example.com',
          GIT_COMMITTER_EMAIL: 'ada@example.com',
          GIT_AUTHOR_DATE: when,
          GIT_COMMITTER_DATE: when,
        },
      });
    }
    return repo;
  }

  for (const cols of [60, 120]) {
    it(`59 commits: a screenful grouped by source, "… and N more" to choose from the rest, and "N picked" after (${cols} columns)`, async () => {
      const repo = busyRepo(59);
      const s = new Screen(['today'], { ...env, CHECKIN_GIT_REPOS: repo }, { cols, rows: 40 });
      await s.waitFor('What went on since your last check-in?');
      await s.waitFor('submit'); // the keys line, drawn after every choice
      const screen = s.text();
      expect(screen).toContain('Commits in busy-repo');
      expect(squash(screen)).toMatch(/…and\d+more\(pickthistochoosefromthem\)/);
      const offeredCommits = screen.split('\n').filter((l) => /◉ - Change number \d+ \(busy-repo\)/.test(l));
      expect(offeredCommits.length).toBeLessThanOrEqual(10);
      expect(offeredCommits[0]).toContain('Change number 1 (busy-repo)'); // newest first
      // Up from the first choice goes round to the last: "… and N more"; Space picks it.
      s.type(KEY.up + ' ' + KEY.enter);
      await s.waitFor('The rest, newest first');
      s.type(' ' + KEY.enter); // the first of the rest
      await s.waitFor('What did you do previously?');
      expect(s.text()).toMatch(/\d+ picked/);
      expect(s.text()).not.toMatch(/Change number \d+ \(busy-repo\), - Change/); // no comma-joined paragraph
      s.type(KEY.enter); // the lines as picked
      await s.waitFor('What do you intend to do next?');
      s.type(KEY.ctrlC);
      expect((await s.exit()).code).toBe(130);
      const previous = String(drafts()[0]?.content.answers?.previous ?? '');
      expect(previous.split('\n').filter((l) => l.includes('busy-repo'))).toHaveLength(offeredCommits.length + 1);
    });
  }
});

describe('in a real terminal, at 60 and 120 columns: moods, help, the editor loop (items 6, 11, 14)', () => {
  for (const cols of [60, 120]) {
    it(`a mood typo says what was meant (${cols} columns)`, async () => {
      const s = new Screen(['today', '-m', 'focussed'], env, { cols, rows: 30 });
      expect((await s.exit()).code).toBe(2);
      expect(squash(s.text())).toContain(squash('error: Unknown mood "focussed"'));
      expect(squash(s.text())).toContain(squash('Did you mean "focused"?'));
      expect(patches()).toEqual([]);
    });

    it(`--help groups the commands as gh does, and checkin version says what runs (${cols} columns)`, async () => {
      // Typed in a shell that waits for a key once checkin is done: the terminal stays open until all
      // of its output has been read here (node-pty drops what is unread 200 ms after the last process
      // in a terminal exits, which a loaded machine reached with a long help).
      const help = new Screen({ script: 'checkin --help; echo "exit status $?"; read _' }, env, { cols, rows: 80 });
      await help.waitFor(/^exit status 0$/m);
      help.type(KEY.enter);
      expect((await help.exit()).code).toBe(0);
      const headings = help
        .text()
        .split('\n')
        .filter((l) => /^[A-Z][a-z -]+:$/.test(l));
      expect(headings).toEqual([
        'Options:',
        'Check-ins:',
        'Team and goals:',
        'Comments and inbox:',
        'Account:',
        'Setup and tools:',
        'Environment:',
        'Exit codes:',
      ]);
      const version = new Screen(['version'], env, { cols, rows: 10 });
      expect((await version.exit()).code).toBe(0);
      // The npm build on this Node, or the single binary and the Node inside it (CHECKIN_TEST_BINARY).
      const build = BINARY ? 'single binary, Node\\.js \\d+\\.\\d+\\.\\d+' : `npm package, Node\\.js ${process.versions.node.replace(/\./g, '\\.')}`;
      expect(version.text()).toMatch(new RegExp(`^checkin \\d+\\.\\d+\\.\\d+ \\(${build}, ${process.platform}-${process.arch}\\)$`));
    });

    it(`the editor reopens with problems whose line numbers point at the lines of the reopened file (${cols} columns)`, async () => {
      const dir = tempDir('checkin-editor-loop-');
      const script = join(dir, 'editor.sh');
      writeFileSync(join(dir, 'bad'), '## Previous\nShipped\n\n## Intentions\nReview\n\nDone: yes\nMood: calm\nDone: no\n');
      writeFileSync(join(dir, 'good'), '## Previous\nShipped\n\n## Intentions\nReview\n\nDone: yes\nMood: calm\n');
      // First save: two Done: lines. Second: keep what was reopened (to read it), then a good one.
      writeFileSync(
        script,
        `#!/bin/sh\nif [ ! -f '${dir}/once' ]; then touch '${dir}/once'; cat '${dir}/bad' > "$1"; else cp "$1" '${dir}/reopened'; cat '${dir}/good' > "$1"; fi\n`,
        { mode: 0o755 },
      );
      const s = new Screen(['today', '-e'], { ...env, EDITOR: script }, { cols, rows: 30 });
      expect((await s.exit()).code).toBe(0);
      const reopened = readFileSync(join(dir, 'reopened'), 'utf8').split('\n');
      const [, second, first] = /line (\d+): a second Done: line \(the first is line (\d+)\)/.exec(reopened.join('\n'))!.map(Number);
      expect(reopened[second! - 1]).toBe('Done: no');
      expect(reopened[first! - 1]).toBe('Done: yes');
      expect(patches().map((p) => p.body)).toEqual([{ previous: 'Shipped', intentions: 'Review', mood: 'calm', previous_completed: true }]);
    });
  }
});
