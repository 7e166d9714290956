// When the profile in use is named (config/profiles.ts profileToName) and how: a person with one
// profile called "default", chosen by nothing, reads what they read before profiles; several, or
// one chosen by flag, variable or folder, or another name, and every place that could be mistaken
// says which (the yes question, the wall's title on a terminal and as lines).
import { describe, expect, it } from 'vitest';
import { askedAs, profileToName, type ProfileChoice } from '../../src/config/profiles.js';
import { teamDays } from '../../src/core/member-states.js';
import { makeColors } from '../../src/ui/color.js';
import { wallAsLines, wallChanges, wallLines, type WallData } from '../../src/ui/wall.js';

const plain = await makeColors(0);
const choice = (name: string, origin: ProfileChoice['origin']): ProfileChoice => ({ name, origin });

describe('profileToName', () => {
  it('says nothing for one profile called default, chosen by nothing (or by the config file)', () => {
    expect(profileToName(choice('default', 'default'), [])).toBeUndefined();
    expect(profileToName(choice('default', 'default'), ['default'])).toBeUndefined();
    expect(profileToName(choice('default', 'config'), ['default'])).toBeUndefined();
  });
  it('names it with several profiles, another name, or a choice by flag, variable or folder', () => {
    expect(profileToName(choice('default', 'default'), ['default', 'client-a'])).toBe('default');
    expect(profileToName(choice('client-a', 'config'), ['client-a'])).toBe('client-a');
    for (const origin of ['flag', 'env', 'directory'] as const) expect(profileToName(choice('default', origin), ['default'])).toBe('default');
  });
});

describe('askedAs', () => {
  it('puts the profile before the question mark, and leaves the question alone when there is none to name', () => {
    expect(askedAs('Post it?', 'client-a')).toBe('Post it (profile client-a)?');
    expect(askedAs('Post it?', undefined)).toBe('Post it?');
  });
});

describe("the wall's title", () => {
  const day = teamDays([{ id: 't', name: 'Platform', people: [{ id: 'p', name: 'Pat' }] }], [], '2026-11-22');
  const view = { c: plain, rich: true, width: 100, now: new Date('2026-11-22T09:30:00Z'), unicode: true };
  it('names the profile on the screen, as lines and in a change of teams; without one it is as before', () => {
    const named: WallData = { date: '2026-11-22', teams: day, goals: [], profile: 'client-a' };
    expect(wallLines(view, named)[0]).toMatch(/^Platform \(profile client-a\) — 2026-11-22 /);
    expect(wallAsLines(named)[0]).toMatch(/^Team Platform \(profile client-a\), 2026-11-22: /);
    expect(wallChanges({ ...named, teams: [] }, named)[0]).toMatch(/^Now shown: Team Platform \(profile client-a\), /);
    expect(wallLines(view, { ...named, profile: undefined })[0]).toMatch(/^Platform — 2026-11-22 /);
    expect(wallAsLines({ ...named, profile: undefined })[0]).toMatch(/^Team Platform, 2026-11-22: /);
  });
});
