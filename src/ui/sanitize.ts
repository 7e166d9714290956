// The one sanitiser between untrusted text (the service's, or a draft, a file or stdin echoed
// back) and a person's terminal. It removes what a terminal would act on or what would disguise
// text: escape sequences (CSI, OSC, DCS…), C0 controls but tab and newline, DEL, C1 controls,
// bidirectional overrides and isolates, zero-width characters (a zero-width joiner is kept
// between two emoji, where it draws one picture), and invisible carriers of words (Unicode tags
// but in a subdivision flag, the deprecated format characters).
//
// - sanitize / sanitizeLine: for text from outside.
// - sanitizeDeep: every string of an object, before any view renders it.
// - guardTerminal: the last line of defence on everything checkin writes to a terminal; it keeps
//   checkin's own colours (SGR) and removes every other sequence and control.

const ESCAPE_SEQUENCE =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][\s\S]*?(?:\x07|\x1b\\|\x9c|$)|[ -/]*[0-~])|\x9b[0-?]*[ -/]*[@-~]|[\x90\x9d\x98\x9e\x9f][\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Bidi embeddings, overrides, isolates and marks; zero-width space and non-joiner, word joiner, BOM. */
const INVISIBLE = /[\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const LONE_ZWJ = /(?<!\p{Extended_Pictographic}\ufe0f?)\u200d|\u200d(?!\p{Extended_Pictographic})/gu;
/**
 * Characters that draw nothing and carry words: the deprecated format characters U+206A–U+206F, and
 * the Unicode tags U+E0000–U+E007F, which many language models read as the ASCII they shadow ("ASCII
 * smuggling": a teammate's "Looks good" followed by tagged instructions). A tag is kept only inside
 * an emoji's subdivision flag (🏴, two to six tag letters or digits, the cancel tag), where it draws one picture.
 */
const CARRIERS = /(\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F})|[\u206a-\u206f\u{E0000}-\u{E007F}]/gu;

export function sanitize(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, '')
    .replace(INVISIBLE, '')
    .replace(LONE_ZWJ, '')
    .replace(CARRIERS, (_, flag: string | undefined) => flag ?? '');
}

/** For one-line contexts (names, titles): newlines and tabs become spaces too. */
export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/[\n\t]+/g, ' ');
}

/** A copy of `value` with every string in it sanitised (keys included): what views are handed. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitize(value) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[sanitize(k)] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}

const SGR_SPLIT = /(\x1b\[[0-9;]*m)/;
const ANYTHING_TO_GUARD = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\u{E0000}-\u{E007F}]/u;

/** checkin's own output on its way to the terminal: its colours (SGR) kept, anything else that a terminal acts on removed. */
export function guardTerminal(text: string): string {
  if (!ANYTHING_TO_GUARD.test(text)) return text;
  return text
    .split(SGR_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part : sanitize(part)))
    .join('');
}
