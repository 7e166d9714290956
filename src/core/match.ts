// Finding what a user meant by a name: exact (case-insensitive) matches, and near ones to suggest.

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** Up to `max` labels close to `wanted`: containing it, or a few edits away from it or a word of it. */
export function nearMatches(wanted: string, labels: string[], max = 3): string[] {
  const w = wanted.toLowerCase().replace(/^@/, '');
  const scored = labels
    .map((label) => {
      const l = label.toLowerCase();
      const words = l.split(/[\s@()]+/).filter(Boolean);
      const d = Math.min(distance(w, l), ...words.map((x) => distance(w, x)));
      const contains = l.includes(w) || (w.length >= 3 && words.some((x) => w.includes(x) && x.length >= 3));
      return { label, score: contains ? 0 : d };
    })
    .filter((s) => s.score <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a.score - b.score || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)); // code-unit order: no ICU collator to set up
  return [...new Set(scored.map((s) => s.label))].slice(0, max);
}
