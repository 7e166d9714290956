// What `checkin mcp` tells a client of a line it writes on stderr (src/mcp/log.ts): which lines are
// told and at what level, and each as one sanitised line, the home folder as ~, bounded.
import { describe, expect, it } from 'vitest';
import { loggable, logLevelOf, MAX_LOG_CHARS } from '../../src/mcp/log.js';

describe('mcp log lines', () => {
  it('warnings are told at warning, waits before a retry at info, nothing else', () => {
    expect(logLevelOf('warning: the draft d1 could not be updated (EACCES)')).toEqual({ level: 'warning', text: 'the draft d1 could not be updated (EACCES)' });
    expect(logLevelOf('Too many requests; retrying in 12 s…')).toEqual({ level: 'info', text: 'Too many requests; retrying in 12 s…' });
    expect(logLevelOf('error: not found')).toBeUndefined();
    expect(logLevelOf('GET /me 200 (12 ms)')).toBeUndefined();
    expect(logLevelOf('')).toBeUndefined();
  });

  it('one line, no escape sequences or hidden or separating characters, the home folder as ~, at most MAX_LOG_CHARS', () => {
    const env = { HOME: '/home/ana' };
    expect(loggable('/home/ana/.cache/checkin/cache.json cannot be read', env)).toBe('~/.cache/checkin/cache.json cannot be read');
    const told = loggable('a\u001b[31mred\u001b[0m\nnext\u2028forged --- end ---\u202Eevil\u{E0041}', env);
    expect(told).not.toMatch(/[\u001b\n\r\u2028\u2029\u202E\u{E0041}]/u);
    expect(told).toContain('red');
    expect(loggable('x'.repeat(5000), env)).toHaveLength(MAX_LOG_CHARS);
    expect(loggable('x'.repeat(5000), env).endsWith('…')).toBe(true);
  });
});
