// `checkin api <path>`: one authenticated request to the API, as `gh api` makes them — for what
// no command covers yet. The path is relative to the API URL; the token never goes to another
// origin. `me` in the path or in people_ids[] becomes the person's UUID (the service refuses the
// literal). Piped, the answer is the service's JSON as sent; on a terminal it is indented and
// sanitised. A refusal prints its body too, and exits as every command does (4xx 2, 401 4, 5xx 1).

import { Command, Option } from '@commander-js/extra-typings';
import { OWN_HEADERS, type ApiClient } from '../../api/client.js';
import { ApiError, reason } from '../../api/errors.js';
import { walkAll, type PageSource } from '../../api/paginate.js';
import type { Headers } from '../../api/transport.js';
import { UUID_RE } from '../../api/types.js';
import type { Shape } from '../../api/validate.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { me } from '../../domain/account.js';
import { InputTooLarge, readText } from '../../ui/io.js';
import { escapeHiddenInJson, sanitize, sanitizeDeep, sanitizeLine } from '../../ui/sanitize.js';
import { collect, pauseNotice, type Run } from '../flags.js';
import { buildFields, fieldsQuery, splitField, typedValue, type Field, type Fields, type Value } from './field-syntax.js';

export interface ApiOptions {
  method?: string;
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  include?: boolean;
}

/** The largest body read from a file or standard input (--input, -F key=@file). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

const EXAMPLES = `
Examples:
  checkin api me
  checkin api 'check-ins?people_ids[]=me&per_page=5'
  checkin api goals -X GET -f 'people_ids[]=me'    # GET: fields in the query
  checkin api goals -f title='Ship the CLI' -f end_date=2027-12-31
  checkin api goals/<id> -X PATCH -F archived=true -F 'team_ids[]=<team-id>'
  checkin api activities --input activity.json     # - reads standard input
  checkin api people --paginate                    # every page, one array
  checkin api teams -i                             # status line and headers

-f key=value is a string; -F key=value is typed: true, false, null, a number,
@file (its text), @- (standard input), else a string. key[]=v appends to an
array, key[sub]=v sets in an object, -F key[] alone is an empty array. The
method is GET, or POST when fields or --input are given. me in the path or in
people_ids[] is your UUID. Piped, the answer is printed as the service sent it.`;

export function apiCommand(ctx: Context, run: Run<ApiOptions & { path: string }> = runApi) {
  return new Command('api')
    .argument('<path>', 'a path under the API URL (e.g. me, goals, check-ins/2026-11-20); a query may follow ?')
    .description('Make an authenticated request to the API and print the answer')
    .addOption(new Option('-X, --method <method>', 'the HTTP method (default GET, or POST with fields or --input)'))
    .option('-f, --raw-field <key=value>', 'a string field (repeatable)', collect)
    .option('-F, --field <key=value>', 'a typed field: true, false, null, a number, @file, @- (repeatable)', collect)
    .option('--input <file>', 'the request body from a file (- reads standard input); fields then go in the query')
    .option('-H, --header <name:value>', 'an HTTP header (repeatable)', collect)
    .option('--paginate', 'follow the pages of a list (GET), printing every item as one JSON array')
    .option('-i, --include', 'print the status line and the headers before the body')
    .addHelpText('after', EXAMPLES)
    .action((path, opts) => run(ctx, { ...opts, path }));
}

/**
 * A file's text, or standard input's for '-', at most `max` bytes: reading stops as soon as more
 * has come (a file is checked before, and read through the same bound: it may grow meanwhile).
 */
export async function readInput(ctx: Context, name: string, what: string, max = MAX_INPUT_BYTES): Promise<string> {
  const tooBig = () =>
    new UsageError(
      `${what}: ${name === '-' ? 'standard input holds' : `${name} is`} more than ${max % 1048576 === 0 ? `${max / 1048576} MiB` : `${max} bytes`}`,
    );
  if (name === '-') {
    try {
      return await ctx.io.readStdin(max);
    } catch (err) {
      if (err instanceof InputTooLarge) throw tooBig();
      throw err;
    }
  }
  const cannot = (err: NodeJS.ErrnoException) => new UsageError(`${what}: cannot read ${name} (${err.code ?? err.message})`);
  const { open, stat } = await import('node:fs/promises');
  // Checked before it is opened (opening a FIFO waits for a writer), and again once open.
  const before = await stat(name).catch((err: NodeJS.ErrnoException) => {
    throw cannot(err);
  });
  if (!before.isFile()) throw new UsageError(`${what}: ${name} is not a file`);
  if (before.size > max) throw tooBig();
  const file = await open(name).catch((err: NodeJS.ErrnoException) => {
    throw cannot(err);
  });
  try {
    const st = await file.stat();
    if (!st.isFile()) throw new UsageError(`${what}: ${name} is not a file`);
    if (st.size > max) throw tooBig();
    return await readText(file.createReadStream({ autoClose: false }), max);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (err instanceof InputTooLarge) throw tooBig();
    throw cannot(err as NodeJS.ErrnoException);
  } finally {
    await file.close();
  }
}

