// The one sanitiser between untrusted text (the service's, or a draft, a file or stdin echoed
// back) and a person's terminal. It removes what a terminal would act on or what would disguise
// text: escape sequences (CSI, OSC, DCS…), C0 controls but tab and newline, DEL, C1 controls,
// bidirectional overrides and isolates, zero-width characters, and invisible carriers of words:
// every format character and variation selector but those an emoji draws with (see HIDDEN, the one
// rule, which a person's yes question names instead of removing).
//
// - sanitize / sanitizeLine: for text from outside.
// - sanitizeDeep: every string of an object, before any view renders it.
// - guardTerminal: the last line of defence on everything checkin writes to a terminal; it keeps
//   checkin's own colours (SGR) and removes every other sequence and control.

const ESCAPE_SEQUENCE =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][\s\S]*?(?:\x07|\x1b\\|\x9c|$)|[ -/]*[0-~])|\x9b[0-?]*[ -/]*[@-~]|[\x90\x9d\x98\x9e\x9f][\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
/**
 * The one rule of characters that draw nothing, read by every face: removed here before any human
 * output, and named ("[U+00AD]") in a person's yes question (ui/as-sent.ts) — the terminal's and
 * the agent's alike. They are the controls (but tab and newline), every format character (\p{Cf}:
 * bidi marks, zero-width ones, the soft hyphen, the deprecated U+206A–U+206F, the interlinear
 * annotations U+FFF9–U+FFFB, the musical and shorthand format controls, the Unicode tags that many
 * language models read as the ASCII they shadow) and every variation selector (U+FE00–U+FE0F,
 * U+E0100–U+E01EF and Mongolian's), which can carry bytes after an emoji. Three are kept, as part of
 * the picture they draw: a zero-width joiner between two emoji, VS15 or VS16 right after a character
 * that takes them (text or emoji presentation), and the tags of a subdivision flag (🏴, two to six
 * tag letters or digits, the cancel tag).
 */
let hidden: RegExp | undefined;
/** The rule as a regular expression, made at its first use: its Unicode classes are compiled when it is made (~6 M instructions), which a run printing no hidden character never needs. */
const HIDDEN = () =>
  (hidden ??=
    /(\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}|(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}]\ufe0f?)\u200d(?=\p{Extended_Pictographic})|(?<=\p{Emoji})[\ufe0e\ufe0f])|[\x00-\x08\x0b-\x1f\x7f-\x9f\p{Cf}\p{Variation_Selector}\u{E0000}-\u{E007F}]/gu);

/**
 * A quick look first, over UTF-16 units: every unit a hidden character can hold (the controls, the
 * format characters and variation selectors of the BMP, and any surrogate: the tags and the rest
 * above it). Text with none — most of what a command prints — is given back as it is, without
 * running HIDDEN, whose Unicode classes and lookbehinds are compiled anew in every process
 * (test/unit/ui-config checks this covers every code point HIDDEN takes).
 */
export const MAYBE_HIDDEN =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb\ud800-\udfff]/;

/** `text` with each hidden character (the rule above) replaced by what `by` makes of it; what an emoji draws is kept. */
export function replaceHidden(text: string, by: (c: string) => string): string {
  if (!MAYBE_HIDDEN.test(text)) return text;
  return text.replace(HIDDEN(), (c, kept: string | undefined) => kept ?? by(c));
}

/** JSON text with each hidden character (the rule above) written as its \\u escapes: the JSON means the same, and a terminal shows where they are. */
export function escapeHiddenInJson(json: string): string {
  return replaceHidden(json, (c) =>
    c
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

export function sanitize(text: string): string {
  return replaceHidden(text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n'), () => '');
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
let toGuard: RegExp | undefined;
/** Made at its first use, as HIDDEN is. */
const ANYTHING_TO_GUARD = () => (toGuard ??= /[\x00-\x08\x0b-\x1f\x7f-\x9f\p{Cf}\p{Variation_Selector}\u{E0000}-\u{E007F}]/u);

/** checkin's own output on its way to the terminal: its colours (SGR) kept, anything else that a terminal acts on removed. */
export function guardTerminal(text: string): string {
  if (!MAYBE_HIDDEN.test(text) || !ANYTHING_TO_GUARD().test(text)) return text;
  return text
    .split(SGR_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part : sanitize(part)))
    .join('');
}
