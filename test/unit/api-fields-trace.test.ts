// `checkin api`'s field syntax and the trace's redaction and formatting, as functions.
import { describe, expect, it } from 'vitest';
import { redactBody, redactHeaders, redactText } from '../../src/api/trace.js';
import { buildFields, fieldsQuery, splitField, typedValue, type Field } from '../../src/commands/api/field-syntax.js';
import { formatTrace } from '../../src/ui/trace-lines.js';

const f = (flag: '-f' | '-F', raw: string): Field => {
  const { path, text } = splitField(flag, raw);
  return { flag, raw, path, ...(text !== undefined && { value: flag === '-F' ? typedValue(text) : text }) };
};

describe('api fields', () => {
  it('types -F values as gh does, JSON numbers only', () => {
    expect(['true', 'false', 'null', '42', '-3.5', '1e3', '007', '12345678901234567890', '1e400', '', 'True', '0x10'].map(typedValue)).toEqual([
      true,
      false,
      null,
      42,
      -3.5,
      1000,
      '007',
      '12345678901234567890',
      '1e400',
      '',
      'True',
      '0x10',
    ]);
  });

  it('builds nested arrays and objects in the order given; a value may hold "="', () => {
    const fields = buildFields([
      f('-f', 'q=a=b'),
      f('-F', 'ids[]=1'),
      f('-F', 'ids[]=2'),
      f('-f', 'o[x][y]=z'),
      f('-F', 'list[][k]=1'),
      f('-F', 'list[][k]=2'),
      f('-F', 'empty[]'),
    ]);
    expect(fields).toEqual({ q: 'a=b', ids: [1, 2], o: { x: { y: 'z' } }, list: [{ k: 1 }, { k: 2 }], empty: [] });
    expect(fieldsQuery(fields)).toBe('q=a%3Db&ids[]=1&ids[]=2&o[x][y]=z&list[][k]=1&list[][k]=2');
    expect(fieldsQuery({ n: null, 'a b': 'c&d' })).toBe('n=&a%20b=c%26d');
  });

  it('refuses keys it cannot read and fields that clash', () => {
    expect(() => splitField('-f', 'a[b=1')).toThrow(/the key must be a name/);
    expect(() => splitField('-f', 'key')).toThrow(/expected key=value/);
    expect(() => splitField('-F', 'key')).toThrow(/expected key=value/);
    expect(() => buildFields([f('-f', 'a=1'), f('-f', 'a[b]=2')])).toThrow(/"a" is already a value/);
    expect(() => buildFields([f('-f', 'a[]=1'), f('-f', 'a[b]=2')])).toThrow(/"a" is already an array/);
    expect(() => buildFields([f('-f', 'a[][]=1')])).toThrow(/arrays of arrays/);
  });
});

describe('trace redaction and lines', () => {
  const token = 'steady_pat_SECRET123';

  it('takes the token out of headers, URLs and bodies, and secret-looking JSON fields', () => {
    expect(redactHeaders({ authorization: `Bearer ${token}`, Cookie: 'a=b', 'x-note': `t=${token}`, accept: 'application/json' }, [token])).toEqual({
      authorization: 'Bearer [redacted]',
      Cookie: '[redacted]',
      'x-note': '[redacted]',
      accept: 'application/json',
    });
    expect(redactText(`https://h/x?t=${token}`, [token])).toBe('https://h/x?t=[redacted]');
    expect(redactBody(JSON.stringify({ token: 'x', nested: { api_key: 'y', Password: 'z', tokens: [1] }, name: token }), [token])).toBe(
      '{"token":"[redacted]","nested":{"api_key":"[redacted]","Password":"[redacted]","tokens":"[redacted]"},"name":"[redacted]"}',
    );
    expect(redactBody(`not json, password=${token}`, [token])).toBe('not json, password=[redacted]');
  });

  it('formats an exchange: request, answer, timing; every line sanitised, bodies cut', () => {
    const text = formatTrace({
      method: 'GET',
      url: 'http://127.0.0.1:1/api/v2/me',
      attempt: 2,
      requestHeaders: { authorization: 'Bearer [redacted]' },
      status: 200,
      responseHeaders: { ratelimit: '"burst";r=29;t=10', 'x-evil': ['a\u001b[31mb', 'c'] },
      responseBody: `{"a":"\u001b]0;x\u0007${'y'.repeat(2000)}"}`,
      ms: 12,
    });
    expect(text.split('\n').slice(0, 7)).toEqual([
      '> GET http://127.0.0.1:1/api/v2/me (try 2)',
      '> authorization: Bearer [redacted]',
      '< 200',
      '< ratelimit: "burst";r=29;t=10',
      '< x-evil: ab',
      '< x-evil: c',
      `< {"a":"${'y'.repeat(1024 - 12)}`,
    ]);
    expect(text).toContain('* body cut at 1024 of 2014 bytes\n* GET http://127.0.0.1:1/api/v2/me: 200 in 12 ms\n\n');
  });
});
