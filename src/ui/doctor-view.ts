// `checkin doctor` for people: one line per check — its name, ok / warning / problem (in words:
// colour is never the only carrier), what was found — and the fix on the line under it; then a
// count. Plain (piped): the same lines without colour. The checks are sanitised before they come here.
import type { View } from './views.js';
import { wrap } from './wrap.js';

export interface DoctorLine {
  id: string;
  status: 'ok' | 'warning' | 'problem';
  message: string;
  fix: string | null;
}

export function doctorView(v: View, checks: readonly DoctorLine[]): string {
  const width = Math.max(...checks.map((c) => c.id.length));
  const mark = { ok: v.c.green('ok     '), warning: v.c.yellow('warning'), problem: v.c.red.bold('problem') };
  // On a terminal each paragraph wraps at word edges: the message under the message, the fix under the fix.
  const fit = (text: string, hang: number) => (v.rich ? wrap(text, v.width, hang) : text);
  const lines = checks.map((c) => {
    const line = fit(`${c.id.padEnd(width)}  ${mark[c.status]}  ${c.message.replace(/\s*\n\s*/g, ' ')}`, width + 11);
    return c.fix ? `${line}\n${fit(`${' '.repeat(width + 11)}${v.c.dim('fix:')} ${c.fix.replace(/\s*\n\s*/g, ' ')}`, width + 16)}` : line;
  });
  const count = (s: DoctorLine['status']) => checks.filter((c) => c.status === s).length;
  const [w, p] = [count('warning'), count('problem')];
  const summary = `${checks.length} checks: ${count('ok')} ok, ${w} warning${w === 1 ? '' : 's'}, ${p} problem${p === 1 ? '' : 's'}`;
  return `${lines.join('\n')}\n\n${summary}\n`;
}
