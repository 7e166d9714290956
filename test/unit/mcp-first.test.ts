// The command lines `checkin mcp`'s first answer takes as its own (src/mcp/first.ts): only options
// the CLI itself has, where it has them, so that nothing is answered for a line the CLI would refuse.
import { describe, expect, it } from 'vitest';
import { mcpCommand } from '../../src/commands/mcp/mcp.js';
import { createContext } from '../../src/context.js';
import { firstInstructions, MCP_FLAGS, PROGRAM_FLAGS } from '../../src/mcp/first.js';
import { buildProgram } from '../../src/program.js';
import { tempDir } from '../helpers/cleanup.js';
import { bufferIO } from '../helpers/io.js';

const ctx = () => createContext({ io: bufferIO(), env: {} });
/** A command's long options: those without a value, and those with one (commander's own reading). */
const longs = (options: ReadonlyArray<{ long?: string; required: boolean; optional: boolean }>) => ({
  bare: options.filter((o) => !o.required && !o.optional).map((o) => o.long!),
  valued: options.filter((o) => o.required).map((o) => o.long!),
});

describe('the first answer: which command lines it answers', () => {
  it("takes only the program's options and mcp's that the CLI has, as it has them (--print-config and --help left to the CLI)", () => {
    const program = longs(buildProgram(ctx(), ['mcp']).options);
    for (const f of PROGRAM_FLAGS.bare) expect(program.bare).toContain(f);
    for (const f of PROGRAM_FLAGS.valued) expect(program.valued).toContain(f);
    const mcp = longs(mcpCommand(ctx()).options);
    expect(MCP_FLAGS.bare.toSorted()).toEqual(mcp.bare.toSorted());
    expect([...MCP_FLAGS.valued, '--print-config'].toSorted()).toEqual(mcp.valued.toSorted());
  });

  it('answers `checkin mcp` with the options it knows; leaves the rest, an unknown tool or set, and an unknown profile to the CLI', () => {
    const env = { CHECKIN_CONFIG_DIR: tempDir('checkin-first-'), HOME: tempDir('checkin-first-home-') };
    const takes = (argv: string[], more: NodeJS.ProcessEnv = {}) => firstInstructions(argv, { ...env, ...more }) !== undefined;
    expect(takes(['mcp'])).toBe(true);
    expect(takes(['--debug', '--profile=default', 'mcp', '--read-only', '--toolsets', 'all', '--tools=me'])).toBe(true);
    expect(takes(['mcp', '--print-config', 'claude'])).toBe(false);
    expect(takes(['mcp', '--help'])).toBe(false);
    expect(takes(['mcp', '--read-only', '--read-only'])).toBe(false);
    expect(takes(['mcp', '--tools', 'nosuch'])).toBe(false);
    expect(takes(['mcp'], { CHECKIN_MCP_TOOLSETS: 'everything' })).toBe(false);
    expect(takes(['--profile', 'nosuch', 'mcp'])).toBe(false);
    expect(takes(['mcp', '--debug'])).toBe(false);
    expect(takes(['help', 'mcp'])).toBe(false);
  });
});
