// The part of the OpenAPI document that no resource gives: the operations, tokens and /schema
// paths, the error, header and parameter components and the fixed schemas (openapi-schemas.ts),
// written once by the build as JSON.
import type { FixedDocument } from '../../src/openapi/document.js';
import type { Properties } from '../../src/openapi/objects.js';
import { ERROR_RESPONSE_NAMES, headers, IDEMPOTENT, json, operation, READ_ERRORS, ref, WRITE_ERRORS, type Operation } from '../../src/openapi/operations.js';
import type { JsonSchema } from '../../src/resources/model.js';
import { HEADER } from './inventory.js';
import { FIXED_SCHEMAS } from './openapi-schemas.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: '`bad_request`: malformed JSON or wrong shape; `invalid_cursor`.',
  401: '`unauthorized`: no or malformed Authorization header; `invalid_token`: unknown, expired, or source address not allowed.',
  403: '`insufficient_scope`, `scope_escalation_blocked`, or `tls_required` (plain HTTP from a non-loopback client).',
  404: '`not_found`.',
  409: '`conflict`, `unmanaged_resource` (adopt first) or `idempotency_key_conflict`.',
  412: '`precondition_failed`: stale If-Match, matching If-None-Match, or a failed JSON Patch `test`; nothing was changed.',
  422: '`validation_failed`: every field error at once in `errors`.',
  423: '`locked`: another write holds the lock; retry after `Retry-After` seconds.',
  429: '`too_many_requests`: the token\'s rate limit; retry after `Retry-After` seconds.',
  500: '`internal_error`, or `reload_failed_restored` / `reload_failed_unrecovered` with `reload_error` (and `restore_error`).',
  503: '`service_unavailable`, or `init_script_missing` naming the absent init script.',
};
const HEADER_DEFINITIONS: Record<string, [string, JsonSchema]> = {
  'X-Request-Id': ['The client-supplied request id, or a generated ULID.', { type: 'string' }],
  ETag: ['Quoted hash of the resource without `runtime`.', { type: 'string' }],
  'X-Reload-Status': ['`ok`: every reload exited 0 (no convergence promise).', { type: 'string', enum: ['ok', 'no_reload'] }],
  'X-Reload-Services': ['Comma-separated init scripts that were reloaded.', { type: 'string' }],
  'X-Kernel-Status': ['Direct kernel apply: `ok`, `partial`, `skipped` or `no_kernel`.', { type: 'string', enum: ['ok', 'partial', 'skipped', 'no_kernel'] }],
  'X-Kernel-Applied': ['Comma-separated interfaces the kernel apply reached.', { type: 'string' }],
  'X-Mgmt-Path-Warning': [
    'Advisory, the write was done: it touched the interface or device the request came through. `interface=<id> changed=<fields>` (among disabled, proto, ipaddrs, netmask, or `removed`), or `device=<name> changed=created|updated|removed`.',
    { type: 'string' },
  ],
  Link: ['`<?cursor=c_<id>&limit=N>; rel="next"` when more items exist.', { type: 'string' }],
  'X-Next-Cursor': ['`c_<id>`: the cursor of the next page, when more items exist.', { type: 'string' }],
  'X-Skipped-Lines': [
    'On a read-only view: the malformed lines of its file the read skipped, `0` when none. On system/authorized_keys: the lines dropbear takes no key from, comments and blank lines aside.',
    { type: 'integer', minimum: 0 },
  ],
  'Idempotent-Replayed': ['`true` when the answer was served from the idempotency cache.', { type: 'string', enum: ['true'] }],
  'Retry-After': ['Seconds to wait before retrying.', { type: 'integer' }],
  'WWW-Authenticate': ['`Bearer realm="wrtapi", error="<code>"`.', { type: 'string' }],
};

/**
 * A header and its query form. uhttpd hands a CGI program a fixed list of headers, and these four
 * are not on it: on a router only the query form arrives.
 */
