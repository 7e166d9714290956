// Flags → options, for every command: parsing only, no HTTP. Each command's definition is built
// with a run function that records what it was given (gh's runF), so these tests see exactly the
// typed options object a run function receives, and commander's one-line refusals.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { activityCommand } from '../../src/commands/activity/activity.js';
import { logCommand } from '../../src/commands/activity/log.js';
import { loginCommand } from '../../src/commands/auth/login.js';
import { logoutCommand } from '../../src/commands/auth/logout.js';
import { meCommand } from '../../src/commands/auth/me.js';
import { checkinCommand } from '../../src/commands/checkin/checkin.js';
import { listCommand } from '../../src/commands/checkin/list.js';
import { todayCommand } from '../../src/commands/checkin/today.js';
import { commentsCommand } from '../../src/commands/comments/comments.js';
import { reactionsCommand } from '../../src/commands/comments/reactions.js';
import { cronCommand } from '../../src/commands/cron/cron.js';
import { goalsCommand } from '../../src/commands/goal/goals.js';
import { goalUpdateCreateCommand } from '../../src/commands/goal/update/create.js';
import { goalUpdateDeleteCommand } from '../../src/commands/goal/update/delete.js';
import { goalUpdateEditCommand } from '../../src/commands/goal/update/edit.js';
import { goalUpdateListCommand } from '../../src/commands/goal/update/list.js';
import { goalUpdateViewCommand } from '../../src/commands/goal/update/view.js';
import { peopleCommand } from '../../src/commands/people/people.js';
import { sandboxCommand } from '../../src/commands/sandbox/sandbox.js';
import { skillInstallCommand, skillStatusCommand } from '../../src/commands/skill/skill.js';
import { statusCommand } from '../../src/commands/status/status.js';
import { teamCommand } from '../../src/commands/team/team.js';
import { teamsCommand } from '../../src/commands/team/teams.js';
import { createContext, type Context } from '../../src/context.js';
import { bufferIO } from '../helpers/io.js';

type Define = (ctx: Context, run: (ctx: Context, opts: unknown) => Promise<void>) => CommandUnknownOpts;

/** Parses `argv` with the command's own definition; returns the options its run function got, or commander's error. */
async function parse(define: Define, argv: string[]): Promise<{ opts?: unknown; error?: string }> {
  const io = bufferIO();
  const ctx = createContext({ io, env: {} });
  let opts: unknown;
  const cmd = define(ctx, async (_ctx, o) => {
    opts = o;
  });
  cmd.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  try {
    await cmd.parseAsync(argv, { from: 'user' });
  } catch {
    return { error: io.stderrText() };
  }
  return { opts };
}

