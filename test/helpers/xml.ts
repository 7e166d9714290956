// What the scheduler tests share to read what they wrote as the scheduler would: a strict little
// XML reader (well-formedness, elements, attributes, text), a plist's value as plutil reads it, and a
// Windows command line split as CommandLineToArgvW does.
// ---- a strict little XML reader: well-formedness, elements, attributes, text ----

export interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

export function parseXml(xml: string): { decl: string; doctype?: string; root: El } {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i}: ${JSON.stringify(xml.slice(i, i + 40))}`);
  };
  const decl = /^<\?xml [^?]*\?>/.exec(xml)?.[0] ?? fail('no XML declaration');
  i = decl.length;
  const ws = () => {
    while (/\s/.test(xml[i] ?? '')) i++;
  };
  ws();
  let doctype: string | undefined;
  if (xml.startsWith('<!DOCTYPE', i)) {
    const end = xml.indexOf('>', i);
    doctype = xml.slice(i, end + 1);
    i = end + 1;
    ws();
  }
  const decode = (s: string) => {
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(s)) fail('a bare &');
    if (/[<]/.test(s)) fail('a bare <');
    return s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  };
  const element = (): El => {
    const open = /^<([A-Za-z][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/.exec(xml.slice(i)) ?? fail('no element');
    i += open[0].length;
    const attrs = Object.fromEntries([...open[2]!.matchAll(/([\w:.-]+)="([^"]*)"/g)].map((m) => [m[1]!, decode(m[2]!)]));
    const el: El = { name: open[1]!, attrs, children: [], text: '' };
    if (open[3]) return el;
    for (;;) {
      const lt = xml.indexOf('<', i);
      if (lt < 0) fail(`</${el.name}> missing`);
      el.text += decode(xml.slice(i, lt));
      i = lt;
      if (xml.startsWith(`</${el.name}>`, i)) {
        i += el.name.length + 3;
        return el;
      }
      if (xml.startsWith('</', i)) fail(`</${el.name}> expected`);
      el.children.push(element());
    }
  };
  const root = element();
  ws();
  if (i !== xml.length) fail('text after the root element');
  return { decl, ...(doctype && { doctype }), root };
}

/** A plist's value as plutil reads it: only plist's own elements, dict keys each followed by a value. */
export function plistValue(el: El): unknown {
  switch (el.name) {
    case 'string':
      return el.text;
    case 'integer':
      if (!/^-?\d+$/.test(el.text)) throw new Error(`bad integer ${el.text}`);
      return Number(el.text);
    case 'true':
    case 'false':
      return el.name === 'true';
    case 'array':
      return el.children.map(plistValue);
    case 'dict': {
      const out: Record<string, unknown> = {};
      if (el.children.length % 2 !== 0) throw new Error('a dict key without a value');
      for (let k = 0; k < el.children.length; k += 2) {
        if (el.children[k]!.name !== 'key') throw new Error(`expected <key>, got <${el.children[k]!.name}>`);
        out[el.children[k]!.text] = plistValue(el.children[k + 1]!);
      }
      return out;
    }
    default:
      throw new Error(`<${el.name}> is not a plist element`);
  }
}

/** A Windows command line split as CommandLineToArgvW does. */
export function windowsArgv(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    for (; i < line.length && (quoted || line[i] !== ' '); i++) {
      let slashes = 0;
      while (line[i] === '\\') (slashes++, i++);
      if (line[i] === '"') {
        arg += '\\'.repeat(Math.floor(slashes / 2));
        if (slashes % 2) arg += '"';
        else quoted = !quoted;
      } else {
        arg += '\\'.repeat(slashes);
        if (i >= line.length || (!quoted && line[i] === ' ')) break;
        arg += line[i];
      }
    }
    out.push(arg);
  }
  return out;
}

export const TASK_NS = 'http://schemas.microsoft.com/windows/2004/02/mit/task';
