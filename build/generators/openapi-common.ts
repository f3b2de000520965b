// The pieces every path of the OpenAPI document is built from: error codes and responses,
// references, headers, and the operation shape with its request-id parameters.
import type { ErrorCode, FieldErrorCode, SweepErrorCode } from '../../src/http/errors.js';
import type { JsonSchema } from '../../src/resources/model.js';
import type { Properties } from './inventory.js';

// Keyed by the error-code unions so that the compiler rejects a code missing or unknown here.
export const ERROR_CODES = Object.keys({
  bad_request: true, invalid_cursor: true, unauthorized: true, invalid_token: true, insufficient_scope: true,
  scope_escalation_blocked: true, tls_required: true, not_found: true, method_not_allowed: true, conflict: true,
  unmanaged_resource: true, idempotency_key_conflict: true, precondition_failed: true, unsupported_media_type: true,
  validation_failed: true, locked: true, too_many_requests: true, internal_error: true, reload_failed_restored: true,
  reload_failed_unrecovered: true, service_unavailable: true, init_script_missing: true,
} satisfies Record<ErrorCode, true>);
export const FIELD_ERROR_CODES = Object.keys({
  required: true, invalid_type: true, invalid_format: true, out_of_range: true, not_in_enum: true, conflict: true,
  read_only: true, unknown_field: true,
} satisfies Record<FieldErrorCode, true>);
export const SWEEP_ERROR_CODES = Object.keys({ unreadable: true, sweep_failed: true } satisfies Record<SweepErrorCode, true>);

export const ERROR_RESPONSES: Record<number, [string, string]> = {
  400: ['BadRequest', '`bad_request`: malformed JSON or wrong shape; `invalid_cursor`.'],
  401: ['Unauthorized', '`unauthorized`: no or malformed Authorization header; `invalid_token`: unknown, expired, or source address not allowed.'],
  403: ['Forbidden', '`insufficient_scope`, `scope_escalation_blocked`, or `tls_required` (plain HTTP from a non-loopback client).'],
  404: ['NotFound', '`not_found`.'],
  409: ['Conflict', '`conflict`, `unmanaged_resource` (adopt first) or `idempotency_key_conflict`.'],
  412: ['PreconditionFailed', '`precondition_failed`: stale If-Match, matching If-None-Match, or a failed JSON Patch `test`; nothing was changed.'],
  422: ['ValidationFailed', '`validation_failed`: every field error at once in `errors`.'],
  423: ['Locked', '`locked`: another write holds the lock; retry after `Retry-After` seconds.'],
  429: ['TooManyRequests', '`too_many_requests`: the token\'s rate limit; retry after `Retry-After` seconds.'],
  500: ['InternalError', '`internal_error`, or `reload_failed_restored` / `reload_failed_unrecovered` with `reload_error` (and `restore_error`).'],
  503: ['ServiceUnavailable', '`service_unavailable`, or `init_script_missing` naming the absent init script.'],
};
export const READ_ERRORS = [400, 401, 403, 404, 429, 500, 503];
export const WRITE_ERRORS = [...READ_ERRORS, 409, 412, 422, 423].sort((a, b) => a - b);

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
export const headers = (...names: string[]) => Object.fromEntries(['X-Request-Id', ...names].map((name) => [name, ref('headers', name.replace(/-/g, ''))]));
export const RELOAD_HEADERS = ['X-Reload-Status', 'X-Reload-Services', 'X-Kernel-Status', 'X-Kernel-Applied'];

export type Operation = Record<string, unknown>;

export function operation(summary: string, tag: string, statuses: number[], responses: Record<string, unknown>, fields: Operation = {}): Operation {
  const { parameters = [], ...rest } = fields as { parameters?: unknown[] };
  const errors = Object.fromEntries(statuses.map((status) => [String(status), ref('responses', ERROR_RESPONSES[status][0])]));
  return {
    summary,
    tags: [tag],
    ...rest,
    parameters: [...(parameters as unknown[]), ref('parameters', 'RequestIdHeader'), ref('parameters', 'RequestIdQuery')],
    responses: { ...responses, ...errors },
  };
}

export const CONDITIONAL_GET = [ref('parameters', 'IfNoneMatchHeader'), ref('parameters', 'IfNoneMatchQuery')];
export const CONDITIONAL_WRITE = [ref('parameters', 'IfMatchHeader'), ref('parameters', 'IfMatchQuery'), ...CONDITIONAL_GET];
export const IDEMPOTENT = [ref('parameters', 'IdempotencyKeyHeader'), ref('parameters', 'IdempotencyKeyQuery')];

export const HEADER_DEFINITIONS: Record<string, [string, JsonSchema]> = {
  'X-Request-Id': ['The client-supplied request id, or a generated ULID.', { type: 'string' }],
  ETag: ['Quoted hash of the resource without `runtime`.', { type: 'string' }],
  'X-Reload-Status': ['`ok`: every reload exited 0 (no convergence promise).', { type: 'string', enum: ['ok', 'no_reload'] }],
  'X-Reload-Services': ['Comma-separated init scripts that were reloaded.', { type: 'string' }],
  'X-Kernel-Status': ['Direct kernel apply: `ok`, `partial`, `skipped` or `no_kernel`.', { type: 'string', enum: ['ok', 'partial', 'skipped', 'no_kernel'] }],
  'X-Kernel-Applied': ['Comma-separated interfaces the kernel apply reached.', { type: 'string' }],
  Link: ['`<?cursor=c_<id>&limit=N>; rel="next"` when more items exist.', { type: 'string' }],
  'X-Next-Cursor': ['`c_<id>`: the cursor of the next page, when more items exist.', { type: 'string' }],
  'Idempotent-Replayed': ['`true` when the answer was served from the idempotency cache.', { type: 'string', enum: ['true'] }],
  'Retry-After': ['Seconds to wait before retrying.', { type: 'integer' }],
  'WWW-Authenticate': ['`Bearer realm="wrtapi", error="<code>"`.', { type: 'string' }],
};

export function queryAndHeader(name: string, header: string, query: string, description: string): Properties {
  return {
    [`${name}Header`]: { name: header, in: 'header', required: false, schema: { type: 'string' }, description },
    [`${name}Query`]: { name: query, in: 'query', required: false, schema: { type: 'string' }, description: `The \`${header}\` header, for clients whose header the web server strips.` },
  };
}
