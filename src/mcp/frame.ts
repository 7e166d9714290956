// One message, one line on stdout: what the transport (stdio.ts) and the first answer (first.ts) write.

/**
 * Line and paragraph separators JSON leaves raw in a string (JSON.stringify escapes only U+0000–U+001F):
 * NEL, U+2028 and U+2029. A client that splits frames as lines (Node's readline, Python's
 * str.splitlines) would cut a message at one; escaped, a frame is one line for every reader.
 */
const RAW_SEPARATORS = /[\u0085\u2028\u2029]/g;

/** A message as one frame: its JSON with no raw line or paragraph separator anywhere in it. */
export function frame(message: object): string {
  return JSON.stringify(message).replace(RAW_SEPARATORS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
