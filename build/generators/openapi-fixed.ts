// The part of the OpenAPI document that no resource gives: the operations, tokens and /schema
// paths, the error, header and parameter components and the fixed schemas, written once by the
// build as JSON.
import type { ErrorCode, FieldErrorCode, SweepErrorCode } from '../../src/http/errors.js';
import type { FixedDocument } from '../../src/openapi/document.js';
import { READ_NULLABLE, type Properties } from '../../src/openapi/members.js';
import { ERROR_RESPONSE_NAMES, headers, IDEMPOTENT, json, operation, READ_ERRORS, ref, WRITE_ERRORS, type Operation } from '../../src/openapi/operations.js';
import type { JsonSchema } from '../../src/resources/model.js';
import { HEADER } from './inventory.js';

// Keyed by the error-code unions so that the compiler rejects a code missing or unknown here.
const ERROR_CODES = Object.keys({
  bad_request: true, invalid_cursor: true, unauthorized: true, invalid_token: true, insufficient_scope: true,
  scope_escalation_blocked: true, tls_required: true, not_found: true, method_not_allowed: true, conflict: true,
  unmanaged_resource: true, idempotency_key_conflict: true, precondition_failed: true, unsupported_media_type: true,
  validation_failed: true, locked: true, too_many_requests: true, internal_error: true, reload_failed_restored: true,
  reload_failed_unrecovered: true, service_unavailable: true, init_script_missing: true,
} satisfies Record<ErrorCode, true>);
const FIELD_ERROR_CODES = Object.keys({
  required: true, invalid_type: true, invalid_format: true, out_of_range: true, not_in_enum: true, conflict: true,
  read_only: true, unknown_field: true,
} satisfies Record<FieldErrorCode, true>);
const SWEEP_ERROR_CODES = Object.keys({ unreadable: true, sweep_failed: true } satisfies Record<SweepErrorCode, true>);

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
  Link: ['`<?cursor=c_<id>&limit=N>; rel="next"` when more items exist.', { type: 'string' }],
  'X-Next-Cursor': ['`c_<id>`: the cursor of the next page, when more items exist.', { type: 'string' }],
  'Idempotent-Replayed': ['`true` when the answer was served from the idempotency cache.', { type: 'string', enum: ['true'] }],
  'Retry-After': ['Seconds to wait before retrying.', { type: 'integer' }],
  'WWW-Authenticate': ['`Bearer realm="wrtapi", error="<code>"`.', { type: 'string' }],
};

function queryAndHeader(name: string, header: string, query: string, description: string): Properties {
  return {
    [`${name}Header`]: { name: header, in: 'header', required: false, schema: { type: 'string' }, description },
    [`${name}Query`]: { name: query, in: 'query', required: false, schema: { type: 'string' }, description: `The \`${header}\` header, for clients whose header the web server strips.` },
  };
}

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

