// Where the parts of a JSON text are: each value's span, an object's members (key and value) and an
// array's items, so that a program can change one part of a file a person wrote and keep the rest of
// its text (indent, numbers, escapes, key order) byte for byte. Strict JSON (RFC 8259); an error says
// the line and column, never the text.

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: Array<{ key: string; start: number; value: JsonNode }> }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'scalar'; start: number; end: number };

/** A JSON text that does not parse: where (1-based line and column). */
export class JsonTextError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}`);
  }
}

const SCALAR = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/** The spans of `text`'s one JSON value (whitespace around it allowed). */
export function jsonSpans(text: string): JsonNode {
  let at = 0;
  const fail = (): never => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    throw new JsonTextError(line, at - before.lastIndexOf('\n'));
  };
  const space = () => {
    SPACE.lastIndex = at;
    SPACE.exec(text);
    at = SPACE.lastIndex;
  };
  const expect = (c: string) => {
    space();
    if (text[at] !== c) fail();
    at++;
  };
  const value = (depth: number): JsonNode => {
    if (depth > 512) fail();
    space();
    const start = at;
    if (text[at] === '{') {
      at++;
      const members: Array<{ key: string; start: number; value: JsonNode }> = [];
      space();
      if (text[at] === '}') return (at++, { kind: 'object', start, end: at, members });
      for (;;) {
        space();
        const keyStart = at;
        if (text[at] !== '"') fail();
        const key = value(depth + 1);
        expect(':');
        members.push({ key: JSON.parse(text.slice(key.start, key.end)) as string, start: keyStart, value: value(depth + 1) });
        space();
        if (text[at] === '}') return (at++, { kind: 'object', start, end: at, members });
        expect(',');
      }
    }
    if (text[at] === '[') {
      at++;
      const items: JsonNode[] = [];
      space();
      if (text[at] === ']') return (at++, { kind: 'array', start, end: at, items });
      for (;;) {
        items.push(value(depth + 1));
        space();
        if (text[at] === ']') return (at++, { kind: 'array', start, end: at, items });
        expect(',');
      }
    }
    SCALAR.lastIndex = at;
    if (!SCALAR.exec(text)) fail();
    at = SCALAR.lastIndex;
    return { kind: 'scalar', start, end: at };
  };
  const root = value(0);
  space();
  if (at !== text.length) fail();
  return root;
}

/** The member `key` of an object node (the last, as JSON.parse keeps the last of a repeated key). */
export function member(node: JsonNode, key: string): { key: string; start: number; value: JsonNode } | undefined {
  return node.kind === 'object' ? node.members.findLast((m) => m.key === key) : undefined;
}

/** One step of indent in `text`: the first indented line's leading white space (two spaces when none is). */
export function indentOf(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** `text` with the span [start, end) replaced. */
export function splice(text: string, start: number, end: number, by: string): string {
  return text.slice(0, start) + by + text.slice(end);
}