const CASES: Array<[string, Define, string[], unknown]> = [
  ['today: nothing', todayCommand, [], {}],
  [
    'today: every answer flag',
    todayCommand,
    ['-p', 'Shipped', '-i', '-', '-b', '', '-m', 'focused', '--done', '-t', 'Platform', '--team', 'Mobile', '-e', '--json'],
    { previous: 'Shipped', intentions: '-', blockers: '', mood: 'focused', done: true, team: ['Platform', 'Mobile'], edit: true, json: true },
  ],
  [
    'today: --not-done, --from-file, --resume',
    todayCommand,
    ['--not-done', '--from-file', 'a.md', '--resume'],
    { notDone: true, fromFile: 'a.md', resume: true },
  ],
  ['today --web', todayCommand, ['-w'], { web: true }],
  ['checkin <key> with answers', checkinCommand, ['friday', '--blockers', 'CI', '--json'], { key: 'friday', blockers: 'CI', json: true }],
  [
    'list: every filter',
    listCommand,
    [
      '--since',
      'monday',
      '--until',
      'yesterday',
      '--blocked',
      '--person',
      'me',
      '--person',
      '@grace,Ada',
      '--team',
      'Platform',
      '--page',
      '2',
      '--per-page',
      '10',
      '--json',
    ],
    { since: 'monday', until: 'yesterday', blocked: true, person: ['me', '@grace,Ada'], team: ['Platform'], page: 2, perPage: 10, json: true },
  ],
  ['list --all', listCommand, ['--all'], { all: true }],
  ['log', logCommand, ['Did it', '--url', 'https://x/y', '--json'], { text: 'Did it', url: 'https://x/y', group: 'checkin', json: true }],
  ['log - --group', logCommand, ['-', '--group', 'git', '--resume'], { text: '-', group: 'git', resume: true }],
  ['team', teamCommand, ['--date', 'friday', '--team', 'Mobile', '--json'], { date: 'friday', team: ['Mobile'], json: true }],
  ['comments: list', commentsCommand, ['yesterday'], { key: 'yesterday' }],
  ['comments: add to a goal update', commentsCommand, ['--goal-update', 'u1', '--add', '-', '--json'], { goalUpdate: 'u1', add: '-', json: true }],
  ['comments: edit, resume', commentsCommand, ['last', '-e', '--resume'], { key: 'last', edit: true, resume: true }],
  ['reactions', reactionsCommand, ['today', '--json'], { key: 'today', json: true }],
  ['reactions on a goal update', reactionsCommand, ['--goal-update', 'u1'], { goalUpdate: 'u1' }],
  ['goals', goalsCommand, ['--person', 'me', '--team', 'A', '--team', 'B', '--json'], { person: ['me'], team: ['A', 'B'], json: true }],
  ['teams', teamsCommand, ['--json'], { json: true }],
  ['people', peopleCommand, [], {}],
  [
    'activity',
    activityCommand,
    ['--kind', 'github_pr', '--kind', 'jira', '--team', 'T', '--person', '@ada', '--since', 'monday', '--until', 'today', '--json'],
    { kind: ['github_pr', 'jira'], team: ['T'], person: ['@ada'], since: 'monday', until: 'today', json: true },
  ],
  ['status', statusCommand, ['-q'], { quiet: true }],
  ['status --json', statusCommand, ['--json'], { json: true }],
  ['login', loginCommand, ['--with-token', '--api-url', 'https://x/api/v2'], { withToken: true, apiUrl: 'https://x/api/v2' }],
  ['logout', logoutCommand, [], {}],
  ['me', meCommand, ['--refresh', '--json'], { refresh: true, json: true }],
  ['cron: defaults', cronCommand, [], { at: '10:00', days: '1-5' }],
  ['cron', cronCommand, ['--at', '9:30', '--days', 'mon-fri', '--notify', 'notify-send hi'], { at: '9:30', days: 'mon-fri', notify: 'notify-send hi' }],
  ['sandbox: defaults', sandboxCommand, [], { host: '127.0.0.1', rateLimit: true, log: true }],
  [
    'sandbox',
    sandboxCommand,
    ['--port', '8080', '--host', '::1', '--token', 't', '--data', 'd.json', '--no-rate-limit', '--no-log'],
    { port: 8080, host: '::1', token: 't', data: 'd.json', rateLimit: false, log: false },
  ],
  [
    'goal update (create)',
    goalUpdateCreateCommand,
    ['g1', '--title', 'T', '--body', '-', '--progress', '60', '--confidence', 'on-track', '--json'],
    { goalId: 'g1', title: 'T', body: '-', progress: 60, confidence: 'on-track', json: true },
  ],
  ['goal update --edit --resume', goalUpdateCreateCommand, ['g1', '-e', '--resume'], { goalId: 'g1', edit: true, resume: true }],
  ['goal update list', goalUpdateListCommand, ['g1', '--json'], { goalId: 'g1', json: true }],
  ['goal update view', goalUpdateViewCommand, ['u1'], { updateId: 'u1' }],
  ['goal update view --web', goalUpdateViewCommand, ['u1', '--web'], { updateId: 'u1', web: true }],
  ['login --insecure-storage', loginCommand, ['--with-token', '--insecure-storage'], { withToken: true, insecureStorage: true }],
  ['goal update edit', goalUpdateEditCommand, ['u1', '--progress', '0', '--confidence', '30'], { updateId: 'u1', progress: 0, confidence: '30' }],
  ['goal update delete', goalUpdateDeleteCommand, ['u1', '-y'], { updateId: 'u1', yes: true }],
  ['skill install: Claude Code, user, by default', skillInstallCommand, [], { agent: 'claude', scope: 'user' }],
  [
    'skill install --agent --scope --force',
    skillInstallCommand,
    ['--agent', 'codex', '--scope', 'project', '--force'],
    { agent: 'codex', scope: 'project', force: true },
  ],
  ['skill install --agent vscode', skillInstallCommand, ['--agent', 'vscode'], { agent: 'vscode', scope: 'user' }],
  ['skill status: every agent and scope', skillStatusCommand, [], {}],
  ['skill status --agent --scope', skillStatusCommand, ['--agent', 'claude', '--scope', 'project'], { agent: 'claude', scope: 'project' }],
];

describe('flags → options', () => {
  it.each(CASES)('%s', async (_name, define, argv, expected) => {
    expect(await parse(define, argv)).toEqual({ opts: expected });
  });
});

const REFUSED: Array<[string, Define, string[], string]> = [
  ['an unknown flag', todayCommand, ['--frobnicate'], "error: unknown option '--frobnicate'\n"],
  ['a flag of another command', goalUpdateViewCommand, ['u1', '--title', 'x'], "error: unknown option '--title'\n"],
  ['delete has no content flags', goalUpdateDeleteCommand, ['u1', '--body', 'x'], "error: unknown option '--body'\n"],
  ['a missing key', checkinCommand, [], "error: missing required argument 'key'\n"],
  ['a missing goal id', goalUpdateListCommand, [], "error: missing required argument 'goal-id'\n"],
  ['a missing value', todayCommand, ['--mood'], "error: option '-m, --mood <mood>' argument missing\n"],
  ['--per-page above 50', listCommand, ['--per-page', '51'], "error: option '--per-page <n>' argument '51' is invalid. --per-page must be from 1 to 50.\n"],
  ['--page 0', listCommand, ['--page', '0'], "error: option '--page <n>' argument '0' is invalid. --page must be from 1 to 100000.\n"],
  [
    '--progress not a number',
    goalUpdateCreateCommand,
    ['g1', '--progress', 'half'],
    "error: option '--progress <0..100>' argument 'half' is invalid. --progress must be a whole number from 0 to 100.\n",
  ],
  ['--port out of range', sandboxCommand, ['--port', '70000'], "error: option '--port <n>' argument '70000' is invalid. --port must be from 0 to 65535.\n"],
  ['an extra argument', goalUpdateViewCommand, ['u1', 'u2'], 'error: too many arguments. Expected 1 argument but got 2.\n'],
  [
    'skill install: an agent whose folder is not known',
    skillInstallCommand,
    ['--agent', 'cursor'],
    "error: option '--agent <agent>' argument 'cursor' is invalid. Allowed choices are claude, codex, vscode.\n",
  ],
  [
    'skill install: a scope that is not one',
    skillInstallCommand,
    ['--scope', 'global'],
    "error: option '--scope <scope>' argument 'global' is invalid. Allowed choices are user, project.\n",
  ],
  ['skill status: no arguments', skillStatusCommand, ['claude'], 'error: too many arguments. Expected 0 arguments but got 1.\n'],
];

describe('flags refused by commander, before any run', () => {
  it.each(REFUSED)('%s', async (_name, define, argv, error) => {
    expect(await parse(define, argv)).toEqual({ error });
  });
});
