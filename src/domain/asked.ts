// The yes question of a write, in one place: it names the profile the write goes out as wherever a
// person could mistake it (several profiles, or one chosen by flag, variable or folder); with one
// profile it is the question as it always was.
import { askedAs } from '../config/profiles.js';
import type { Context } from '../context.js';

/** `question` as asked before a write in this run: "Post it (profile client-a)?" or "Post it?". */
export function askedHere(ctx: Context, question: string): string {
  return askedAs(question, ctx.config().profileToName());
}
