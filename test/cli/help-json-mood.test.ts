// Issue 20 (items 11 and 14), the way gh does it: the help grouped into sections, `checkin version`,
// `--json a,b` selecting fields (plain --json unchanged), and "Did you mean" for a mistyped mood.
// In-process against the sandbox on a fake clock, plus the built binary for `version`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { listCommand } from '../../src/commands/checkin/list.js';
import { reactionsCommand } from '../../src/commands/comments/reactions.js';
import { createContext } from '../../src/context.js';
import { addDays } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { JSON_FIELDS, jsonFieldsHelp, selectFields } from '../../src/ui/output.js';
import { BINARY } from '../helpers/cli.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { bufferIO } from '../helpers/io.js';

const w = useWorld();
let sb: Sandbox;
beforeEach(() => {
  sb = w.sb;
});
const cli = (args: string[], opts: Parameters<typeof w.cli>[1] = {}) => w.cli(args, opts);
const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
const CHECK_IN_FIELDS =
  'type, id, date, person, teams, previous, intentions, blockers, mood, previous_completed, blocked, absent, completed_at, updated_at, url';
/** today and checkin <key>: the check-in's, and with --suggest two more. */
const ANSWER_FIELDS = `${CHECK_IN_FIELDS}, intentions_from, since_last_check_in`;

/** The help's sections: heading → the names of the commands under it. */
function sections(help: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) out.push([line, []]);
    else if (/^ {2}\S/.test(line) && out.length > 0) out.at(-1)![1].push(line.trim().split(/\s+/)[0]!);
  }
  return out;
}

