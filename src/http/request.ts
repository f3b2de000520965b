import { ApiError } from './errors.js';
import type { Ports } from '../platform/ports.js';

export interface Request {
  method: string;
  /** The raw path below `/api/v3`, without the query, e.g. `/firewall/rules/r_01H`. */
  path: string;
  /** The path's segments, each percent-decoded on its own so an encoded `/` stays inside its segment. */
  segments: string[];
  query: Map<string, string>;
  remoteAddr: string;
  https: boolean;
  contentType: string;
  /** A request header (`HTTP_*` CGI variable); uhttpd passes only a fixed list of them. */
  header(name: string): string | undefined;
  /** A header, falling back to its query equivalent for the headers uhttpd strips. */
  headerOrQuery(header: string, queryName: string): string | undefined;
  /** The body text; empty when none was sent. */
  body(): string;
}

const API_PREFIX = '/api/v3';
const OVERRIDABLE_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ApiError(400, 'bad_request', `Malformed percent-encoding in ${what}`);
  }
}

function parseQuery(queryString: string): Map<string, string> {
  const query = new Map<string, string>();
  for (const pair of queryString.split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const name = decode((equals < 0 ? pair : pair.slice(0, equals)).replace(/\+/g, ' '), 'the query');
    const value = equals < 0 ? '' : decode(pair.slice(equals + 1).replace(/\+/g, ' '), 'the query');
    if (!query.has(name)) query.set(name, value);
  }
  return query;
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
  const query = parseQuery(questionMark < 0 ? ports.env('QUERY_STRING') ?? '' : uri.slice(questionMark + 1));

  const header = (name: string) => ports.env('HTTP_' + name.toUpperCase().replace(/-/g, '_'));
  let method = (ports.env('REQUEST_METHOD') ?? 'GET').toUpperCase();
  const override = header('X-HTTP-Method-Override')?.toUpperCase();
  if (method === 'POST' && override && OVERRIDABLE_METHODS.has(override)) method = override;

  let body: string | undefined;
  return {
    method,
    path,
    segments,
    query,
    remoteAddr: ports.env('REMOTE_ADDR') ?? '',
    https: ports.env('HTTPS') === 'on',
    contentType: (ports.env('CONTENT_TYPE') ?? '').split(';')[0].trim().toLowerCase(),
    header,
    headerOrQuery: (name, queryName) => header(name) ?? query.get(queryName),
    body() {
      body ??= ports.readBody(Number(ports.env('CONTENT_LENGTH') ?? 0) || 0);
      return body;
    },
  };
}
