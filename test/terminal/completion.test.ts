// Shell completion where it is met: Tab pressed in a real interactive bash (with and without the
// bash-completion package), zsh (sourced, and autoloaded from $fpath) and fish, each in a
// pseudo-terminal with the completion installed the way the README says. The names come from the
// cache that earlier runs against the sandbox filled — some of them hostile. What the shell made
// of the completed line is read back by running it through printf: each word exactly the name,
// and nothing else ran (no marker file appeared). The runs that fill the cache, print a script or
// ask `checkin complete` directly are in-process (the same environment, so the same cache): what a
// process adds there is only its start; each Tab runs the installed checkin as the shell does.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CLI_WORDS, cleanEnv } from '../helpers/cli.js';
import { FakeClock, runIn } from '../helpers/harness.js';
import { SHELLS, installed, startShell, unavailable, type Shell, type ShellKind } from '../helpers/shell.js';
import { patient } from '../helpers/patience.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
let marks: string;
let work: string;
let made: string[];
beforeEach(async () => {
  sb = await startSandbox({ rateLimit: false });
  // `checkin` on PATH, as an installed one would be.
  const bin = mkdtempSync(join(tmpdir(), 'checkin-bin-'));
  writeFileSync(join(bin, 'checkin'), `#!/bin/sh\nexec ${CLI_WORDS.map((w) => `"${w}"`).join(' ')} "$@"\n`);
  chmodSync(join(bin, 'checkin'), 0o755);
  env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token, PATH: `${bin}:${process.env.PATH}` });
  // Where a hostile name would leave its marker, and the shell's working folder (with a file a glob would match).
  // (lower case: the sandbox finds goals by their id in lower case)
  marks = join(tmpdir(), `checkin-marks-${randomBytes(6).toString('hex')}`);
  mkdirSync(marks);
  work = mkdtempSync(join(tmpdir(), 'checkin-work-'));
  writeFileSync(join(work, 'Globxxa'), '');
  made = [bin, env.HOME!, marks, work];
});
afterEach(async () => {
  await sb.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** checkin in-process against the sandbox (on the real clock, as the shells' checkin is). */
const cli = (args: string[], e: NodeJS.ProcessEnv = env) => runIn(args, e, new FakeClock(new Date()));

/** Teams, a person and a goal whose names are code if a shell evaluates them; and three names that cannot be offered. */
function seedHostile() {
  const m = (name: string) => join(marks, name);
  const teams = {
    subst: `Subst$(touch ${m('subst')})`,
    tick: `Tick\`touch ${m('tick')}\``,
    semi: `Semi; touch ${m('semi')}`,
    quote: `Quote's "double" \\back`,
    amp: `Amp & touch ${m('amp')} | cat > ${m('redirect')}`,
    glob: 'Glob*?[ab]',
    vars: 'Var ${HOME} $PATH ~ #x !!',
    spaced: 'Spaced  out ',
    bang: 'Bang!',
    last: "Last'",
    final: 'Final "q"',
    newline: `New\nline$(touch ${m('newline')})`,
    escape: `Esc\u001b]0;pwned\u0007$(touch ${m('escape')})`,
    tab: `Tab\there$(touch ${m('tab')})`,
  };
  const data = sb.service.data;
  const members = [data.people[0]!.id];
  Object.values(teams).forEach((name, i) =>
    data.teams.push({ id: `00000000-0000-4000-8000-00000000000${i.toString(16)}`, name, schedule: ['mon'], people_ids: members }),
  );
  const username = `hx$(touch ${m('person')})`;
  data.people.push({ ...data.people[1]!, id: '00000000-0000-4000-8000-0000000000aa', name: `Hex $(touch ${m('name')})`, username });
  // The sandbox finds a goal by its id in lower case, and the temp path may have capitals: this
  // marker is made in the shell's working folder instead (checked there).
  const goal = 'goal$(touch ./goal-ran)';
  data.goals.push({ ...data.goals[0]!, id: goal, title: 'A goal with a hostile id', owner_id: data.tokens[0]!.person_id });
  return { teams, person: `@${username}`, goal };
}

/** The words printf printed after `<marker>` (one `<word>` a line). */
function printed(text: string, marker: string): string[] {
  const lines = text.split('\n');
  const at = lines.lastIndexOf(`<${marker}>`);
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const m = /^<(.*)>$/.exec(line);
    if (!m) break;
    out.push(m[1]!);
  }
  return out;
}

/**
 * Types `line`, Tab, then goes to the start of the line and runs it through printf instead:
 * the words the shell would have handed checkin. (Keys typed ahead wait while Tab runs.)
 */
let cases = 0;
async function tabThenPrint(s: Shell, line: string): Promise<string[]> {
  const marker = `case-${++cases}`;
  s.type(`${line}\t\u0001printf '<%s>\\n' ${marker} \r`);
  await s.waitFor(new RegExp(`^<${marker}>$[\\s\\S]*^\\$ $`, 'm'));
  return printed(s.text(), marker);
}

async function withShell(kind: ShellKind, run: (s: Shell) => Promise<void>) {
  const script = kind === 'fish' || kind === 'zsh (fpath)' ? (await cli(['completion', kind.split(' ')[0]!])).stdout : '';
  const s = await startShell(kind, env, work, script);
  try {
    await run(s);
  } finally {
    await s.close();
  }
}

for (const kind of SHELLS) {
  const missing = unavailable(kind);
  const skipped = missing ? ` — skipped: ${missing}` : '';
  describe(`Tab in a real ${kind}`, () => {
    it.skipIf(missing)(
      `completes commands, flags, moods, @gr, team names and goal ids from the cache, with no request${skipped}`,
      { timeout: patient(60_000) },
      async () => {
        // The directory of people and the goals are cached by earlier runs, as a user's would have been.
        expect((await cli(['list', '--person', '@grace'])).code).toBe(0);
        expect((await cli(['goals'])).code).toBe(0);
        const billing = sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
        sb.requests.length = 0;
        await withShell(kind, async (s) => {
          expect(await tabThenPrint(s, 'checkin to')).toEqual(['checkin', 'today']);
          expect(await tabThenPrint(s, 'checkin today --mood fo')).toEqual(['checkin', 'today', '--mood', 'focused']);
          expect(await tabThenPrint(s, 'checkin today --mo')).toEqual(['checkin', 'today', '--mood']);
          // A partial @name, bash without bash-completion too (there "@" breaks words for readline).
          expect(await tabThenPrint(s, 'checkin list --person @gr')).toEqual(['checkin', 'list', '--person', '@grace']);
          expect(await tabThenPrint(s, 'checkin list --person=@li')).toEqual(['checkin', 'list', '--person=@linus']);
          expect(await tabThenPrint(s, 'checkin goal update list ' + billing.slice(0, 6))).toEqual(['checkin', 'goal', 'update', 'list', billing]);
          // Every --team and --person, and whose check-in after its key.
          expect(await tabThenPrint(s, 'checkin stats --team Pl')).toEqual(['checkin', 'stats', '--team', 'Platform']);
          expect(await tabThenPrint(s, 'checkin stats --person @li')).toEqual(['checkin', 'stats', '--person', '@linus']);
          expect(await tabThenPrint(s, 'checkin report --team Mo')).toEqual(['checkin', 'report', '--team', 'Mobile']);
          expect(await tabThenPrint(s, 'checkin report --person @gr')).toEqual(['checkin', 'report', '--person', '@grace']);
          expect(await tabThenPrint(s, 'checkin checkin today @gr')).toEqual(['checkin', 'checkin', 'today', '@grace']);
          expect(await tabThenPrint(s, 'checkin comments yesterday @li')).toEqual(['checkin', 'comments', 'yesterday', '@linus']);
          if (kind.startsWith('bash')) {
            // Two Tabs list the choices.
            s.type('checkin list --person \t\t');
            await s.waitFor(/@margaret/);
            const offered = s.text().split('\n').slice(-3).join(' ');
            for (const name of ['me', '@ada', '@grace', '@linus', '@margaret', '@alan']) expect(offered).toContain(name);
            s.type('\u0015');
            await s.sync();
          }
        });
        // A Tab never sends a request.
        expect(sb.requests).toEqual([]);
      },
    );

    // zsh from $fpath runs the same script as zsh sourcing it: once loaded (the test above), each Tab
    // calls the one `_checkin` both define, so the hostile names are zsh's case, pressed once (24 Tabs,
    // each a checkin started: the file took 47.5 s of CPU with them, 39.3 s without).
    if (kind === 'zsh (fpath)') return;
    it.skipIf(missing)(`names from the service complete as themselves and never run${skipped}`, { timeout: patient(60_000) }, async () => {
      const { teams, person, goal } = seedHostile();
      expect((await cli(['list', '--person', '@grace'])).code).toBe(0);
      {
        const g = await cli(['goals']);
        expect(g.code, g.stderr).toBe(0);
      }
      sb.requests.length = 0;
      const t = (typed: string, name: string): [string, string[]] => [`checkin today --team ${typed}`, ['checkin', 'today', '--team', name]];
      const cases: Array<[string, string[]]> = [
        t('Su', teams.subst),
        t('Ti', teams.tick),
        t('Se', teams.semi),
        t('Qu', teams.quote),
        t('Am', teams.amp),
        t('Gl', teams.glob),
        t('Va', teams.vars),
        t('Sp', teams.spaced),
        t('Ba', teams.bang),
        // Inside a quote the user opened (readline closes it, unless the reply ends in that quote).
        t("'Se", teams.semi),
        t("'Qu", teams.quote),
        t("'La", teams.last),
        t('"Qu', teams.quote),
        t('"Va', teams.vars),
        t('"Su', teams.subst),
        t('"Ba', teams.bang),
        t('"Fi', teams.final),
        // --team=…
        ['checkin today --team=Am', ['checkin', 'today', `--team=${teams.amp}`]],
        ["checkin today --team='Ti", ['checkin', 'today', `--team=${teams.tick}`]],
        // A newline, an escape sequence or a tab in a name: not offered (the word stays as typed).
        t('New', 'New'),
        t('Esc', 'Esc'),
        t('Tab', 'Tab'),
        ['checkin list --person @hx', ['checkin', 'list', '--person', person]],
        ['checkin goal update list go', ['checkin', 'goal', 'update', 'list', goal]],
      ];
      const wrong: Array<{ typed: string; got: string[]; want: string[] }> = [];
      await withShell(kind, async (s) => {
        for (const [line, want] of cases) {
          const got = await tabThenPrint(s, line);
          if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ typed: `${line}<Tab>`, got, want });
        }
      });
      // Nothing ran: no marker, no request.
      expect({ ran: [...readdirSync(marks), ...readdirSync(work).filter((f) => f !== 'Globxxa')], wrong }).toEqual({ ran: [], wrong: [] });
      expect(sb.requests).toEqual([]);
    });
  });
}

