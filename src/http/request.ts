import { ApiError } from './errors.js';
import { isUnwritable, UNWRITABLE_MESSAGE } from './text.js';
import type { Ports } from '../platform/ports.js';

export interface Request {
  method: string;
  /** The raw path below `/api/v3`, without the query, e.g. `/firewall/rules/r_01H`. */
  path: string;
  /** The path's segments, each percent-decoded on its own so an encoded `/` stays inside its segment. */
  segments: string[];
  query: Map<string, string>;
  /** Every name the query holds, those of empty forms too (which `query` leaves out). */
  queryNames: Set<string>;
  remoteAddr: string;
  https: boolean;
  contentType: string;
  /** A request header (`HTTP_*` CGI variable); uhttpd passes only a fixed list of them. */
  header(name: string): string | undefined;
  /** A header, falling back to its query equivalent for the headers uhttpd strips. */
  headerOrQuery(header: string, queryName: string): string | undefined;
  /** Whether a body was sent (a Content-Length past 0). */
  hasBody: boolean;
  /** The body text; empty when none was sent. Loaded on demand: only requests with a body pay for reading one. */
  body(): Promise<string>;
  /** A batch's operation: the body as the batch's own parsed JSON holds it (json-body.ts bodyJson). */
  parsedBody?: unknown;
}

const API_PREFIX = '/api/v3';
const OVERRIDABLE_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/** A percent-decoded path segment or query part: well-formed UTF-8 that is text (http/text.ts), else `400`. */
function decode(text: string, what: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    throw new ApiError(400, 'bad_request', `Malformed percent-encoding or UTF-8 in ${what}`);
  }
  if (isUnwritable(decoded)) throw new ApiError(400, 'bad_request', `${what} ${UNWRITABLE_MESSAGE}`);
  return decoded;
}

function parseQuery(queryString: string): { query: Map<string, string>; queryNames: Set<string> } {
  const query = new Map<string, string>();
  const queryNames = new Set<string>();
  for (const pair of queryString.split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const name = decode((equals < 0 ? pair : pair.slice(0, equals)).replace(/\+/g, ' '), 'the query');
    const value = equals < 0 ? '' : decode(pair.slice(equals + 1).replace(/\+/g, ' '), 'the query');
    queryNames.add(name);
    // An empty form is an absent one: `?idempotency_key=` must not be a key, nor `?cursor=` a cursor.
    if (value !== '' && !query.has(name)) query.set(name, value);
  }
  return { query, queryNames };
}

/**
 * Reads the request from the CGI environment. Routing uses the raw `REQUEST_URI`: uhttpd's
 * `PATH_INFO` is already percent-decoded, so an id holding `%2F` could not be told from two segments.
 */
export function readRequest(ports: Ports): Request {
  const uri = ports.env('REQUEST_URI') ?? '/';
  const questionMark = uri.indexOf('?');
  let path = questionMark < 0 ? uri : uri.slice(0, questionMark);
  const scriptName = ports.env('SCRIPT_NAME') ?? '';
  for (const prefix of [API_PREFIX, scriptName]) {
    if (prefix && (path === prefix || path.startsWith(prefix + '/'))) {
      path = path.slice(prefix.length);
      break;
    }
  }
  path = path.replace(/\/+$/, '') || '/';
  const segments = path.split('/').filter(Boolean).map((segment) => decode(segment, 'the path'));
  const { query, queryNames } = parseQuery(questionMark < 0 ? ports.env('QUERY_STRING') ?? '' : uri.slice(questionMark + 1));

  const header = (name: string) => ports.env('HTTP_' + name.toUpperCase().replace(/-/g, '_')) || undefined;
  let method = (ports.env('REQUEST_METHOD') ?? 'GET').toUpperCase();
  const override = header('X-HTTP-Method-Override')?.toUpperCase();
  if (method === 'POST' && override && OVERRIDABLE_METHODS.has(override)) method = override;

  let body: Promise<string> | undefined;
  return {
    method,
    path,
    segments,
    query,
    queryNames,
    remoteAddr: ports.env('REMOTE_ADDR') ?? '',
    https: ports.env('HTTPS') === 'on',
    contentType: (ports.env('CONTENT_TYPE') ?? '').split(';')[0].trim().toLowerCase(),
    header,
    headerOrQuery: (name, queryName) => header(name) ?? query.get(queryName),
    hasBody: (Number(ports.env('CONTENT_LENGTH')) || 0) > 0,
    body: () => (body ??= import('./body.js').then((module) => module.readBody(ports))),
  };
}

/** GET, DELETE and an adopt take no body: one sent is a 400, as the spec's errors have it, not ignored. */
export function refuseUnexpectedBody(request: Request, template: string): void {
  if (request.hasBody && (request.method === 'GET' || request.method === 'DELETE' || template.endsWith('/adopt'))) {
    throw new ApiError(400, 'bad_request', `${request.method} ${template} takes no body`);
  }
}
