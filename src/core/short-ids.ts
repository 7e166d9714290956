// Short ids, as git shows short hashes: the first SHORT_ID characters of an id, lengthened where
// two ids of the same listing share them, so every short id names one id of that listing. And the
// other way: which ids a typed prefix names. Pure.

/** The kinds of id a short one may stand for. */
export type IdKind = 'check-in' | 'goal' | 'goal update';

/** The length of a short id when nothing collides (a UUID's first group: 8 hex characters). */
export const SHORT_ID = 8;
/** A prefix shorter than this is not taken for an id (git's floor). */
export const MIN_PREFIX = 4;
/**
 * Nor one longer than this (two dashes and a little more): a longer start is a UUID cut short (a
 * copy that lost its end), refused as not a UUID rather than guessed at.
 */
export const MAX_PREFIX = 18;

/** Looks like the start of a UUID (hex, with its dashes where a UUID has them), MIN_PREFIX to MAX_PREFIX long. */
export function isIdPrefix(input: string): boolean {
  const v = input.trim().toLowerCase();
  if (v.length < MIN_PREFIX || v.length > MAX_PREFIX) return false;
  const shape = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';
  for (let i = 0; i < v.length; i++) {
    const ch = v[i]!;
    if (shape[i] === '-' ? ch !== '-' : !/[0-9a-f]/.test(ch)) return false;
  }
  return !v.endsWith('-');
}

const common = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};

/**
 * The short ids of a listing, as ids arrive (pages): `short(id)` is the shortest start of `id`,
 * at least SHORT_ID long, that no other id added so far shares. An id that arrives later and
 * shares an earlier one's start gets a longer one (the earlier, already shown, keeps its own).
 */
export class ShortIds {
  private readonly byStart = new Map<string, string[]>();
  private readonly lengths = new Map<string, number>();

  add(ids: Iterable<string>): void {
    const fresh: string[] = [];
    for (const id of ids) {
      if (this.lengths.has(id)) continue;
      const start = id.slice(0, SHORT_ID);
      const same = this.byStart.get(start);
      if (same) same.push(id);
      else this.byStart.set(start, [id]);
      this.lengths.set(id, SHORT_ID);
      fresh.push(id);
    }
    for (const id of fresh) {
      const same = this.byStart.get(id.slice(0, SHORT_ID))!;
      if (same.length < 2) continue;
      for (const other of same) {
        if (other === id) continue;
        const n = Math.min(other.length, common(id, other) + 1);
        // Both sides lengthen within one page; an id shown on an earlier page keeps its length.
        if (n > this.lengths.get(id)!) this.lengths.set(id, n);
        if (fresh.includes(other) && n > this.lengths.get(other)!) this.lengths.set(other, n);
      }
    }
  }

  short(id: string): string {
    return id.slice(0, this.lengths.get(id) ?? SHORT_ID);
  }
}

/** The short ids of one whole listing: id → its short id. */
export function shortIds(ids: Iterable<string>): Map<string, string> {
  const s = new ShortIds();
  const all = [...ids];
  s.add(all);
  return new Map(all.map((id) => [id, s.short(id)]));
}

/** The ids among `known` that `prefix` starts (case-insensitive); a whole id matches itself only. */
export function matchPrefix(prefix: string, known: Iterable<string>): string[] {
  const p = prefix.trim().toLowerCase();
  const out = new Set<string>();
  for (const id of known) if (id.toLowerCase().startsWith(p)) out.add(id.toLowerCase());
  return [...out];
}
