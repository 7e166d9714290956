// How every list command ends: JSON (exactly the service's objects), rows for people or scripts,
// and a note on stderr when there is nothing to show (still exit 0).
import type { Context } from '../context.js';
import { renderJson } from '../ui/render.js';
import type { View } from '../ui/views.js';

export async function printList<T>(ctx: Context, list: T[], json: boolean | undefined, none: string, rows: (v: View, list: T[]) => string): Promise<void> {
  if (json) ctx.io.out(renderJson(list));
  if (list.length === 0) ctx.io.err(`${none}\n`);
  else if (!json) ctx.io.out(rows(await ctx.view(), list));
}
