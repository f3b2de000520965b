// What uhttpd does around a CGI program behind `-y /api/v3=/cgi-bin/wrtapi`, after its source
// (proc.c, relay.c, cgi.c, file.c) and measurements on a real uhttpd build.

export const apiPrefix = '/api/v3';

export interface CgiRequest {
  method: string;
  /** The request target as sent: path and query, undecoded. */
  url: string;
  /** Request headers by lower-case name. */
  headers: Record<string, string | undefined>;
  httpVersion: string;
  remoteAddress: string;
  remotePort: number;
  serverAddress: string;
  serverPort: number;
  https: boolean;
}

// The only request headers uhttpd hands to CGI programs; If-Match, If-None-Match, X-Request-Id and
// Idempotency-Key never arrive.
const forwardedHeaders: Record<string, string> = {
  accept: 'HTTP_ACCEPT',
  'accept-charset': 'HTTP_ACCEPT_CHARSET',
  'accept-encoding': 'HTTP_ACCEPT_ENCODING',
  'accept-language': 'HTTP_ACCEPT_LANGUAGE',
  authorization: 'HTTP_AUTHORIZATION',
  cookie: 'HTTP_COOKIE',
  host: 'HTTP_HOST',
  origin: 'HTTP_ORIGIN',
  referer: 'HTTP_REFERER',
  'user-agent': 'HTTP_USER_AGENT',
  'x-http-method-override': 'HTTP_X_HTTP_METHOD_OVERRIDE',
  'content-type': 'CONTENT_TYPE',
  'content-length': 'CONTENT_LENGTH',
};

/** The CGI variables a request sees, every other header dropped: the names `cgi` passes through. */
export const cgiVariables = [
  'GATEWAY_INTERFACE', 'SERVER_SOFTWARE', 'SERVER_NAME', 'SERVER_ADDR', 'SERVER_PORT', 'SERVER_PROTOCOL',
  'REMOTE_HOST', 'REMOTE_ADDR', 'REMOTE_PORT', 'REQUEST_METHOD', 'REQUEST_URI', 'QUERY_STRING', 'SCRIPT_NAME',
  'SCRIPT_FILENAME', 'PATH_INFO', 'DOCUMENT_ROOT', 'HTTPS', ...Object.values(forwardedHeaders),
];

/** Whether the alias sends this request target to the CGI program (uhttpd's uh_path_match). */
export function isApiRequest(url: string): boolean {
  return url.startsWith(apiPrefix) && (url.length === apiPrefix.length || url[apiPrefix.length] === '/');
}

/**
 * The environment uhttpd gives the CGI program for a request under {@link apiPrefix}, or undefined
 * when the path holds a malformed %-escape (uhttpd answers 404 then).
 */
export function cgiEnvironment(request: CgiRequest): Record<string, string> | undefined {
  const queryStart = request.url.indexOf('?');
  const path = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
  const pathInfo = urlDecode(path);
  if (pathInfo === undefined) return undefined;
  const env: Record<string, string> = {
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_SOFTWARE: 'uhttpd',
    SERVER_NAME: request.serverAddress,
    SERVER_ADDR: request.serverAddress,
    SERVER_PORT: String(request.serverPort),
    SERVER_PROTOCOL: `HTTP/${request.httpVersion}`,
    REMOTE_HOST: request.remoteAddress,
    REMOTE_ADDR: request.remoteAddress,
    REMOTE_PORT: String(request.remotePort),
    REQUEST_METHOD: request.method,
    REQUEST_URI: request.url,
    QUERY_STRING: queryStart < 0 ? '' : request.url.slice(queryStart + 1),
    SCRIPT_NAME: '/cgi-bin/wrtapi',
    SCRIPT_FILENAME: '/www/cgi-bin/wrtapi',
    PATH_INFO: pathInfo,
    DOCUMENT_ROOT: '/www',
  };
  if (request.https) env.HTTPS = 'on';
  for (const [header, variable] of Object.entries(forwardedHeaders)) {
    const value = request.headers[header];
    if (value !== undefined) env[variable] = value;
  }
  return env;
}

/** uh_urldecode: %XX escapes only (a `+` stays), and a malformed escape fails. */
function urlDecode(path: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < path.length; i++) {
    if (path[i] !== '%') {
      bytes.push(...Buffer.from(path[i]));
      continue;
    }
    const hex = path.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  // uhttpd keeps the decoded path as a C string: it ends at the first NUL.
  const nul = bytes.indexOf(0);
  return Buffer.from(nul < 0 ? bytes : bytes.slice(0, nul)).toString('utf8');
}

export interface HttpAnswer {
  status: number;
  reason: string;
  /** Header lines in the program's order, names as written. */
  headers: [string, string][];
  body: Buffer;
}

/**
 * The HTTP answer uhttpd makes of a CGI program's output: `Status: NNN Reason` sets the status only
 * with a reason phrase (otherwise 200 OK stays), and output that never finishes its header block
 * (empty output, a line without a colon) becomes 502.
 */
export function httpAnswer(output: Buffer): HttpAnswer {
  const answer: HttpAnswer = { status: 200, reason: 'OK', headers: [], body: Buffer.alloc(0) };
  for (let start = 0; ; ) {
    const newline = output.indexOf('\n', start);
    if (newline < 0) return badGateway;
    const line = output.toString('latin1', start, newline).replace(/\r$/, '');
    start = newline + 1;
    if (line === '') {
      answer.body = output.subarray(start);
      return answer;
    }
    const colon = line.indexOf(':');
    if (colon < 0) return badGateway;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^\s+/, '');
    if (name !== 'Status') answer.headers.push([name, value]);
    else if (value.indexOf(' ') === 3) {
      answer.status = parseInt(value.slice(0, 3), 10) || 0;
      answer.reason = value.slice(4);
    }
  }
}

const badGateway: HttpAnswer = {
  status: 502,
  reason: 'Bad Gateway',
  headers: [['Content-Type', 'text/html']],
  body: Buffer.from('<h1>Bad Gateway</h1>The process did not produce any response'),
};

/**
 * The environment of a request from a LAN client (192.168.1.100) to the router (192.168.1.1), over
 * TLS unless `https` is false: what tests and the benchmark send.
 */
export function lanRequestEnvironment(request: {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
  remote?: string;
  https?: boolean;
}): Record<string, string> | undefined {
  const https = request.https ?? true;
  return cgiEnvironment({
    method: request.method,
    url: request.url,
    headers: { host: '192.168.1.1', ...request.headers },
    httpVersion: '1.1',
    remoteAddress: request.remote ?? '192.168.1.100',
    remotePort: 50000 + Math.floor(Math.random() * 10000),
    serverAddress: '192.168.1.1',
    serverPort: https ? 443 : 80,
    https,
  });
}
