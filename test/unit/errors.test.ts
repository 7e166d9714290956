// The error family (src/errors.ts) and what error-text.ts makes of it: one way to add a hint,
// the error keeping its class; CHECKIN_DEBUG read one way for both faces.
import { constants, openSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { CLI_ADVICE } from '../../src/commands/flags.js';
import { debugFrom } from '../../src/context.js';
import { UnknownIdError } from '../../src/domain/short-ids.js';
import { describeError } from '../../src/error-text.js';
import { CancelledError, CliError, EditorError, EXIT, ExitSignal, hintText, terminal, UnexpectedError, UsageError, withHint } from '../../src/errors.js';
import { tempDir } from '../helpers/cleanup.js';

describe('withHint', () => {
  it('gives the same error with one more line: class, message, exit code and stack kept; the error caught is unchanged', () => {
    const err = new EditorError('vim failed', 'what was saved', true);
    const hinted = withHint(err, 'What you wrote is kept as a draft.');
    expect(hinted).toBeInstanceOf(EditorError);
    expect(hinted).toMatchObject({ message: 'vim failed', exitCode: EXIT.USAGE, text: 'what was saved', stack: err.stack });
    expect(hinted.hints).toEqual([err.hints[0], 'What you wrote is kept as a draft.']);
    expect(err.hints).toHaveLength(1);
    expect(describeError(hinted, false).lines).toEqual(['error: vim failed', hintText(err.hints[0]!), 'What you wrote is kept as a draft.']);
  });

  it('advice for a terminal is data: the CLI says it, the agent face leaves it out (no reading of the words)', () => {
    const err = withHint(
      new UsageError('No check-in id starts with "zz"', terminal('`checkin list` shows check-ins with their ids')),
      'Words for anyone, even with `checkin` in them.',
    );
    expect(describeError(err, false).lines).toEqual([
      'error: No check-in id starts with "zz"',
      '`checkin list` shows check-ins with their ids',
      'Words for anyone, even with `checkin` in them.',
    ]);
    expect(describeError(err, false, 'agent').lines).toEqual(['error: No check-in id starts with "zz"', 'Words for anyone, even with `checkin` in them.']);
  });

  it("an id nothing starts with: the domain says which kind, the face's words say what lists them; a face with none adds no advice", () => {
    const cli = new UnknownIdError('goal update', 'ab12', CLI_ADVICE.listIds('goal update'));
    expect(describeError(cli, false).lines).toEqual([
      'error: No goal update id starts with "ab12"',
      "`checkin goal update list <goal-id>` shows a goal's updates with their ids; give one, or the start of one.",
    ]);
    const other = new UnknownIdError('check-in', 'zz', 'list them here');
    expect(describeError(other, false).lines[1]).toBe('`list them here` shows check-ins with their ids; give one, or the start of one.');
    expect(describeError(new UnknownIdError('goal', 'ff'), false).lines).toEqual(['error: No goal id starts with "ff"']);
  });

  it("an editor quit with a failure status (vim's :cq) is a stop: exit 130, plain words, no advice about the editor; the kept line follows", () => {
    const err = new EditorError("The editor (vim) quit with status 1, as vim's :cq does: nothing was sent", 'what was saved');
    expect(err.hints).toEqual([]);
    expect(describeError(withHint(err, 'What you wrote is kept as a draft.'), false)).toEqual({
      code: EXIT.CANCELLED,
      lines: ["The editor (vim) quit with status 1, as vim's :cq does: nothing was sent", 'What you wrote is kept as a draft.'],
    });
  });

  it('an API error keeps its own lines and code; the hint follows its suggestion', () => {
    const err = new ApiError({
      kind: 'http',
      method: 'PATCH',
      path: '/api/v2/check-ins/2026-01-05',
      status: 500,
      serviceMessage: 'down',
      suggestion: 'Try again later.',
    });
    const hinted = withHint(err, 'kept');
    expect(hinted).toBeInstanceOf(ApiError);
    expect(describeError(hinted, false)).toEqual({
      code: EXIT.FAILURE,
      lines: ['error: PATCH /api/v2/check-ins/2026-01-05: 500 Internal Server Error: down', 'Try again later.', 'kept'],
    });
  });

  it('anything else becomes an UnexpectedError: its message, then how to see more, then the hint', () => {
    const hinted = withHint(new TypeError('x is undefined'), 'kept');
    expect(hinted).toBeInstanceOf(UnexpectedError);
    expect(describeError(hinted, false)).toEqual({
      code: EXIT.FAILURE,
      lines: ['error: x is undefined', 'Run again with CHECKIN_DEBUG=1 for details.', 'kept'],
    });
    expect(describeError(new TypeError('x is undefined'), false)).toEqual({
      code: EXIT.FAILURE,
      lines: ['error: x is undefined', 'Run again with CHECKIN_DEBUG=1 for details.'],
    });
  });

  it("a file system error nothing caught is said in checkin's words naming the file (a folder, a link), not as EISDIR or ELOOP; one it has no words for, in Node's", () => {
    const dir = tempDir();
    const link = join(dir, 'link');
    symlinkSync('elsewhere', link);
    const thrown = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (err) {
        return err;
      }
      throw new Error('nothing thrown');
    };
    const lines = (err: unknown) => describeError(err, false).lines;
    expect(lines(thrown(() => openSync(dir, 'r+')))).toEqual([`error: ${dir} is a folder, not a file`, 'Run again with CHECKIN_DEBUG=1 for details.']);
    expect(lines(thrown(() => openSync(link, constants.O_RDONLY | constants.O_NOFOLLOW)))).toEqual([
      `error: ${link} is a symbolic link, which checkin does not follow there (or a loop of them)`,
      'Run again with CHECKIN_DEBUG=1 for details.',
    ]);
    const missing = thrown(() => openSync(join(dir, 'missing'), 'r')) as Error;
    expect(lines(missing)).toEqual([`error: ${missing.message}`, 'Run again with CHECKIN_DEBUG=1 for details.']);
  });

  it('hints nest in order, as the error passes outwards', () => {
    const err = withHint(withHint(new UsageError('No team named "Nope"', 'first'), 'second'), 'third');
    expect(describeError(err, false)).toEqual({ code: EXIT.USAGE, lines: ['error: No team named "Nope"', 'first', 'second', 'third'] });
  });
});

