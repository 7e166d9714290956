// How many terminal cells a text takes.

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const WIDE = /\p{Emoji_Presentation}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/**
 * Display width: emoji drawn as pictures and wide East Asian characters take two cells, combining
 * marks and colours none. A symbol that is text unless asked otherwise (⚠, ❤) takes one cell, or
 * two when a variation selector asks for the picture (❤️).
 */
export function displayWidth(text: string): number {
  let w = 0;
  const chars = [...text.replace(ANSI, '')];
  chars.forEach((ch, i) => {
    if (/\p{Mn}|\p{Me}|\u200d|\ufe0f/u.test(ch)) return;
    w += WIDE.test(ch) || (chars[i + 1] === '\ufe0f' && /\p{Extended_Pictographic}/u.test(ch)) ? 2 : 1;
  });
  return w;
}
