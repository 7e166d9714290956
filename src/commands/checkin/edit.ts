// Writing check-in answers in $EDITOR, losslessly: what was saved is kept as a draft (verbatim)
// before anything is done with it; text that cannot be read reopens the editor with the problems
// in a comment at the top, as `git commit` does. Never started without a terminal.
import type { CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { isBlankTemplate, readTemplate } from '../../core/checkin-answers.js';
import { EditorError, UsageError, withHint } from '../../errors.js';
import { dropOwn, editKept, keep, ownEntry } from '../../domain/outbox.js';
import { keptLine } from '../flags.js';
import type { Target } from '../../domain/target.js';
import { checkInCommand } from './given.js';

const NOTE_START = '<!-- checkin could not read what you saved:';
const NOTE = /^<!-- checkin could not read what you saved:[\s\S]*?-->\n/;

/** -e asks for the editor outright: it needs standard input to be the terminal, nothing more (not stdout, not prompts). */
export function needTerminalForEditor(ctx: Context): void {
  if (!ctx.io.stdinIsTTY) {
    throw new UsageError(
      'The editor needs standard input to be a terminal',
      'Give the answers with --from-file FILE (- reads standard input), or with -p, -i, -b and --mood.',
    );
  }
}

/** The problems as a comment on top of `text`, every line number in them moved to where that line now is. */
export function withProblems(text: string, problems: string[]): string {
  const shift = problems.length + 2;
  const lines = problems.map((p) => `     ${p.replace(/\bline (\d+)/g, (_m, n: string) => `line ${Number(n) + shift}`)}`);
  return `${NOTE_START}\n${lines.join('\n')}\n     Fix it and save, or save an empty file to cancel (your text is kept as a draft). -->\n${text.replace(NOTE, '')}`;
}

/**
 * Opens the editor on `text` until what is saved can be read. Returns the answers, or undefined
 * when nothing was written (an empty file, or an untouched empty template: a cancel).
 */
export async function editAnswers(ctx: Context, target: Target, text: string): Promise<CheckInAnswers | undefined> {
  needTerminalForEditor(ctx);
  const draftTarget = { kind: 'check-in', key: target.key } as const;
  // What this run kept before the editor opened (the answers given at the prompts): it is what
  // stays kept when nothing is written.
  const before = ownEntry(ctx, draftTarget)?.content;
  /** What was saved in this editor session that could not be read yet (its problems shown). */
  let unread: string | undefined;
  const nothingWritten = () =>
    unread !== undefined ? keep(ctx, draftTarget, { kind: 'text', text: unread }) : before ? keep(ctx, draftTarget, before) : dropOwn(ctx, draftTarget);
  let shown = text;
  for (;;) {
    let saved: string;
    try {
      // The editor's file is this run's draft from the start: a closed terminal or a stop signal leaves what was saved.
      saved = (await editKept(ctx, draftTarget, shown)).replace(NOTE, '');
    } catch (err) {
      // The editor failed: whatever its file held is kept, unless it is what was shown.
      if (err instanceof EditorError && err.text.replace(NOTE, '').trim() !== '' && err.text !== shown) {
        keep(ctx, draftTarget, { kind: 'text', text: err.text.replace(NOTE, '') });
        throw withHint(err, keptLine(ctx, `${checkInCommand(target)} --resume -e`));
      }
      if (err instanceof EditorError) nothingWritten();
      throw err;
    }
    const { answers, problems } = readTemplate(saved);
    if (problems.length === 0 && isBlankTemplate(answers)) {
      nothingWritten();
      return undefined;
    }
    // editKept left the entry holding what was saved; kept again only where it could not.
    const held = ownEntry(ctx, draftTarget)?.content;
    if (!(held?.kind === 'text' && held.text === saved)) keep(ctx, draftTarget, { kind: 'text', text: saved });
    if (problems.length === 0) return answers;
    unread = saved;
    shown = withProblems(saved, problems);
  }
}