function queryAndHeader(name: string, header: string, query: string, description: string, schema: JsonSchema): Properties {
  return {
    [`${name}Header`]: {
      name: header,
      in: 'header',
      required: false,
      schema,
      description: `${description} uhttpd never passes this header to the program: on a router send \`${query}\` instead.`,
    },
    [`${name}Query`]: {
      name: query,
      in: 'query',
      required: false,
      schema,
      description: `The \`${header}\` header, for clients whose header the web server strips: on a router, the only form that reaches the program.`,
    },
  };
}

const ETAG = '(W/)?"[0-9a-f]{16}"';
/** `*`, or a comma-separated list of ETags. */
const CONDITION = { type: 'string', pattern: `^(\\*|${ETAG}( *, *${ETAG})*)$` };
function fixedPaths(): Record<string, Operation> {
  const open = { security: [] };
  const token = ref('schemas', 'Token');
  return {
    '/healthz': {
      get: operation('Health of the subsystems; `version` is the version-skew probe', 'operations', [403], {
        200: { description: 'Every check is ok or unknown.', headers: headers(), content: json(ref('schemas', 'Health')) },
        503: { description: 'A subsystem is degraded.', headers: headers(), content: json(ref('schemas', 'Health')) },
      }, { operationId: 'getHealth', ...open }),
    },
    '/auth/whoami': {
      get: operation('The calling token', 'tokens', READ_ERRORS, { 200: { description: 'The token as the server sees it.', headers: headers(), content: json(ref('schemas', 'Whoami')) } }, { operationId: 'whoami' }),
    },
    '/metrics': {
      get: operation('Counters and histograms in text exposition format 0.0.4', 'operations', READ_ERRORS, {
        200: { description: 'The metrics.', headers: headers(), content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
      }, { operationId: 'getMetrics' }),
    },
    '/diagnostics': {
      get: operation('Version, uptime, lock files, recent errors and the management path; `validate=1` adds the sweep', 'operations', READ_ERRORS, {
        200: { description: 'The diagnostics; the sweep members only with `validate=1`.', headers: headers(), content: json(ref('schemas', 'Diagnostics')) },
      }, {
        operationId: 'getDiagnostics',
        parameters: [{ name: 'validate', in: 'query', required: false, schema: { type: 'string', enum: ['0', '1'], default: '0' }, description: '`1` runs every readable section through the write validation.' }],
      }),
    },
    '/tokens': {
      get: operation('List tokens', 'tokens', READ_ERRORS, { 200: { description: 'Every token.', headers: headers(), content: json({ type: 'array', items: token }) } }, { operationId: 'listTokens' }),
      post: operation('Mint a token whose scopes are a strict subset of the caller\'s', 'tokens', WRITE_ERRORS, {
        201: { description: 'The cleartext bearer, shown this once.', headers: headers('Idempotent-Replayed'), content: json(ref('schemas', 'TokenCreated')) },
      }, { operationId: 'createToken', parameters: IDEMPOTENT, requestBody: { required: true, content: json(ref('schemas', 'TokenRequest')) } }),
    },
    '/tokens/{name}': {
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      get: operation('Read a token', 'tokens', READ_ERRORS, { 200: { description: 'The token.', headers: headers(), content: json(token) } }, { operationId: 'getToken' }),
      delete: operation('Revoke a token', 'tokens', WRITE_ERRORS, { 204: { description: 'Revoked: no body.', headers: headers() } }, { operationId: 'deleteToken' }),
    },
    '/system/password': {
      post: operation('Set a user\'s password', 'system', WRITE_ERRORS, { 204: { description: 'Set: no body, no reload headers.', headers: headers() } }, {
        operationId: 'setPassword',
        description:
          'Runs the router\'s passwd with the password on its stdin; the password is never returned, logged or put in an argv. ' +
          'Refused with 422 unless `user` is a user of /etc/passwd (`not_in_enum`) and the password is at most 4094 bytes of UTF-8. ' +
          'Takes the global lock exclusively: 423 while a configuration write runs.',
        requestBody: { required: true, content: json(ref('schemas', 'PasswordRequest')) },
      }),
    },
    '/openapi.json': {
      get: operation('This document', 'operations', [403, 500], { 200: { description: 'The OpenAPI 3.1 document.', headers: headers(), content: json({ type: 'object' }) } }, {
        operationId: 'getOpenapi',
        ...open,
      }),
    },
    '/schema': {
      get: operation('The schema keys', 'operations', [403, 500], {
        200: { description: 'Every `<package>/<resource>` key.', headers: headers(), content: json(ref('schemas', 'SchemaIndex')) },
      }, { operationId: 'listSchemas', ...open }),
    },
    '/schema/{package}/{resource}': {
      parameters: ['package', 'resource'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      get: operation('One resource\'s declared properties as one set', 'operations', [403, 404, 500], {
        200: { description: 'The properties.', headers: headers(), content: json(ref('schemas', 'ResourceSchema')) },
      }, { operationId: 'getSchema', ...open }),
    },
  };
}

/** The document without its resources, which `src/openapi/document.ts` adds at request time. */
function fixedDocument(version: string): FixedDocument {
  const errorResponse = (status: number) => {
    const retry = status === 423 || status === 429 ? ['Retry-After'] : status === 401 ? ['WWW-Authenticate'] : [];
    return { description: ERROR_DESCRIPTIONS[status], headers: headers(...retry), content: json(ref('schemas', 'Error')) };
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'wrtapi',
      version,
      description: 'REST API for OpenWrt routers: UCI configuration and ubus state over HTTPS.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/api/v3' }],
    security: [{ bearer: [] }],
    paths: fixedPaths(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A token minted with wrtapi-token or POST /tokens.' } },
      parameters: {
        Id: { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_]+$' }, description: 'The section name; a read-only view\'s item id.' },
        Managed: { name: 'managed', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] }, description: 'Only managed, or only unmanaged, sections.' },
        Cursor: {
          name: 'cursor',
          in: 'query',
          required: false,
          schema: { type: 'string', pattern: '^c_[A-Za-z0-9_]+$' },
          description: '`X-Next-Cursor` of the previous page; one that names no current item answers 400 `invalid_cursor`.',
        },
        Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 }, description: 'Page size.' },
        ...queryAndHeader('IfMatch', 'If-Match', 'if_match', 'The current ETag, or `*`; otherwise 412.', CONDITION),
        ...queryAndHeader('IfNoneMatch', 'If-None-Match', 'if_none_match', 'On GET a matching ETag gives 304; on a write, 412.', CONDITION),
        ...queryAndHeader(
          'IdempotencyKey',
          'Idempotency-Key',
          'idempotency_key',
          'Replays the stored answer for 24 hours; the same key with another body gives 409.',
          { type: 'string', minLength: 1 },
        ),
        ...queryAndHeader('RequestId', 'X-Request-Id', 'request_id', 'A client-chosen request id, `^[A-Za-z0-9_-]{8,128}$`; any other value is replaced by a generated one.', {
          type: 'string',
          pattern: '^[A-Za-z0-9_-]{8,128}$',
        }),
      },
      headers: Object.fromEntries(
        Object.entries(HEADER_DEFINITIONS).map(([name, [description, schema]]) => [name.replace(/-/g, ''), { description, schema }]),
      ),
      responses: Object.fromEntries(Object.entries(ERROR_RESPONSE_NAMES).map(([status, name]) => [name, errorResponse(Number(status))])),
      schemas: FIXED_SCHEMAS,
    },
  };
}

// JSON text, as the mappings are: /openapi.json parses it rather than compiling an object literal.
export function fixedModule(version: string): string {
  return `${HEADER}import type { FixedDocument } from '../openapi/document.js';\n\nexport const FIXED: FixedDocument = JSON.parse(${JSON.stringify(JSON.stringify(fixedDocument(version)))});\n`;
}
