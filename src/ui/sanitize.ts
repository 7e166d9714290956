// Text from the service is untrusted: strip what a terminal would interpret (ESC sequences,
// BEL, other C0 controls but tab and newline, DEL, C1 controls) before printing it.

// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function sanitize(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** For one-line contexts (names, titles): newlines and tabs become spaces too. */
export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/[\n\t]+/g, ' ');
}
