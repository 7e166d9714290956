// The answer template where a person meets it: the built CLI in a pseudo-terminal, against a
// sandbox on the real clock. The template prefills the questions (grouped and said as such,
// sent only by the preview's Send) and the editor's starting text (a fake $EDITOR records what it
// was handed); --no-template leaves it out; a template that cannot be read is one warning line.
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import { shortDay } from '../../src/core/dayname.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { runCli } from '../helpers/cli.js';
import { draftEntries } from '../helpers/outbox.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { KEY, Screen } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const today = () => localDateKey(new Date());
const patches = () => sb.requests.filter((r) => r.method === 'PATCH');
/** In the demo data Ada merged this PR after her last check-in: it is offered for *previous*. */
const PR = '- [Add invoices endpoint (#412)](https://github.com/engines/billing/pull/412) (GitHub PR)';
const TEMPLATE =
  '## Previous\n- Reviewed the open PRs\n\n## Intentions\n- Team sync at 10\n\n## Blockers\n- Waiting on the staging database\n\nMood: focused\nDone: no\n';

let dir: string;
let template: string;
beforeEach(async () => {
  dir = tempDir('checkin-template-');
  template = join(dir, 'standup.md');
  writeFileSync(template, TEMPLATE);
  expect(await runCli(['config', 'set', 'template', template], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
});

/** Ada's latest earlier check-in with intentions: what *previous* is suggested from. */
function lastIntentions(): { date: string; intentions: string } {
  const me = sb.service.data.tokens[0]!.person_id;
  const last = sb.service.data.check_ins.filter((c) => c.person_id === me && c.date < today() && c.intentions).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
  return { date: last.date, intentions: last.intentions! };
}

describe('the template prefills the questions', () => {
  it('each answer starts from it, said as such; nothing is sent until Send, and then exactly what was shown', async () => {
    const last = lastIntentions();
    const s = new Screen(['today'], env, { cols: 120, rows: 60 });
    await s.waitFor('What went on since your last check-in?');
    // The template's lines first, under their own heading, then the last intentions, then the PR.
    expect(s.text()).toMatch(/From your template\n\s*❯?\s*◉ - Reviewed the open PRs\n/);
    expect(s.text()).toMatch(/What you intended on \w{3} \d+ \w{3}\n/);
    expect(s.text()).toContain('◉ - Add invoices endpoint (#412) (GitHub PR)');
    s.type(KEY.enter);
    await s.waitFor(`Suggested from your template, what you intended on ${shortDay(last.date)}, and what went on since.`);
    await s.waitFor('  - Reviewed the open PRs');
    s.type(KEY.enter);
    await s.waitFor('What do you intend to do next?');
    await s.waitFor('  - Team sync at 10');
    s.type(KEY.enter);
    await s.waitFor('Are you blocked by anything?');
    await s.waitFor('  - Waiting on the staging database');
    s.type(KEY.enter);
    await s.answer('❯ 🧐 focused', KEY.enter); // the template's mood comes first: Enter keeps it
    await s.waitFor('Did you do what you intended?');
    await s.answer('❯ No', KEY.enter); // its Done: no is where the choice starts
    await s.waitFor('Send it?');
    expect(patches()).toEqual([]);
    s.type(KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.body).toEqual({
      previous: ['- Reviewed the open PRs', ...last.intentions.split('\n').filter((l) => l.trim() !== ''), PR].join('\n'),
      intentions: '- Team sync at 10',
      blockers: '- Waiting on the staging database',
      mood: 'focused',
      previous_completed: false,
    });
  });

  it('offered, never kept unread: Ctrl-C at the first question keeps no draft; --no-template starts without it', async () => {
    const s = new Screen(['today'], env, { cols: 120, rows: 60 });
    await s.waitFor('From your template');
    s.type(KEY.ctrlC);
    expect(await s.exit()).toEqual({ code: 130, signal: 0 });
    expect(s.text()).toContain('Not sent; nothing was typed.');
    expect(draftEntries(env.CHECKIN_CONFIG_DIR!)).toEqual([]);

    const bare = new Screen(['today', '--no-template'], env, { cols: 120, rows: 60 });
    await bare.waitFor('What went on since your last check-in?');
    expect(bare.text()).not.toContain('From your template');
    bare.type(KEY.enter);
    await bare.answer('What did you do previously?', KEY.enter);
    await bare.waitFor('What do you intend to do next?');
    expect(bare.text()).not.toContain('Reviewed the open PRs');
    bare.type(KEY.enter);
    await bare.waitFor('Are you blocked by anything?');
    bare.type(KEY.ctrlC);
    expect((await bare.exit()).code).toBe(130);
    expect(patches()).toEqual([]);
  });
});

describe('the template prefills the editor', () => {
  /** A fake $EDITOR: copies the text it was handed to `seen-<n>.md`, then saves the file `reply` holds (empty: a cancel). */
  function editor(reply: string): { command: string; seen: () => string[] } {
    const replyFile = join(dir, `reply-${Math.random().toString(36).slice(2)}.md`);
    writeFileSync(replyFile, reply);
    const script = join(dir, `editor-${Math.random().toString(36).slice(2)}.sh`);
    const seen = join(dir, `seen-${Math.random().toString(36).slice(2)}`);
    writeFileSync(script, `#!/bin/sh\nfor f; do :; done\ncat "$f" >> '${seen}'\nprintf '\\n===\\n' >> '${seen}'\ncat '${replyFile}' > "$f"\n`);
    chmodSync(script, 0o755);
    return { command: script, seen: () => readFileSync(seen, 'utf8').split('\n===\n').slice(0, -1) };
  }

  it('-e starts from it (its previous, then the last intentions); --no-template and a missing template start without it', async () => {
    const last = lastIntentions();
    // --no-template: the editor's text has none of it (an empty save cancels).
    const bare = editor('');
    const a = new Screen(['today', '-e', '--no-template'], { ...env, EDITOR: bare.command, VISUAL: '' });
    expect((await a.exit()).code).toBe(130);
    expect(bare.seen()).toHaveLength(1);
    expect(bare.seen()[0]).not.toContain('Reviewed the open PRs');
    expect(bare.seen()[0]).toContain(`## Previous\n<!-- What did you do previously? -->\n${last.intentions}\n\n## Intentions`);

    // A template that is not there: one warning line, and the editor opens without it.
    renameSync(template, join(dir, 'elsewhere.md'));
    const gone = editor('');
    const b = new Screen(['today', '-e'], { ...env, EDITOR: gone.command, VISUAL: '' }, { cols: 240, rows: 40 });
    expect((await b.exit()).code).toBe(130);
    expect(b.text().match(/warning: .*/g)).toEqual([`warning: the answer template ${template} cannot be used (no such file); going on without it`]);
    expect(gone.seen()[0]).not.toContain('Reviewed the open PRs');

    // The template back: the editor starts from it, and what is saved is what is sent.
    renameSync(join(dir, 'elsewhere.md'), template);
    const written = editor('## Previous\n- Reviewed the open PRs\n\n## Intentions\n- Pair on the retries\n\n## Blockers\n\nMood: calm\n');
    const c = new Screen(['today', '-e'], { ...env, EDITOR: written.command, VISUAL: '' });
    expect(await c.exit()).toEqual({ code: 0, signal: 0 });
    const start = written.seen()[0]!;
    expect(start).toContain(
      `## Previous\n<!-- What did you do previously? -->\n- Reviewed the open PRs\n${last.intentions
        .split('\n')
        .filter((l) => l.trim() !== '')
        .join('\n')}\n\n`,
    );
    expect(start).toContain('## Intentions\n<!-- What do you intend to do next? -->\n- Team sync at 10\n\n');
    expect(start).toContain('## Blockers\n<!-- Are you blocked by anything? -->\n- Waiting on the staging database\n\n');
    expect(start).toMatch(/^Mood: focused$/m);
    expect(start).toMatch(/^Done: no$/m);
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.body).toEqual({ previous: '- Reviewed the open PRs', intentions: '- Pair on the retries', blockers: '', mood: 'calm' });
  });
});
