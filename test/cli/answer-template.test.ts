// The answer template without a terminal: a piped or flagged answer sends exactly what was given
// (the template set or not, with the same requests); --template fills the answers not given from
// it; a template that cannot be used refuses --template (nothing sent) and is skipped with one
// warning where it would only prefill. In-process against the sandbox, on a fake clock.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { TODAY, useWorld } from '../helpers/harness.js';
import { draftEntries } from '../helpers/outbox.js';

const w = useWorld();
const TEMPLATE = '<!-- The Platform standup -->\n## Previous\n- Reviewed the open PRs\n\n## Intentions\n- Team sync at 10\n\n## Blockers\n\nMood: focused\n';
const patches = () => w.sb.requests.filter((r) => r.method === 'PATCH');
let file: string;

/** The template written in the home folder and set as `~/standup.md` (read as the home folder when used). */
async function setTemplate(text = TEMPLATE) {
  file = join(w.env.HOME!, 'standup.md');
  writeFileSync(file, text);
  expect(await w.cli(['config', 'set', 'template', '~/standup.md'])).toEqual({ code: 0, stdout: '', stderr: '' });
}

beforeEach(() => w.forget());

describe('a piped or flagged answer ignores the template', () => {
  it('`today -p -` sends exactly what was piped, with the same requests as without a template', async () => {
    // Without a template first: the requests a piped answer costs (me cached by this first run).
    const before = await w.cli(['today', '-p', '-'], { input: 'Warmed up\n' });
    expect(before.code).toBe(0);
    w.forget();
    const again = await w.cli(['today', '-p', '-'], { input: 'Once more\n' });
    expect(again.code).toBe(0);
    const without = w.sent();
    w.forget();

    await setTemplate();
    w.forget();
    const r = await w.cli(['today', '-p', '-'], { input: 'Shipped the retries\n' });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual(without);
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(patches()[0]!.body).toEqual({ previous: 'Shipped the retries' });

    w.forget();
    const flagged = await w.cli(['today', '-i', 'Only this', '--mood', 'calm']);
    expect(flagged).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(patches()[0]!.body).toEqual({ intentions: 'Only this', mood: 'calm' });
    expect(draftEntries(w.configDir)).toEqual([]);
  });

  it('without a terminal and without answers, today is shown: the template is not read, nor sent', async () => {
    await setTemplate('not a template at all');
    w.forget();
    const r = await w.cli(['today']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(patches()).toEqual([]);
  });
});

describe('--template', () => {
  it('the answers not given come from the template; the ones given win; the same one PATCH', async () => {
    await setTemplate();
    w.forget();
    const r = await w.cli(['today', '-i', "- Mine, not the template's", '--template']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    // The empty ## Blockers section gives nothing: the template never clears an answer.
    expect(patches()[0]!.body).toEqual({ previous: '- Reviewed the open PRs', intentions: "- Mine, not the template's", mood: 'focused' });
  });

  it('alone, it sends the template as it is (as --from-file would), in the one PATCH', async () => {
    await setTemplate();
    w.forget();
    const r = await w.cli(['today', '--template']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(patches()[0]!.body).toEqual({ previous: '- Reviewed the open PRs', intentions: '- Team sync at 10', mood: 'focused' });
  });

  it('an answer named with an empty pipe is left as it was, not taken from the template; --mood wins over its Mood:', async () => {
    await setTemplate();
    w.forget();
    const r = await w.cli(['today', '-p', '-', '--template', '--mood', 'tired'], { input: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('note: nothing came on standard input for --previous: left as it was; the other answers are sent.\n');
    expect(patches()[0]!.body).toEqual({ intentions: '- Team sync at 10', mood: 'tired' });
  });

  it('with --from-activity, its previous comes first, then the suggestion', async () => {
    await setTemplate();
    const suggested = (await w.cli(['today', '--suggest'])).stdout.trimEnd().split('\n');
    expect(suggested.length).toBeGreaterThan(1);
    w.forget();
    const r = await w.cli(['today', '--from-activity', '--template', '--json']);
    expect(r.code).toBe(0);
    const body = patches()[0]!.body as Record<string, string>;
    expect(body.previous).toBe(['- Reviewed the open PRs', ...suggested.filter((l) => l.trim() !== '')].join('\n'));
    expect(body).toMatchObject({ intentions: '- Team sync at 10', mood: 'focused' });
  });

  it('refused when no template is set, or when it cannot be used: exit 2, nothing sent, the typed words kept', async () => {
    const none = await w.cli(['today', '-i', 'typed', '--template']);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toMatch(/^error: --template: no answer template is set\nSet one with `checkin config set template FILE`/);
    expect(patches()).toEqual([]);
    expect(draftEntries(w.configDir)).toMatchObject([{ content: { kind: 'answers', answers: { intentions: 'typed' } } }]);

    const cases: Array<[() => void, string]> = [
      [() => undefined, 'no such file'],
      [() => mkdirSync(file), 'a folder, not a regular file'],
    ];
    await setTemplate();
    for (const [make, why] of cases) {
      rmSync(file, { recursive: true, force: true });
      make();
      const r = await w.cli(['today', '-i', 'x', '--template']);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(`error: --template: the template ${file} cannot be used: ${why}; nothing was sent\n`);
    }
    rmSync(file, { recursive: true });
    writeFileSync(file, `## Intentions\n${'x'.repeat(70 * 1024)}\n`);
    expect((await w.cli(['today', '-i', 'x', '--template'])).stderr).toBe(
      `error: --template: the template ${file} cannot be used: larger than 64 KiB, the most a template may be; nothing was sent\n`,
    );
    // Its text is data: what the reader names of it is shown as visible characters.
    writeFileSync(file, 'Hi \u001b]0;pwned\u0007\n## Intentions\nx\n');
    const hostile = await w.cli(['today', '-i', 'x', '--template']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).not.toMatch(/[\u001b\u0007]/);
    expect(hostile.stderr).toMatch(/^error: --template: the template .* cannot be used: line 1: "Hi " is above the first section/);
    expect(patches()).toEqual([]);
  });

  it('--template and --resume do not go together', async () => {
    const r = await w.cli(['today', '--resume', '--template']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^error: --template and --resume cannot be combined\n/);
  });
});
