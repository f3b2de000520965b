import { ApiError } from '../http/errors.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

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
 * item has that id.
 */
export function pageOf<T>(query: Map<string, string>, items: T[], idOf: (item: T) => string): { page: T[]; headers: Record<string, string> } {
  const limit = pageSize(query.get('limit'));
  const cursor = query.get('cursor');
  if (cursor !== undefined) {
    const after = cursor.startsWith('c_') ? items.findIndex((item) => idOf(item) === cursor.slice(2)) : -1;
    if (after < 0) throw new ApiError(400, 'invalid_cursor', `cursor ${cursor} does not name a current item`);
    items = items.slice(after + 1);
  }
  const page = items.slice(0, limit);
  const headers: Record<string, string> = {};
  if (items.length > limit) {
    const next = `c_${idOf(page[page.length - 1])}`;
    // Encoded: a package name's `+` would read back as a space.
    headers['Link'] = `<?cursor=${encodeURIComponent(next)}&limit=${limit}>; rel="next"`;
    headers['X-Next-Cursor'] = next;
  }
  return { page, headers };
}
