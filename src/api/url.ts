// Where a request goes: paths joined under the base URL's own path, queries in the service's form.

export type QueryValue = string | number | boolean | readonly string[] | undefined;
/** A query as it is encoded; endpoints.ts builds one from each endpoint's typed query. */
export type Query = { readonly [name: string]: QueryValue };

/** Array values go out in the repeated `name[]=value` form; undefined values are left out. */
export function encodeQuery(query: Query = {}): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const v of value) parts.push(`${encodeURIComponent(name)}[]=${encodeURIComponent(v)}`);
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

/** `path` joined under the base URL's own path: /api/v2 survives (a leading '/' would drop it). */
export function joinUrl(baseUrl: string, path: string, query?: Query): string {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const rel = path.replace(/^\/+/, '');
  const q = encodeQuery(query);
  return `${base.origin}${prefix}/${rel}${q ? `?${q}` : ''}`;
}