const FIXED_SCHEMAS: Properties = {
  Error: {
    type: 'object',
    required: ['code', 'message', 'request_id'],
    properties: {
      code: { type: 'string', enum: ERROR_CODES },
      message: { type: 'string' },
      request_id: { type: 'string' },
      errors: { type: 'array', items: ref('schemas', 'FieldError'), description: 'Only on 422.' },
      reload_error: { type: 'string', description: 'On reload failures: the exit summary of the init script.' },
      restore_error: { type: 'string', description: 'Only with `reload_failed_unrecovered`.' },
    },
  },
  FieldError: {
    type: 'object',
    required: ['field', 'code', 'message'],
    properties: {
      field: { type: 'string', description: 'Dotted path with bracket indexes, e.g. `match.src_zone`, `dns[0]`.' },
      code: { type: 'string', enum: FIELD_ERROR_CODES },
      message: { type: 'string' },
    },
  },
  JsonPatch: {
    type: 'array',
    description: 'RFC 6902 operations; a failed `test` gives 412.',
    items: {
      type: 'object',
      required: ['op', 'path'],
      properties: {
        op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
        path: { type: 'string' },
        from: { type: 'string' },
        value: {},
      },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'version', 'checks'],
    properties: {
      status: { type: 'string', enum: ['ok', 'degraded'] },
      version: { type: 'string' },
      checks: {
        type: 'object',
        properties: Object.fromEntries(['ubus', 'uci', 'lock_dir', 'time_sync'].map((check) => [check, { type: 'string', enum: ['ok', 'degraded', 'unknown'] }])),
      },
      errors: { type: 'array', items: { type: 'string' } },
    },
  },
  Whoami: {
    type: 'object',
    properties: {
      token_id: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string' } },
      source_ip: { type: 'string' },
      expires_at: { type: ['string', 'null'], format: 'date-time' },
      allowed_cidrs: { type: 'array', items: { type: 'string' } },
      last_used_at: { type: ['string', 'null'], format: 'date-time' },
      last_used_ip: { type: ['string', 'null'] },
    },
  },
  Diagnostics: {
    type: 'object',
    required: ['version', 'uptime_seconds', 'resources_loaded', 'lock_state', 'recent_errors', 'management_path', 'request_id'],
    properties: {
      version: { type: 'string' },
      uptime_seconds: { type: 'integer' },
      resources_loaded: { type: 'array', items: { type: 'string' }, description: 'Scope-style names such as `firewall:rules`.' },
      lock_state: {
        type: 'object',
        description: 'Which lock files exist: a lock file lives while a writer holds it, or after a killed writer until the next write takes it over.',
        required: ['global_held', 'per_package'],
        properties: { global_held: { type: 'boolean' }, per_package: { type: 'object', additionalProperties: { type: 'boolean' } } },
      },
      recent_errors: {
        type: 'array',
        description: 'The last 20 error envelopes, oldest first.',
        items: {
          type: 'object',
          required: ['ts', 'request_id', 'code', 'status', 'method', 'path', 'message'],
          properties: {
            ts: { type: 'string', format: 'date-time' },
            request_id: { type: 'string' },
            code: { type: 'string', enum: ERROR_CODES },
            status: { type: 'integer' },
            method: { type: 'string' },
            path: { type: 'string' },
            message: { type: 'string' },
          },
        },
      },
      management_path: {
        type: 'object',
        description: 'The caller\'s address, and the device and interface a kernel route lookup of it leaves through.',
        required: ['address', 'device', 'interface'],
        properties: { address: { type: 'string' }, device: { type: ['string', 'null'] }, interface: { type: ['string', 'null'] } },
      },
      request_id: { type: 'string' },
      invalid_sections: {
        type: 'array',
        items: {
          type: 'object',
          required: ['resource', 'id', 'managed', 'errors'],
          properties: {
            resource: { type: 'string' },
            id: { type: ['string', 'null'], description: 'Null only when the resource\'s sweep failed as a whole.' },
            managed: { type: ['boolean', 'null'] },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['field', 'code', 'message'],
                properties: {
                  field: { type: 'string' },
                  code: { type: 'string', enum: [...FIELD_ERROR_CODES, ...SWEEP_ERROR_CODES] },
                  message: { type: 'string' },
                },
              },
            },
          },
        },
      },
      swept_resources: { type: 'array', items: { type: 'string' } },
      skipped_for_scope: { type: 'array', items: { type: 'string' } },
    },
  },
  Token: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string' } },
      created_at: { type: ['string', 'null'], format: 'date-time' },
      expires_at: { type: ['string', 'null'], format: 'date-time' },
      allowed_cidrs: { type: 'array', items: { type: 'string' } },
      rate: { type: ['integer', 'null'] },
      burst: { type: ['integer', 'null'] },
      last_used_at: { type: ['string', 'null'], format: 'date-time' },
      last_used_ip: { type: ['string', 'null'] },
    },
  },
  TokenRequest: {
    type: 'object',
    required: ['name', 'scopes'],
    properties: {
      name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' },
      scopes: { type: 'array', minItems: 1, items: { type: 'string' } },
      expires_in_seconds: { type: 'integer', minimum: 1 },
      allowed_cidrs: { type: 'array', items: { type: 'string' } },
      rate: { type: 'integer', minimum: 1, description: 'Requests per second.' },
      burst: { type: 'integer', minimum: 1, description: 'Bucket capacity.' },
    },
  },
  TokenCreated: {
    type: 'object',
    required: ['name', 'bearer'],
    properties: { name: { type: 'string' }, bearer: { type: ['string', 'null'], description: 'Null on an idempotent replay.' } },
  },
  SchemaIndex: {
    type: 'object',
    required: ['resources'],
    properties: { resources: { type: 'array', items: { type: 'string' } } },
  },
  ResourceSchema: {
    type: 'object',
    required: ['key', 'schema_properties'],
    properties: {
      key: { type: 'string' },
      schema_properties: {
        type: 'object',
        description: `JSON Schemas by property name. \`readOnly\` properties are absent from requests; \`${READ_NULLABLE}\` ones may read as null.`,
        additionalProperties: { type: 'object' },
      },
    },
  },
};

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
        Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The section name.' },
        Managed: { name: 'managed', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] }, description: 'Only managed, or only unmanaged, sections.' },
        Cursor: { name: 'cursor', in: 'query', required: false, schema: { type: 'string', pattern: '^c_' }, description: '`X-Next-Cursor` of the previous page.' },
        Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 }, description: 'Page size.' },
        ...queryAndHeader('IfMatch', 'If-Match', 'if_match', 'The current ETag, or `*`; otherwise 412.'),
        ...queryAndHeader('IfNoneMatch', 'If-None-Match', 'if_none_match', 'On GET a matching ETag gives 304; on a write, 412.'),
        ...queryAndHeader('IdempotencyKey', 'Idempotency-Key', 'idempotency_key', 'Replays the stored answer for 24 hours; the same key with another body gives 409.'),
        ...queryAndHeader('RequestId', 'X-Request-Id', 'request_id', 'A client-chosen request id, `^[A-Za-z0-9_-]{8,128}$`.'),
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
