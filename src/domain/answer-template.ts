// The answer template: a Markdown file with the editor's headings (`checkin config set template
// FILE`, or a .checkin.json's "template"), read only when one is set and the questions or the
// editor are about to start, or --template asks for it. Read bounded (a regular file, at most
// TEMPLATE_MAX_BYTES) by the editor's own reader (core/checkin-answers.ts). Its text is data: it is
// offered, as yesterday's intentions are, and sent only as the person sends it.

import type { CheckInAnswers } from '../api/types.js';
import { fsReason, readRegularFile, RefusedFile } from '../config/files.js';
import { inHome } from '../config/paths.js';
import { preferences } from '../config/prefs.js';
import type { Context } from '../context.js';
import { readAnswerTemplate } from '../core/checkin-answers.js';

/** The most of a template that is read: a page of headings and standing lines, not a document. */
export const TEMPLATE_MAX_BYTES = 64 * 1024;

/** The template set for the profile in use: its answers, or why it cannot be used (`problem`, in words, without the path). */
export type AnswerTemplate = { file: string; answers: CheckInAnswers } | { file: string; problem: string };

/** The template that is set, read; undefined when none is set. Never throws: what cannot be read or used is `problem`. */
export function answerTemplate(ctx: Context): AnswerTemplate | undefined {
  const set = preferences(ctx.config()).template;
  if (set === undefined) return undefined;
  const file = inHome(ctx.env, set);
  let text: string;
  try {
    text = readRegularFile(file, TEMPLATE_MAX_BYTES);
  } catch (err) {
    return { file, problem: unreadable(err) };
  }
  const read = readAnswerTemplate(text);
  if (read.problems.length > 0) return { file, problem: read.problems[0]! };
  return { file, answers: read.answers };
}

function unreadable(err: unknown): string {
  if (err instanceof RefusedFile && err.code === 'EFBIG') return `larger than ${TEMPLATE_MAX_BYTES / 1024} KiB, the most a template may be`;
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'no such file';
  return fsReason(err);
}