describe('the family', () => {
  it('each error carries its exit code', () => {
    expect(new CliError('x').exitCode).toBe(EXIT.FAILURE);
    expect(new UsageError('x').exitCode).toBe(EXIT.USAGE);
    expect(new CancelledError().exitCode).toBe(EXIT.CANCELLED);
    expect(new ApiError({ kind: 'http', method: 'GET', path: '/me', status: 401 }).exitCode).toBe(EXIT.AUTH);
    expect(new ApiError({ kind: 'http', method: 'PATCH', path: '/x', status: 403, target: 'resource' }).exitCode).toBe(EXIT.USAGE);
    expect(new ApiError({ kind: 'timeout', method: 'GET', path: '/me' }).exitCode).toBe(EXIT.FAILURE);
    expect(describeError(new ExitSignal(EXIT.PENDING), false)).toEqual({ code: EXIT.PENDING, lines: [] });
  });
});

describe('CHECKIN_DEBUG', () => {
  it('is a word or a list of them: api traces, 1 adds stacks', () => {
    expect(debugFrom({})).toEqual({ api: false, stacks: false });
    expect(debugFrom({ CHECKIN_DEBUG: '1' })).toEqual({ api: false, stacks: true });
    expect(debugFrom({ CHECKIN_DEBUG: 'api' })).toEqual({ api: true, stacks: false });
    expect(debugFrom({ CHECKIN_DEBUG: 'api,1' })).toEqual({ api: true, stacks: true });
    expect(debugFrom({ CHECKIN_DEBUG: 'api 1' })).toEqual({ api: true, stacks: true });
  });
});
