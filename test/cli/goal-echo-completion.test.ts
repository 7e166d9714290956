// Tab on the new commands: subcommands and flags from their definitions; owner, contributors,
// teams and goal ids from what earlier runs cached — and never a request.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();
const complete = async (...words: string[]) => (await w.cli(['complete', '--', ...words])).stdout;
const values = (out: string) =>
  out
    .split('\n')
    .filter((l) => l && l !== ':4')
    .map((l) => l.split('\t')[0]);

describe('completion of goal create/edit and echo', () => {
  it('offers the subcommands and flags', async () => {
    expect(values(await complete('echo', ''))).toEqual(['questions', 'ask', 'answers', 'help']);
    expect(values(await complete('goal', ''))).toEqual(expect.arrayContaining(['create', 'edit', 'update', 'updates']));
    expect(values(await complete('goal', 'create', '--'))).toEqual(
      expect.arrayContaining(['--title', '--description', '--start-date', '--end-date', '--owner', '--team', '--contributor', '--parent', '--input', '--json']),
    );
    expect(values(await complete('echo', 'ask', '--'))).toEqual(
      expect.arrayContaining(['--title', '--day', '--time', '--time-zone', '--frequency', '--resume', '--json']),
    );
  });

  it('owner, contributor, team and parent (and edit’s goal id) from the cache, with no request', async () => {
    expect((await w.cli(['goals'])).code).toBe(0); // caches my goals
    expect((await w.cli(['goal', 'create', '--title', 'x', '--contributor', '@linus'])).code).toBe(0); // caches me and the directory
    w.forget();
    expect(values(await complete('goal', 'create', '--owner', '@li'))).toEqual(['@linus']);
    expect(values(await complete('goal', 'edit', 'x', '--contributor', 'm'))).toEqual(['me']);
    expect(values(await complete('goal', 'edit', 'x', '--contributor', '@m'))).toEqual(['@margaret']);
    expect(values(await complete('goal', 'create', '--team', 'Mo'))).toEqual(['Mobile']);
    const billing = w.sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
    expect(await complete('goal', 'create', '--parent', billing.slice(0, 6))).toBe(`${billing}\tShip the v2 billing API\n:4\n`);
    expect(values(await complete('goal', 'edit', billing.slice(0, 6)))).toEqual([billing]);
    expect(w.sb.requests).toEqual([]);
  });
});
