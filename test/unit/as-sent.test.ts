// The yes shows every field that will be sent (issue 48, case 4): for each body checkin sends, its
// fields are read from its shape (api/types.ts), each given a value, and the question's text
// (ui/as-sent.ts shownToSend, which both faces read) must show every one by its name with its value.
import { describe, expect, it } from 'vitest';
import type { Def, Shape } from '../../src/api/validate.js';
import { SENT_BODIES, shownToSend, type SentContent } from '../../src/ui/as-sent.js';

/** A value the shape takes, different for every field (`n`), as the draft would hold it. */
function sample(shape: Shape<unknown>, name: string, n: number): unknown {
  const def: Def = shape.def;
  switch (def.kind) {
    case 'optional':
    case 'nullable':
      return sample(def.of, name, n);
    case 'string':
      return `${name}-value-${n}`;
    case 'number':
      return 30 + n;
    case 'boolean':
      return n % 2 === 0;
    case 'enum':
      return def.values[n % def.values.length];
    case 'array':
      return [sample(def.of, name, n), sample(def.of, name, n + 100)];
    default:
      throw new Error(`no sample for ${name} (${def.kind}): describe it here`);
  }
}

function contentOf(kind: keyof typeof SENT_BODIES, body: Record<string, unknown>): SentContent {
  if (kind === 'answers') return { kind, answers: body } as SentContent;
  if (kind === 'comment') return { kind, body: body.body as string };
  return { kind, input: body } as SentContent;
}

describe('the yes shows every field of every body checkin sends', () => {
  for (const [kind, { shape, words }] of Object.entries(SENT_BODIES) as Array<[keyof typeof SENT_BODIES, (typeof SENT_BODIES)[keyof typeof SENT_BODIES]]>) {
    it(`${kind}: each field of its shape, by its name and with its value`, () => {
      const names = Object.keys(shape.fields);
      expect(names.length).toBeGreaterThan(0);
      const body = Object.fromEntries(names.map((name, i) => [name, sample(shape.fields[name as keyof typeof shape.fields] as Shape<unknown>, name, i)]));
      const shown = shownToSend(contentOf(kind, body));
      for (const [i, name] of names.entries()) {
        const { title } = (words as Record<string, { title: string }>)[name]!;
        const value = body[name];
        const seen = Array.isArray(value) ? value.map(String) : [typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)];
        // Its own paragraph: its title, then (on the line or under it) its value.
        const paragraph = shown.split('\n\n').find((p) => p.startsWith(`${title}:`) || p.startsWith(`${title} (`));
        expect(paragraph, `${kind}.${name} (field ${i}) in:\n${shown}`).toBeDefined();
        for (const v of seen) expect(paragraph, `${kind}.${name}`).toContain(v);
      }
      // A field the shape does not know goes too (the body is sent as it is kept): it is shown by its own name.
      if (kind !== 'comment')
        expect(shownToSend(contentOf(kind, { ...body, sneaky: 'https://evil.example/x' }))).toContain(
          'sneaky (a field checkin does not know): "https://evil.example/x"',
        );
    });
  }

  it('a field left out is not sent, and not shown; one emptied is shown as emptied', () => {
    expect(shownToSend({ kind: 'activity', input: { description: 'Fixed the build', group: 'checkin' } })).toBe(
      'The activity (15 characters):\nFixed the build\n\nLabel: checkin',
    );
    expect(shownToSend({ kind: 'goal', input: { title: 'Ship', description: null } })).toBe('Title: Ship\n\nDescription:\n(nothing)');
  });

  it('what hides in a one-line field is named, and a newline in it shows it as a section', () => {
    expect(shownToSend({ kind: 'activity', input: { description: 'x', url: 'https://ok.example/\u202eevil', group: 'a\nb' } })).toBe(
      'The activity (1 character):\nx\n\nLink: https://ok.example/[U+202E]evil\n\nLabel (3 characters, 2 lines):\na\nb',
    );
  });

  it('answers as sent: "none" as blockers goes as none, and is said', () => {
    expect(shownToSend({ kind: 'answers', answers: { intentions: '- Review', blockers: 'none', mood: 'calm', previous_completed: false } })).toBe(
      'Intentions (8 characters):\n- Review\n\nBlockers:\n(nothing)\n\nBlockers "none" are sent as no blockers: the check-in is not marked blocked.\n\nMood: calm\n\nDid what was intended: no',
    );
  });
});
