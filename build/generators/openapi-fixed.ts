// The OpenAPI paths and schemas that no resource definition gives: operations, tokens, /schema.
import type { Properties } from './inventory.js';
import { READ_NULLABLE } from './members.js';
import { ERROR_CODES, FIELD_ERROR_CODES, IDEMPOTENT, json, headers, operation, READ_ERRORS, ref, SWEEP_ERROR_CODES, WRITE_ERRORS, type Operation } from './openapi-common.js';

export function fixedPaths(): Record<string, Operation> {
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

export const FIXED_SCHEMAS: Properties = {
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
