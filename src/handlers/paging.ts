import { ApiError } from '../http/errors.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;
// The query forms of headers, which hold for one request only.
const HEADER_FORMS = ['request_id', 'if_none_match', 'if_match', 'idempotency_key'];
const ONE_REQUEST = ['cursor', 'limit', ...HEADER_FORMS];

const encodeQuery = (pairs: string[][]) => pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');

/** What of a query the page pageOf gives depends on: all of it but the query forms of headers. */
export const pageQuery = (query: Map<string, string>): string => encodeQuery([...query].filter(([name]) => !HEADER_FORMS.includes(name)));

function pageSize(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PAGE;
  if (!/^[1-9]\d*$/.test(text) || Number(text) > MAX_PAGE) {
    throw new ApiError(400, 'bad_request', `limit must be an integer from 1 to ${MAX_PAGE}`);
  }
  return Number(text);
}

/**
 * The page of `items` the request's `limit` and `cursor` ask for, and the headers naming the next:
 * a cursor is `c_<id>` of the last item of the previous page, 400 `invalid_cursor` when no current
 * item has that id. `items` is an array, or a function giving the items one by one (undefined at
 * the end), of which the page takes only as many as it needs.
 */
export function pageOf<T>(query: Map<string, string>, items: T[] | (() => T | undefined), idOf: (item: T) => string): { page: T[]; headers: Record<string, string> } {
  let index = 0;
  const next = typeof items === 'function' ? items : () => items[index++];
  const limit = pageSize(query.get('limit'));
  const cursor = query.get('cursor');
  if (cursor !== undefined) {
    let found = false;
    for (let item = next(); !found && item !== undefined; item = found ? undefined : next()) found = cursor.startsWith('c_') && idOf(item) === cursor.slice(2);
    if (!found) throw new ApiError(400, 'invalid_cursor', `cursor ${cursor} does not name a current item`);
  }
  const page: T[] = [];
  let item = next();
  for (; item !== undefined && page.length < limit; item = next()) page.push(item);
  const headers: Record<string, string> = {};
  if (item !== undefined) {
    const following = `c_${idOf(page[page.length - 1])}`;
    // The next page keeps the listing's filters (`managed`), not what belongs to one request.
    const kept = [...query].filter(([name]) => !ONE_REQUEST.includes(name));
    // Encoded: a package name's `+` would read back as a space.
    const next = encodeQuery([['cursor', following], ['limit', String(limit)], ...kept]);
    headers['Link'] = `<?${next}>; rel="next"`;
    headers['X-Next-Cursor'] = following;
  }
  return { page, headers };
}
