// How many terminal cells a text takes.

const ANSI = /\x1b\[[0-9;]*m/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Made when first needed (text that is not printable ASCII): V8 compiles a regular expression's
// Unicode classes when it is made, ~1 M instructions each, and most runs print none of it.
let classes: { zero: RegExp; wide: RegExp; picture: RegExp } | undefined;
const unicodeClasses = () =>
  (classes ??= {
    zero: /\p{Mn}|\p{Me}|\u200d|\ufe0f/u,
    wide: /\p{Emoji_Presentation}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u,
    picture: /\p{Extended_Pictographic}/u,
  });

/**
 * Display width: emoji drawn as pictures and wide East Asian characters take two cells, combining
 * marks and colours none. A symbol that is text unless asked otherwise (⚠, ❤) takes one cell, or
 * two when a variation selector asks for the picture (❤️).
 */
export function displayWidth(text: string): number {
  const plain = text.includes('\x1b') ? text.replace(ANSI, '') : text;
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  const { zero: ZERO, wide: WIDE, picture: PICTURE } = unicodeClasses();
  let w = 0;
  let prev = '';
  for (const ch of plain) {
    // A variation selector after a text symbol asks for its picture: one cell more.
    if (ch === '\ufe0f' && prev && !WIDE.test(prev) && PICTURE.test(prev)) w++;
    prev = ch;
    if (ch.charCodeAt(0) < 0x300) w++;
    else if (!ZERO.test(ch)) w += WIDE.test(ch) ? 2 : 1;
  }
  return w;
}
