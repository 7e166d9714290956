// wrapHelp (src/ui/wrap.ts): --help's own lines at a terminal. A line that fits stays as it is; a
// longer one breaks at word edges and continues where its kind of line reads on: a usage line under
// what follows "Usage: ", a term's description under the description, an example four columns in,
// prose under its own indent. Piped (no width), nothing changes.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/ui/width.js';
import { wrapHelp } from '../../src/ui/wrap.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('wrapHelp', () => {
  it('leaves a line that fits as it is, and everything when there is no width', () => {
    const text = 'Examples:\n  checkin today -p "Shipped X" -i "Review Y" -b "" --mood focused\n';
    expect(wrapHelp(text, 80)).toBe(text);
    expect(wrapHelp(text, Infinity)).toBe(text);
  });

  it('each kind of line continues where it reads on', () => {
    expect(wrapHelp('Usage: checkin goal update create [options] <goal-id>', 40)).toBe('Usage: checkin goal update create\n       [options] <goal-id>');
    expect(wrapHelp('  CHECKIN_PAGER      pager for long output (then the pager setting, PAGER, less -FRX; "" for none)', 60)).toBe(
      '  CHECKIN_PAGER      pager for long output (then the pager\n                     setting, PAGER, less -FRX; "" for none)',
    );
    expect(wrapHelp('  checkin today -p "Shipped X" -i "Review Y" -b "" --mood focused', 40)).toBe(
      '  checkin today -p "Shipped X" -i\n      "Review Y" -b "" --mood focused',
    );
    expect(wrapHelp('The token goes into the OS keychain where there is one, else into the config file.', 40)).toBe(
      'The token goes into the OS keychain\nwhere there is one, else into the config\nfile.',
    );
  });

  it('a description too far in for the width continues six in; a deep continuation line too', () => {
    const env =
      "  CHECKIN_CONFIG_DIR one folder for settings, cache and drafts (default: settings in $XDG_CONFIG_HOME/checkin,\n                     cache in $XDG_CACHE_HOME/checkin, drafts in $XDG_STATE_HOME/checkin, under ~ by XDG's defaults)";
    const out = wrapHelp(env, 40);
    expect(out.split('\n').filter((l) => displayWidth(l) > 40)).toEqual([]);
    expect(words(out)).toEqual(words(env));
    expect(
      out
        .split('\n')
        .slice(1)
        .every((l) => l.startsWith('      ') && !l.startsWith('       ')),
    ).toBe(true);
  });
});
