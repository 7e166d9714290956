// A repeated flag keeps every value (issue 42): -p/-i/-b, comments --add and goal update --body
// given more than once are joined as lines in the order given; a flag that takes one value says
// so when given twice. No value given on the command line is dropped without a word.
import { describe, expect, it } from 'vitest';
import { TODAY, useWorld } from '../helpers/harness.js';
import { addDays } from '../../src/core/datekey.js';

const w = useWorld();
const patches = () => w.sb.requests.filter((r) => r.method === 'PATCH' || r.method === 'POST');

describe('repeated answer flags join as lines, in order', () => {
  it('today: -i a -i b sends "a\\nb"; -p and -b likewise; one PATCH', async () => {
    const r = await w.cli([
      'today',
      '-p',
      'Shipped X',
      '-p',
      'Fixed Y',
      '-i',
      'a',
      '-i',
      'b',
      '-i',
      'c',
      '-b',
      'Waiting on CI',
      '-b',
      'and on review',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(patches()[0]!.body).toEqual({ previous: 'Shipped X\nFixed Y', intentions: 'a\nb\nc', blockers: 'Waiting on CI\nand on review' });
  });

  it('checkin <key>: the same for another day', async () => {
    const yesterday = addDays(TODAY, -1);
    expect((await w.cli(['checkin', yesterday, '-i', 'one', '-i', 'two', '--json'])).code).toBe(0);
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${yesterday}`]);
    expect(patches()[0]!.body).toEqual({ intentions: 'one\ntwo' });
  });

  it('comments --add: each --add a line of the one comment', async () => {
    const r = await w.cli(['comments', addDays(TODAY, -1), '--add', 'Nice work!', '--add', 'Ping me for the review.']);
    expect(r.code, r.stderr).toBe(0);
    expect(patches().map((p) => p.body)).toEqual([{ body: 'Nice work!\nPing me for the review.' }]);
  });

  it('goal update --body: each --body a line of the body; --title twice is refused, nothing sent', async () => {
    const goal = w.sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
    const r = await w.cli(['goal', 'update', goal, '--title', 'Invoices shipped', '--body', '- Done', '--body', '- Next: webhooks', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(patches().map((p) => p.body)).toEqual([{ title: 'Invoices shipped', body: '- Done\n- Next: webhooks' }]);
    w.forget();
    const twice = await w.cli(['goal', 'update', goal, '--title', 'One', '--title', 'Two', '--body', 'x']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--title was given more than once ("One", then "Two"); give it once.');
    expect(w.sent()).toEqual([]);
  });

  it('the --help of each says so', async () => {
    for (const args of [
      ['today', '--help'],
      ['checkin', '--help'],
      ['comments', '--help'],
      ['goal', 'update', 'create', '--help'],
    ]) {
      const r = await w.cli(args, { columns: 200 });
      expect(r.stdout.replace(/\s+/g, ' '), args.join(' ')).toContain('repeated: one line each, in order');
    }
  });
});

describe('nothing dropped without a word', () => {
  it('--mood twice, log --url twice: refused (exit 2), nothing sent', async () => {
    const mood = await w.cli(['today', '-i', 'a', '--mood', 'happy', '--mood', 'tired']);
    expect(mood.code).toBe(2);
    expect(mood.stderr).toContain('--mood was given more than once ("happy", then "tired"); give it once.');
    const url = await w.cli(['log', 'Reviewed', '--url', 'https://a.example/1', '--url', 'https://a.example/2']);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--url was given more than once');
    const goal = w.sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
    const progress = await w.cli(['goal', 'update', goal, '--title', 'T', '--progress', '40', '--progress', '60']);
    expect(progress.code).toBe(2);
    expect(progress.stderr).toContain('--progress was given more than once ("40", then "60"); give it once.');
    expect(w.sent()).toEqual([]);
  });

  it('a one-value flag with a default (log --group) given twice: refused, nothing sent; once, it stands', async () => {
    const twice = await w.cli(['log', 'Reviewed', '--group', 'git', '--group', 'review']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--group was given more than once ("git", then "review"); give it once.');
    expect(w.sent()).toEqual([]);
    const once = await w.cli(['log', 'Reviewed', '--group', 'review', '--json']);
    expect(once.code, once.stderr).toBe(0);
    expect(patches().map((p) => p.body)).toEqual([{ description: 'Reviewed', group: 'review' }]);
  });

  it('a flag with choices (report --format) given twice: refused, nothing asked; a wrong choice still says the choices', async () => {
    const twice = await w.cli(['report', '--format', 'md', '--format', 'csv']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--format was given more than once ("md", then "csv"); give it once.');
    expect(w.sent()).toEqual([]);
    const wrong = await w.cli(['report', '--format', 'pdf']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Allowed choices are md, csv, json, html, slack, slack-blocks.');
    const once = await w.cli(['report', '--format', 'csv']);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stdout.split('\n')[0]).toMatch(/^date,person,/);
  });

  it('log with two texts is refused, not one of them sent', async () => {
    const r = await w.cli(['log', 'Paired with @grace', 'on the flaky test']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too many arguments|one text/i);
    expect(w.sent()).toEqual([]);
  });

  it('- (standard input) with another value of the same flag is refused, not half-used', async () => {
    const r = await w.cli(['today', '-p', '-', '-p', 'more'], { input: 'From the pipe\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--previous - reads standard input, and cannot be joined with another --previous');
    expect(w.sent()).toEqual([]);
  });
});

describe('an empty pipe keeps the other answers (the git recipe on a day without commits)', () => {
  it('-p - with nothing on stdin and -i given: the intentions are sent, previous left as it was, said; exit 0', async () => {
    expect((await w.cli(['today', '-p', 'Yesterday, as written before'])).code).toBe(0);
    w.forget();
    const r = await w.cli(['today', '-p', '-', '-i', '- Review the retries', '--json'], { input: '' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('note: nothing came on standard input for --previous: left as it was; the other answers are sent.\n');
    expect(w.sent()).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(patches()[0]!.body).toEqual({ intentions: '- Review the retries' });
    expect(JSON.parse(r.stdout)).toMatchObject({ previous: 'Yesterday, as written before', intentions: '- Review the retries' });
  });

  it('-p - alone with nothing on stdin: nothing to send, exit 2, as before', async () => {
    const r = await w.cli(['today', '-p', '-'], { input: '' });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: Nothing came on standard input for --previous; nothing was sent\nTo say there is nothing, give it as an empty value: --previous "".\n',
    });
    expect(w.sent()).toEqual([]);
  });
});

describe('every one-value option of every command, however deep', () => {
  it("refuses a second value (the manual's whole program: each option with no default that does not collect)", async () => {
    const { manualProgram } = await import('../../src/main.js');
    const program = await manualProgram();
    const walk = (cmd: typeof program, path: string[]): Array<[string, (typeof program)['options'][number]]> => [
      ...cmd.options.map((o) => [`${path.join(' ')} ${o.flags}`, o] as [string, (typeof program)['options'][number]]),
      ...cmd.commands.flatMap((sub) => walk(sub, [...path, sub.name()])),
    ];
    const taking = walk(program, ['checkin']).filter(([, o]) => (o.required || o.optional) && !o.variadic && o.defaultValue === undefined);
    expect(taking.length).toBeGreaterThan(50);
    const silent: string[] = [];
    for (const [where, o] of taking) {
      // The collecting ones keep both values (a list, or lines); every other refuses the second.
      let first: unknown;
      try {
        first = o.parseArg ? o.parseArg('1', undefined) : '1';
      } catch {
        // A value it checks (JSON fields): not a plain "1".
        continue;
      }
      let second: unknown;
      try {
        second = o.parseArg ? o.parseArg('2', first) : '2';
      } catch {
        continue;
      }
      const kept = Array.isArray(second) ? second.join('\n') : String(second);
      if (!(kept.includes('1') && kept.includes('2'))) silent.push(where);
    }
    expect(silent).toEqual([]);
  });

  it('list --since twice: refused, nothing sent', async () => {
    const r = await w.cli(['list', '--since', 'monday', '--since', 'tuesday']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--since was given more than once ("monday", then "tuesday"); give it once.');
    expect(w.sent()).toEqual([]);
  });
});
