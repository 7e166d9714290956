// A command's --help at a terminal fits the terminal's width at word edges, at any width (commander
// itself stops wrapping when a description would have fewer than 40 columns): a description beside
// its term while it has room (its widest word included), under it (indented) when it has not. Piped (no width), commander's
// own layout at 80 columns, as the manual (npm run docs) has it. What --help ends with (examples,
// notes, JSON fields) and the usage line are wrapped as it is written (program.ts, wrapHelp).

import { Help } from '@commander-js/extra-typings';
import { displayWidth } from './width.js';
import { wrap } from './wrap.js';

/** The helpers commander made for a terminal (it gave them a width): the others keep its own layout. */
const atTerminal = new WeakSet<Help>();
/** Those laying out a command whose descriptions go under their terms: one does not fit beside them. */
const stacked = new WeakSet<Help>();

/** The Help overrides for `Command.configureHelp`. */
export const terminalHelp: Partial<Help> = {
  prepareContext(this: Help, context) {
    if (context.helpWidth !== undefined) atTerminal.add(this);
    Help.prototype.prepareContext.call(this, context);
  },

  formatHelp(this: Help, cmd, helper: Help): string {
    if (atTerminal.has(this)) {
      // Beside their terms only when every description has the room, its widest word included: one layout a command.
      const width = this.helpWidth ?? 80;
      const room = width - helper.padWidth(cmd, helper) - 4;
      const descriptions = [
        ...helper.visibleArguments(cmd).map((a) => helper.argumentDescription(a)),
        ...helper.visibleOptions(cmd).map((o) => helper.optionDescription(o)),
        ...helper.visibleGlobalOptions(cmd).map((o) => helper.optionDescription(o)),
        ...helper.visibleCommands(cmd).map((c) => helper.subcommandDescription(c)),
      ];
      const widest = Math.max(0, ...descriptions.flatMap((d) => d.split(/\s+/)).map(displayWidth));
      if (room < Math.min(40, Math.floor(width / 2)) || widest > room) stacked.add(this);
    }
    return Help.prototype.formatHelp.call(this, cmd, helper);
  },

  boxWrap(this: Help, str: string, width: number): string {
    return atTerminal.has(this) ? wrap(str, width) : Help.prototype.boxWrap.call(this, str, width);
  },

  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
    if (!atTerminal.has(this)) return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    const width = this.helpWidth ?? 80;
    if (!description) return wrap(`  ${term}`, width, 4);
    if (!stacked.has(this)) {
      const lines = wrap(description, width - termWidth - 4).split('\n');
      const pad = ' '.repeat(Math.max(0, termWidth - displayWidth(term)));
      return [`  ${term}${pad}  ${lines[0]}`, ...lines.slice(1).map((l) => `${' '.repeat(termWidth + 4)}${l}`)].join('\n');
    }
    // Too narrow for both side by side: the term, and its description under it.
    const under = description
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n');
    return `${wrap(`  ${term}`, width, 4)}\n${wrap(under, width)}`;
  },
};