describe('checkin complete: what the scripts read', () => {
  it('value<TAB>description a line, then :4 — names that cannot be shown as themselves left out, descriptions cleaned; no request', async () => {
    const { teams } = seedHostile();
    sb.service.data.people.push({
      ...sb.service.data.people[1]!,
      id: '00000000-0000-4000-8000-0000000000bb',
      name: 'Eve\u001b]0;pwned\u0007\tSmith\u202e',
      username: 'eve',
    });
    expect((await cli(['list', '--person', '@grace'])).code).toBe(0);
    sb.requests.length = 0;
    const offered = sb.service.data.teams.map((t) => t.name).filter((n) => ![teams.newline, teams.escape, teams.tab].includes(n));
    const r = await cli(['complete', '--', 'today', '--team', '']);
    expect(r.stdout.split('\n').slice(0, -2).sort()).toEqual(offered.map((n) => `${n}\tteam`).sort());
    expect(r.stdout.endsWith('\n:4\n')).toBe(true);
    expect((await cli(['complete', '--', 'list', '--person', '@ev'])).stdout).toBe('@eve\tEve Smith\n:4\n');
    // PowerShell hands the words over in CHECKIN_COMPLETE_WORDS (one a line).
    expect((await cli(['complete', '--shell', 'powershell'], { ...env, CHECKIN_COMPLETE_WORDS: 'today\n--team\nSe' })).stdout).toBe(
      `${teams.semi}\tteam\n:4\n`,
    );
    // bash hands over the line up to the cursor and COMP_WORDBREAKS, and gets replies quoted for it.
    const bash = await cli(['complete', '--shell', 'bash', '--', 'checkin today --team Su', ' \t\n"\'@><=;|&(:']);
    expect(bash.stdout).toBe(`${teams.subst.replace(/[^\w/.-]/g, '\\$&')}\n`);
    expect(sb.requests).toEqual([]);
    expect(readdirSync(marks)).toEqual([]);
  });
});

describe('zsh without compinit', () => {
  it.skipIf(!installed('zsh'))(`says what to add to ~/.zshrc instead of failing${installed('zsh') ? '' : ' — skipped: zsh is not installed'}`, async () => {
    const script = (await cli(['completion', 'zsh'])).stdout;
    const file = join(work, 'checkin.zsh');
    writeFileSync(file, script);
    const out = execFileSync('zsh', ['-f', '-c', `source ${file} 2>&1; echo sourced`], { env, encoding: 'utf8' });
    expect(out).toBe(
      "checkin: zsh completion needs compinit: put 'autoload -Uz compinit && compinit' in ~/.zshrc before the line that loads checkin's completion\nsourced\n",
    );
  });
});