async function parseFields(ctx: Context, opts: ApiOptions): Promise<Field[]> {
  const out: Field[] = [];
  for (const raw of opts.rawField ?? []) {
    const { path, text } = splitField('-f', raw);
    out.push({ flag: '-f', raw, path, value: text ?? '' });
  }
  for (const raw of opts.field ?? []) {
    const { path, text } = splitField('-F', raw);
    let value: Value | undefined = text === undefined ? undefined : typedValue(text);
    if (typeof value === 'string' && value.startsWith('@')) value = await readInput(ctx, value.slice(1), `-F ${raw.slice(0, raw.indexOf('='))}`);
    out.push({ flag: '-F', raw, path, ...(value !== undefined && { value }) });
  }
  return out;
}

/**
 * `-H 'Name: value'`, checked to be a header HTTP can carry, and not one of the client's own
 * (client.ts OWN_HEADERS): Host would take the token to another virtual host, the framing headers
 * would smuggle a second request, and Authorization is the configured token's alone.
 */
export function parseHeaders(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of list) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(raw);
    if (!m) throw new UsageError(`-H ${raw}: expected "Name: value"`);
    if (OWN_HEADERS.has(m[1]!.toLowerCase())) {
      throw new UsageError(
        `-H ${m[1]}: checkin sets this header itself; it cannot be given`,
        "The token, the host and the framing of the body are the configured API's (set CHECKIN_API_URL or log in again to change them).",
      );
    }
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(m[2]!)) throw new UsageError(`-H ${m[1]}: the value holds a character HTTP headers cannot carry`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

const ME_KEYS = new Set(['people_ids[]', 'people_ids%5b%5d']);

/** `url` with `me` in a path segment (below the API URL, not the /me endpoint itself) and in people_ids[] values replaced by `id()`. */
async function resolveMe(url: string, baseUrl: string, id: () => Promise<string>): Promise<string> {
  const u = new URL(url);
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const rel = u.pathname.startsWith(`${basePath}/`) ? u.pathname.slice(basePath.length + 1) : undefined;
  let path = u.pathname;
  if (rel !== undefined) {
    const segs = rel.split('/');
    if (segs.slice(1).includes('me')) {
      const uuid = await id();
      path = `${basePath}/${segs.map((s, i) => (i > 0 && s === 'me' ? uuid : s)).join('/')}`;
    }
  }
  let search = u.search.replace(/^\?/, '');
  if (search) {
    const parts = search.split('&');
    for (let i = 0; i < parts.length; i++) {
      const [k, v] = parts[i]!.split('=', 2) as [string, string | undefined];
      if (ME_KEYS.has(k.toLowerCase()) && v === 'me') parts[i] = `${k}=${await id()}`;
    }
    search = parts.join('&');
  }
  return `${u.origin}${path}${search ? `?${search}` : ''}`;
}

/** What a refusal addresses: a resource named by its id (someone else's, maybe), or the account. */
const targetOf = (url: string) => (new URL(url).pathname.split('/').some((s) => UUID_RE.test(s)) ? 'resource' : 'account');

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified' };

function statusBlock(status: number, headers: Headers): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? reason(status)}`];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(`${name}: ${v}`);
  }
  return lines.map((l) => `${sanitizeLine(l)}\n`).join('') + '\n';
}

/**
 * The answer's body: as sent when piped (JSON: what a terminal would act on escaped in its strings,
 * which keeps the meaning; anything else: exactly, past the terminal guard, as gh and curl write
 * it — a file or a program downstream gets the service's bytes, not a copy with some taken out),
 * indented and sanitised on a terminal.
 */
function printBody(ctx: Context, text: string): void {
  if (text === '') return;
  let parsed: unknown;
  let json = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    json = false;
  }
  if (ctx.io.stdoutIsTTY) {
    ctx.io.out(json ? `${JSON.stringify(sanitizeDeep(parsed), null, 2)}\n` : `${sanitize(text)}${text.endsWith('\n') ? '' : '\n'}`);
    return;
  }
  // JSON cannot hold a raw control character but inside a string, and whitespace; what else the
  // stream guard would take out of a string is escaped instead, so the JSON means what it meant.
  if (json) ctx.io.out(escapeHiddenInJson(text.replace(/\r/g, '')));
  else ctx.io.raw(text);
}

const withId: Shape<{ id: string }> = ((v: unknown, at: string) =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? undefined : `${at} has no "id"`) as Shape<{ id: string }>;

/** Every page of a list at `url` (its own page and per_page replaced), within the rate budget (paginate.ts). */
async function allPages(api: ApiClient, url: string, headers: Record<string, string>, onPause: (ms: number) => void): Promise<unknown[]> {
  const u = new URL(url);
  const keep = u.search
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p !== '' && !/^(page|per_page)=/.test(p));
  const path = u.pathname;
  const source: PageSource = {
    ...api.pages,
    get: async (_path, query, shape) => {
      const q = [...keep, `page=${String(query.page)}`, `per_page=${String(query.per_page)}`].join('&');
      const res = await api.raw({ method: 'GET', url: `${u.origin}${path}?${q}`, headers, target: targetOf(url) });
      if (res.error) throw res.error;
      const bytes = Buffer.byteLength(res.text);
      let data: unknown;
      try {
        data = JSON.parse(res.text);
      } catch {
        throw new ApiError({ kind: 'invalid-response', method: 'GET', path, status: res.status, detail: 'answered a page that is not JSON' });
      }
      if (!Array.isArray(data))
        throw new UsageError(
          `--paginate follows lists: GET ${path} answered ${data === null ? 'null' : typeof data === 'object' ? 'an object' : `a ${typeof data}`}`,
          `Leave out --paginate.`,
        );
      const problem = shape(data, 'the answer');
      if (problem)
        throw new ApiError({
          kind: 'invalid-response',
          method: 'GET',
          path,
          status: res.status,
          detail: `${problem}: --paginate follows lists of objects with ids`,
        });
      return { headers: res.headers, data: data as never, bytes };
    },
  };
  const out: unknown[] = [];
  await walkAll(source, path, withId, {}, (items) => out.push(...items), { onPause });
  return out;
}

export async function runApi(ctx: Context, opts: ApiOptions & { path: string }): Promise<void> {
  const api = await ctx.api();
  const fieldList = await parseFields(ctx, opts);
  const fields: Fields = buildFields(fieldList);
  const hasFields = fieldList.length > 0;
  const method = (opts.method ?? (hasFields || opts.input !== undefined ? 'POST' : 'GET')).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new UsageError(`-X ${opts.method}: not an HTTP method`);
  if (opts.paginate && method !== 'GET') throw new UsageError(`--paginate follows the pages of a GET, not a ${method}`);
  if (opts.paginate && opts.include) throw new UsageError('--include and --paginate cannot be used together: --paginate prints one JSON array');
  const headers = parseHeaders(opts.header ?? []);

  let myId: Promise<string> | undefined;
  const id = () => (myId ??= me(ctx).then((p) => p.id));
  if (Array.isArray(fields.people_ids) && fields.people_ids.includes('me')) {
    const uuid = await id();
    fields.people_ids = fields.people_ids.map((v) => (v === 'me' ? uuid : v));
  }

  let url = api.urlFor(opts.path);
  let body: string | undefined;
  const toQuery = method === 'GET' || method === 'HEAD' || opts.input !== undefined;
  if (hasFields && toQuery) {
    const q = fieldsQuery(fields);
    if (q) url += (url.includes('?') ? '&' : '?') + q;
  } else if (hasFields) {
    body = JSON.stringify(fields);
  }
  if (opts.input !== undefined) body = await readInput(ctx, opts.input, '--input');
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  url = await resolveMe(url, api.baseUrl, id);

  if (opts.paginate) {
    const items = await allPages(api, url, headers, pauseNotice(ctx));
    if (ctx.io.stdoutIsTTY) ctx.io.out(`${JSON.stringify(sanitizeDeep(items), null, 2)}\n`);
    else printBody(ctx, `${JSON.stringify(items)}\n`);
    return;
  }

  const res = await api.raw({ method, url, headers, ...(body !== undefined && { body }), target: targetOf(url) });
  if (opts.include) ctx.io.out(statusBlock(res.status, res.headers));
  printBody(ctx, res.text);
  if (res.error) throw res.error;
}
