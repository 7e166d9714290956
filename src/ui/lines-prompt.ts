// A prompt for answers written as lines (Markdown bullets, most of the time): Enter adds a line,
// an empty line finishes, and Backspace on an empty line takes the line above back for editing —
// so a suggestion shown as lines can be kept, trimmed or changed without retyping it.
// Built on @inquirer/core, like the other prompts; loaded only when a person is asked.
import { createPrompt, isBackspaceKey, isEnterKey, makeTheme, usePrefix, useState, useKeypress } from '@inquirer/core';

export interface LinesConfig {
  message: string;
  /** The lines the answer starts with (a suggestion). */
  lines?: string[];
  /** A dim line under the question: where the suggestion came from, how the keys work. */
  note?: string;
  /** Told the answer as it stands after every key, the line being typed included (what Ctrl-C must not lose). */
  onInput?: (text: string) => void;
}

export const linesPrompt = createPrompt<string, LinesConfig>((config, done) => {
  const theme = makeTheme();
  const [status, setStatus] = useState<'idle' | 'done'>('idle');
  const [lines, setLines] = useState<string[]>(config.lines ?? []);
  const [current, setCurrent] = useState('');
  const prefix = usePrefix({ status, theme });

  useKeypress((key, rl) => {
    if (status !== 'idle') return;
    let now = { lines, current };
    if (isEnterKey(key)) {
      if (current === '') {
        setStatus('done');
        done(lines.join('\n'));
        return;
      }
      now = { lines: [...lines, current], current: '' };
    } else if (isBackspaceKey(key) && current === '' && lines.length > 0) {
      const last = lines[lines.length - 1]!;
      rl.write(last);
      now = { lines: lines.slice(0, -1), current: last };
    } else {
      now = { lines, current: rl.line };
    }
    setLines(now.lines);
    setCurrent(now.current);
    config.onInput?.([...now.lines, ...(now.current === '' ? [] : [now.current])].join('\n'));
  });

  const message = theme.style.message(config.message, status);
  if (status === 'done') {
    return lines.length === 0
      ? `${prefix} ${message} ${theme.style.answer('—')}`
      : `${prefix} ${message}\n${lines.map((l) => `  ${theme.style.answer(l)}`).join('\n')}`;
  }
  const head = [`${prefix} ${message}`];
  if (config.note) head.push(theme.style.help(`  ${config.note}`));
  return [...head, ...lines.map((l) => `  ${l}`), `  ${current}`].join('\n');
});
