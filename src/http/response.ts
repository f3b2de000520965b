import type { ApiError } from './errors.js';

export interface Response {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /**
   * A body written out as the bytes of a file, never decoded: the kept OpenAPI document, a megabyte
   * whose decoding and encoding again cost a router more than all the rest of the request.
   */
  bytes?: Uint8Array;
  /** What an idempotent replay shows instead of `body`, when the body holds a secret shown only once. */
  replayBody?: string;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  207: 'Multi-Status',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const SECURITY_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** A JSON answer built by the shared path: it carries the four security headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(status, JSON.stringify(body), headers);
}

/** The same, of a body already JSON text: the text its ETag was hashed from, not made twice. */
export function jsonTextResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return { status, headers: { 'Content-Type': 'application/json', ...SECURITY_HEADERS, ...headers }, body: text };
}

/** A hand-built answer (`/healthz`, `/metrics`, 204, the batch 207): no security headers. */
export function plainResponse(status: number, contentType: string | undefined, body?: string): Response {
  return { status, headers: contentType ? { 'Content-Type': contentType } : {}, body };
}

export function errorResponse(error: ApiError, requestId: string): Response {
  const { headers, ...members } = error.details;
  return jsonResponse(
    error.status,
    { code: error.code, message: error.message, request_id: requestId, ...members },
    headers,
  );
}

/**
 * The CGI answer's head, up to the blank line; the body follows it as it is, never concatenated (a
 * megabyte document would be copied whole). uhttpd needs the reason phrase: `Status: 201` alone would become 200.
 */
export function renderCgiHead(response: Response, requestId: string): string {
  const lines = [`Status: ${response.status} ${REASONS[response.status] ?? 'Unknown'}`, `X-Request-Id: ${requestId}`];
  for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
  return lines.join('\r\n') + '\r\n\r\n';
}