describe('checkin --help', () => {
  it('piped, fits 80 columns as commander lays it out: each environment variable a line of its own, its description continued under the descriptions', async () => {
    const r = await cli(['--help']);
    const lines = r.stdout.split('\n');
    expect(lines.filter((l) => [...l].length > 80)).toEqual([]);
    const env = lines.slice(lines.indexOf('Environment:') + 1, lines.indexOf('Exit codes:') - 1);
    expect(env.filter((l) => /^ {2}CHECKIN_/.test(l)).map((l) => l.slice(2, 20).trim())).toEqual([
      'CHECKIN_TOKEN',
      'CHECKIN_API_URL',
      'CHECKIN_CONFIG_DIR',
      'CHECKIN_NO_PROMPT',
      'CHECKIN_TIMEOUT',
      'CHECKIN_PAGER',
      'CHECKIN_EDITOR',
      'CHECKIN_DEBUG',
    ]);
    // A continuation starts where the descriptions do (22), never further out; `less -FRX` stays whole.
    expect(env.filter((l) => !/^ {2}[A-Z]/.test(l)).every((l) => /^ {22}\S/.test(l))).toBe(true);
    expect(env.join('\n')).toMatch(/less -FRX/);
  });

  it('groups the commands as gh does, every command once, help and completion with the tools', async () => {
    const r = await cli(['--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const commandSections = sections(r.stdout).filter(([h]) => !['Usage: checkin [options] [command]', 'Options:', 'Environment:', 'Exit codes:'].includes(h));
    expect(commandSections).toEqual([
      ['Check-ins:', ['today', 'checkin', 'list', 'status', 'report', 'stats', 'activity', 'log', 'drafts']],
      ['Team and goals:', ['team', 'teams', 'people', 'goals', 'goal', 'echo']],
      ['Comments and inbox:', ['inbox', 'notify', 'comments', 'reactions']],
      ['Account:', ['login', 'logout', 'auth', 'me']],
      ['Setup and tools:', ['config', 'cron', 'remind', 'doctor', 'api', 'mcp', 'skill', 'hook', 'sandbox', 'upgrade', 'version', 'completion', 'help']],
    ]);
    expect(r.stdout).not.toContain('\nCommands:\n');
    // The headings in the order shown, before the environment and the exit codes.
    expect(r.stdout.match(/^\S.*:$/gm)).toEqual([
      'Options:',
      'Check-ins:',
      'Team and goals:',
      'Comments and inbox:',
      'Account:',
      'Setup and tools:',
      'Environment:',
      'Exit codes:',
    ]);
    expect(r.stdout).toContain('\nSetup and tools:\n  config                     Your preferences');
    expect(sb.requests).toEqual([]);
  });

  it('`checkin help` and no command print the same grouped help', async () => {
    const help = (await cli(['--help'])).stdout;
    expect(await cli(['help'])).toMatchObject({ code: 0, stdout: help });
  });

  it("a command's help names its JSON fields at the end", async () => {
    const r = await cli(['list', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  --json [fields]  print one JSON array\n');
    expect(
      r.stdout.endsWith(
        `\n\nJSON fields (--json prints them all, --json id,date only those):\n  type, id, date, person, teams, previous, intentions, blockers, mood,\n  previous_completed, blocked, absent, completed_at, updated_at, url\n`,
      ),
    ).toBe(true);
    const s = await cli(['status', '--help']);
    expect(
      s.stdout.endsWith(
        '\n\nJSON fields (--json prints them all, --json date,state only those):\n  date, state, check_in, unread, drafts_waiting, blocked_on_you, profile\n',
      ),
    ).toBe(true);
    expect(
      (await cli(['drafts', '--help'])).stdout.endsWith(
        '\n\nJSON fields (--json prints them all, --json id,for only those):\n  id, for, target, account, made, created_at, saved_at, base, state, here,\n  kept_for, words, text, content\n',
      ),
    ).toBe(true);
    // Nested commands too; a command without --json has no such section.
    expect((await cli(['goal', 'update', 'view', '--help'])).stdout).toContain(
      '\nJSON fields (--json prints them all, --json id,goal only those):\n  type, id, goal,',
    );
    expect((await cli(['cron', '--help'])).stdout).not.toContain('JSON fields');
  });

  it('wraps the field list at 80 columns', () => {
    const lines = jsonFieldsHelp(JSON_FIELDS.goal).split('\n');
    expect(lines).toEqual([
      '',
      'JSON fields (--json prints them all, --json id,title only those):',
      '  type, id, title, description, parent, start_date, end_date, progress,',
      '  confidence, confidence_description, owner, teams, contributors,',
      '  update_cadence, private, archived, url',
    ]);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
  });
});

describe('checkin version', () => {
  it('prints checkin, Node.js and the platform in one line, with no request; --version and -V stay the bare number', async () => {
    expect(await cli(['version'])).toEqual({
      code: 0,
      stdout: `checkin ${version} (npm package, Node.js ${process.versions.node}, ${process.platform}-${process.arch})\n`,
      stderr: '',
    });
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await cli(['-V'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(sb.requests).toEqual([]);
  });

  it('takes no arguments (exit 2)', async () => {
    expect(await cli(['version', 'now'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: too many arguments for 'version'. Expected 0 arguments but got 1.\n",
    });
  });

  it('the built CLI, without a token or network: which build runs (npm package, or the single binary and the Node inside it)', async () => {
    const r = await w.bin(['version'], { env: { CHECKIN_API_URL: 'http://127.0.0.1:9/api/v2', CHECKIN_TOKEN: undefined } });
    if (BINARY)
      expect(r).toMatchObject({
        code: 0,
        stderr: '',
        stdout: expect.stringMatching(
          new RegExp(`^checkin ${version} \\(single binary, Node\\.js \\d+\\.\\d+\\.\\d+, ${process.platform}-${process.arch}\\)\n$`),
        ),
      });
    else
      expect(r).toMatchObject({
        code: 0,
        stderr: '',
        stdout: `checkin ${version} (npm package, Node.js ${process.versions.node}, ${process.platform}-${process.arch})\n`,
      });
    expect(await w.bin(['--version'])).toMatchObject({ code: 0, stderr: '', stdout: `${version}\n` });
  });
});

describe('--json [fields]', () => {
  const parse = (s: string) => JSON.parse(s) as Array<Record<string, unknown>>;

  it('--json id,date,mood keeps those fields of each check-in, in that order; the values are the plain --json ones', async () => {
    const all = await cli(['list', '--json']);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    const full = parse(all.stdout);
    expect(full.length).toBeGreaterThan(1);
    w.forget();
    const some = await cli(['list', '--json', 'id,date,mood']);
    expect(some).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual(['GET /api/v2/check-ins']);
    expect(some.stdout).toBe(
      JSON.stringify(
        full.map((c) => ({ id: c.id, date: c.date, mood: c.mood })),
        null,
        2,
      ) + '\n',
    );
    const reordered = parse((await cli(['list', '--json=mood,id'])).stdout);
    expect(Object.keys(reordered[0]!)).toEqual(['mood', 'id']);
  });

  it('plain --json followed by another option is still every field (the option is not read as fields)', async () => {
    const r = await cli(['list', '--json', '--per-page', '2']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual(['GET /api/v2/check-ins?per_page=2']);
    const list = parse(r.stdout);
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0]!)).toEqual(CHECK_IN_FIELDS.split(', '));
    // And short options, and --json last.
    expect((await cli(['today', '--json', '-i', 'Ship it'])).code).toBe(0);
    expect(JSON.parse((await cli(['checkin', 'yesterday', '--json'])).stdout)).toMatchObject({ date: addDays(TODAY, -1), type: 'check-in' });
  });

  it('an unknown field is a usage error listing the available ones (exit 2), before any request', async () => {
    const r = await cli(['list', '--json', 'id,nope']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: Unknown JSON field "nope"\nAvailable fields: ${CHECK_IN_FIELDS}\n` });
    const two = await cli(['list', '--json', 'Id,date,colour']);
    expect(two.stderr).toBe(`error: Unknown JSON fields "Id", "colour"\nAvailable fields: ${CHECK_IN_FIELDS}\n`);
    // A write is refused before it is sent.
    const write = await cli(['today', '-i', 'Not sent', '--json', 'intentionz']);
    expect(write).toEqual({ code: 2, stdout: '', stderr: `error: Unknown JSON field "intentionz"\nAvailable fields: ${ANSWER_FIELDS}\n` });
    expect(sb.requests).toEqual([]);
  });

  it('a word after --json on a command that takes arguments is read as fields: the error says where the argument goes', async () => {
    const r = await cli(['checkin', '--json', 'yesterday']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: Unknown JSON field "yesterday"\nAvailable fields: ${ANSWER_FIELDS}\nTo give "yesterday" as an argument instead, put it before --json.\n`,
    });
    expect(sb.requests).toEqual([]);
  });

  it('an empty list is refused; names are trimmed, repeated and repeated --json add up', async () => {
    expect(await cli(['teams', '--json='])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --json takes field names separated by commas, or nothing for every field\nAvailable fields: type, id, name, people\n',
    });
    expect(await cli(['teams', '--json', ' , '])).toMatchObject({ code: 2 });
    const r = await cli(['people', '--json', ' name , id,name', '--json', 'email']);
    expect(r.code).toBe(0);
    expect(Object.keys(parse(r.stdout)[0]!)).toEqual(['name', 'id', 'email']);
  });

  it('a single object (checkin <key>, me, status), the stream of list --all, and an empty list', async () => {
    const suggested = await cli(['today', '--suggest', '--json', 'intentions_from,previous']);
    expect(suggested).toMatchObject({ code: 0, stderr: '' });
    expect(Object.keys(JSON.parse(suggested.stdout))).toEqual(['intentions_from', 'previous']);
    const one = await cli(['checkin', 'yesterday', '--json', 'date,blocked']);
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(one.stdout)).toEqual({ date: addDays(TODAY, -1), blocked: expect.any(Boolean) });
    expect(JSON.parse((await cli(['me', '--json', 'username'])).stdout)).toEqual({ username: 'ada' });
    const status = await cli(['status', '--json', 'state,date']);
    expect(status.stdout).toBe(`{\n  "state": "pending",\n  "date": "${TODAY}"\n}\n`);
    expect(status.code).toBe(3);
    const streamed = await cli(['list', '--all', '--json', 'id']);
    expect(streamed).toMatchObject({ code: 0, stderr: '' });
    const ids = parse(streamed.stdout);
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.every((c) => Object.keys(c).join() === 'id')).toBe(true);
    expect(await cli(['list', '--since', addDays(TODAY, 1), '--json', 'id'])).toEqual({ code: 0, stdout: '[]\n', stderr: 'No check-ins match.\n' });
  });

  it("each command's fields cover what it prints: --json with all of them equals plain --json", async () => {
    const goal = sb.service.data.goals.find((g) => g.owner_id === w.id('ada'))!.id;
    const cases: Array<[string[], readonly string[]]> = [
      [['list'], JSON_FIELDS.checkIn],
      [['checkin', 'yesterday'], JSON_FIELDS.answers],
      [['today', '--suggest'], JSON_FIELDS.answers],
      [['teams'], JSON_FIELDS.team],
      [['people'], JSON_FIELDS.person],
      [['me'], JSON_FIELDS.me],
      [['goals'], JSON_FIELDS.goal],
      [['activity', '--since', addDays(TODAY, -14)], JSON_FIELDS.activity],
      [['comments', 'yesterday'], JSON_FIELDS.comment],
      [['reactions', 'yesterday'], JSON_FIELDS.reaction],
      [['team', '--date', 'yesterday'], JSON_FIELDS.teamReport],
      [['status'], JSON_FIELDS.status],
      [['auth', 'status'], JSON_FIELDS.authStatus],
      [['inbox', '--all'], JSON_FIELDS.inbox],
      [['goal', 'update', 'list', goal], JSON_FIELDS.goalUpdate],
    ];
    for (const [args, fields] of cases) {
      await cli([...args, '--json']); // what a run remembers (the inbox's "seen") is the same for the two compared
      const plain = await cli([...args, '--json']);
      const named = await cli([...args, '--json', fields.join(',')]);
      expect(plain.stdout.length, args.join(' ')).toBeGreaterThan(4);
      expect([named.code, named.stderr], args.join(' ')).toEqual([plain.code, plain.stderr]);
      expect(JSON.parse(named.stdout), args.join(' ')).toEqual(JSON.parse(plain.stdout));
    }
  });

  it('flags → options: true for plain --json, the list (deduplicated, in order) with fields; the option after it is still parsed', async () => {
    const optsOf = async (define: typeof listCommand | typeof reactionsCommand, argv: string[]) => {
      let got: unknown;
      const cmd = define(createContext({ io: bufferIO(), env: {} }), async (_ctx, o) => void (got = o));
      await cmd.exitOverride().parseAsync(argv, { from: 'user' });
      return got;
    };
    expect(await optsOf(listCommand, ['--json', '--all'])).toEqual({ json: true, all: true });
    expect(await optsOf(listCommand, ['--json', 'mood,id,mood', '--all'])).toEqual({ json: ['mood', 'id'], all: true });
    expect(await optsOf(listCommand, ['--all', '--json=id'])).toEqual({ json: ['id'], all: true });
    expect(await optsOf(reactionsCommand, ['today', '--json', 'emoji'])).toEqual({ key: 'today', json: ['emoji'] });
    await expect(optsOf(reactionsCommand, ['--json', 'body'])).rejects.toThrow('Unknown JSON field "body"');
  });

  it('selectFields: per element of an array, top-level only, absent fields left out, null and scalars as they are', () => {
    const c = { id: 'x', person: { id: 'p', name: 'Ada' }, mood: null };
    expect(selectFields([c, { id: 'y' }], ['mood', 'id'])).toEqual([{ mood: null, id: 'x' }, { id: 'y' }]);
    expect(selectFields(c, ['person'])).toEqual({ person: { id: 'p', name: 'Ada' } });
    expect(selectFields(c, true)).toBe(c);
    expect(selectFields(null, ['id'])).toBeNull();
    expect(selectFields(Object.create({ id: 'inherited' }), ['id'])).toEqual({});
  });
});

describe('a mistyped mood', () => {
  it('-m focussed: Did you mean "focused"? (exit 2, nothing sent)', async () => {
    expect(await cli(['today', '-m', 'focussed'])).toEqual({ code: 2, stdout: '', stderr: 'error: Unknown mood "focussed"\nDid you mean "focused"?\n' });
    expect(await cli(['checkin', 'yesterday', '--mood', 'Tierd'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: Unknown mood "Tierd"\nDid you mean "tired"?\n',
    });
    expect(sb.requests).toEqual([]);
  });

  it('several near ones are all named; nothing near lists the valid moods as before', async () => {
    expect((await cli(['today', '-m', 'm'])).stderr).toBe('error: Unknown mood "m"\nDid you mean "calm" or "meh"?\n');
    expect((await cli(['today', '-m', 'a'])).stderr).toBe('error: Unknown mood "a"\nDid you mean "angry", "annoyed" or "calm"?\n');
    const far = await cli(['today', '-m', 'ecstatic']);
    expect(far).toMatchObject({ code: 2, stdout: '' });
    expect(far.stderr).toMatch(/^error: Unknown mood "ecstatic"\. Valid moods: calm, happy, .*, sick \(or none\)\n$/);
    expect(sb.requests).toEqual([]);
  });

  it('a Mood: line in a file says the same, on its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkin-mood-'));
    try {
      const file = join(dir, 'answers.md');
      writeFileSync(file, '## Intentions\n- Rest\n\nMood: tierd\n');
      const r = await cli(['today', '--from-file', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('line 4: Unknown mood "tierd". Did you mean "tired"?');
      expect(sb.requests.filter((q) => q.method === 'PATCH')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the editor reopens with the suggestion on top of what was saved', async () => {
    const shown: string[] = [];
    const edit = async (text: string) => {
      shown.push(text);
      return shown.length === 1 ? '## Intentions\n- Rest\n\nMood: tierd\n' : text.replace('Mood: tierd', 'Mood: tired');
    };
    const r = await cli(['today', '-e'], { tty: true, editor: { edit } });
    expect(r.code).toBe(0);
    expect(shown[1]).toContain('     line 7: Unknown mood "tierd". Did you mean "tired"?\n');
    expect(sb.requests.find((q) => q.method === 'PATCH')!.body).toMatchObject({ intentions: '- Rest', mood: 'tired' });
  });
});
