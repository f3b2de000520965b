// The schemas of the OpenAPI document that no resource gives: the error envelope, JSON Patch, and
// the answers and requests of the operations and token endpoints.
import type { ErrorCode, FieldErrorCode, SweepErrorCode } from '../../src/http/errors.js';
import { TEXT_PATTERN } from '../../src/http/text.js';
import { SCOPE_TREE } from '../../src/auth/scope-tree.js';
import { READ_NULLABLE } from '../../src/openapi/members.js';
import type { Properties } from '../../src/openapi/objects.js';
import { ref } from '../../src/openapi/operations.js';
import { CIDR } from '../../src/resources/addresses.js';

// Keyed by the error-code unions so that the compiler rejects a code missing or unknown here.
const ERROR_CODES = Object.keys({
  bad_request: true, invalid_cursor: true, unauthorized: true, invalid_token: true, insufficient_scope: true,
  scope_escalation_blocked: true, tls_required: true, not_found: true, method_not_allowed: true, conflict: true,
  unmanaged_resource: true, idempotency_key_conflict: true, precondition_failed: true, unsupported_media_type: true,
  validation_failed: true, locked: true, too_many_requests: true, internal_error: true, reload_failed_restored: true,
  reload_failed_unrecovered: true, service_unavailable: true, init_script_missing: true, batch_partial_failure: true,
} satisfies Record<ErrorCode, true>);
const FIELD_ERROR_CODES = Object.keys({
  required: true, invalid_type: true, invalid_format: true, out_of_range: true, not_in_enum: true, conflict: true,
  read_only: true, unknown_field: true,
} satisfies Record<FieldErrorCode, true>);
const SWEEP_ERROR_CODES = Object.keys({ unreadable: true, sweep_failed: true } satisfies Record<SweepErrorCode, true>);

/** A JSON Pointer (RFC 6901). */
const POINTER = { type: 'string', pattern: '^(/([^~/]|~[01])*)*$' };

/**
 * `<domain>[:<subresource>]:(rw|ro)` of the scope tree, `*` for any segment, `raw:<package>`, or the
 * bare name of a configuration package outside the tree.
 */
function scopePattern(): string {
  const subresources = [...new Set([...SCOPE_TREE.values()].flat())];
  const domains = [...SCOPE_TREE].map(([domain, subs]) => `${domain}(:(\\*|${subs.join('|')}))?`);
  return `^(\\*(:(\\*|${subresources.join('|')}))?|raw(:(\\*|[A-Za-z0-9_-]+))?|${domains.join('|')}|[A-Za-z0-9_-]+):(rw|ro)$`;
}

const RAW_VALUE = { type: 'string', pattern: TEXT_PATTERN };

/** A time as the lease views and uapi's Terraform provider give it: integer epoch seconds, or null. */
const epoch = { type: ['integer', 'null'], description: 'Epoch seconds.' };

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
      aborted_at_index: { type: 'integer', minimum: 0, description: 'Only with `batch_partial_failure`: the operation the batch failed at.' },
      error: { $ref: '#/components/schemas/Error', description: 'Only with `batch_partial_failure`: that operation\'s own envelope, its `request_id` `<request_id>.<index>`.' },
      reverted: { type: 'boolean', description: 'Only with `batch_partial_failure`: true, nothing the batch did stayed; false only when the restore after a failed reload failed too (`error.code` `reload_failed_unrecovered`).' },
      confirm_id: { type: 'string', description: 'Only on a 423 while a change awaits confirmation: its id, for /confirm/{id} or a write\'s `confirm_id`.' },
      expires_at: { type: 'string', format: 'date-time', description: 'With `confirm_id`: the change\'s deadline.' },
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
    description: 'RFC 6902 operations; a failed `test` gives 412. A `move` may not move a location into itself (400).',
    items: {
      oneOf: [
        {
          type: 'object',
          required: ['op', 'path', 'value'],
          properties: { op: { type: 'string', enum: ['add', 'replace', 'test'] }, path: POINTER, value: {} },
        },
        {
          type: 'object',
          required: ['op', 'path'],
          properties: { op: { type: 'string', enum: ['remove'] }, path: { ...POINTER, minLength: 1, description: 'Not the whole document.' } },
        },
        {
          type: 'object',
          required: ['op', 'path', 'from'],
          properties: { op: { type: 'string', enum: ['move', 'copy'] }, path: POINTER, from: POINTER },
        },
      ],
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
      expires_at: epoch,
      allowed_cidrs: { type: 'array', items: { type: 'string' } },
      last_used_at: epoch,
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
        description: 'Which locks a live process holds. A writer removes its lock files when it ends, so a file exists only while it is held, or after a killed writer until the next write clears it; such a leftover reads false.',
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
            ts: { type: 'integer', description: 'Epoch seconds.' },
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
      created_at: epoch,
      expires_at: epoch,
      allowed_cidrs: { type: 'array', items: { type: 'string' } },
      rate: { type: ['integer', 'null'] },
      burst: { type: ['integer', 'null'] },
      last_used_at: epoch,
      last_used_ip: { type: ['string', 'null'] },
    },
  },
  TokenRequest: {
    type: 'object',
    required: ['name', 'scopes'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' },
      scopes: { type: 'array', minItems: 1, items: { type: 'string', pattern: scopePattern() } },
      expires_in_seconds: { type: 'integer', minimum: 1 },
      allowed_cidrs: { type: 'array', items: { type: 'string', ...CIDR } },
      rate: { type: 'integer', minimum: 1, description: 'Requests per second.' },
      burst: { type: 'integer', minimum: 1, description: 'Bucket capacity.' },
    },
  },
  TokenCreated: {
    type: 'object',
    required: ['name', 'bearer'],
    properties: { name: { type: 'string' }, bearer: { type: ['string', 'null'], description: 'Null on an idempotent replay.' } },
  },
  PasswordRequest: {
    type: 'object',
    required: ['user', 'password'],
    additionalProperties: false,
    properties: {
      user: { type: 'string', description: 'A user of /etc/passwd, such as `root`.' },
      password: {
        type: 'string',
        writeOnly: true,
        pattern: '^[^\\u0000\\r\\n\\ud800-\\udfff]*$',
        // 4094 bytes is what passwd reads; 1364 characters fit in it whatever they are.
        maxLength: 1364,
        description: 'The new password: no NUL, CR or LF, nor an unpaired surrogate, at most 4094 bytes of UTF-8. Empty is allowed, as passwd allows it.',
      },
    },
  },
  BatchRequest: {
    type: 'object',
    required: ['operations'],
    additionalProperties: false,
    properties: {
      operations: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        items: {
          type: 'object',
          required: ['method', 'path'],
          additionalProperties: false,
          properties: {
            method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
            path: { type: 'string', pattern: '^(/[A-Za-z0-9_-]+)+$', description: 'Below the base URL, e.g. `/firewall/rules/r_1` or `/raw/network/lan`.' },
            body: { description: 'The request body; for PATCH an array is a JSON Patch, an object a merge patch.' },
            if_match: { type: 'string', pattern: TEXT_PATTERN, description: 'The operation\'s If-Match.' },
          },
        },
      },
    },
  },
  BatchResults: {
    type: 'object',
    required: ['results'],
    properties: {
      results: {
        type: 'array',
        items: { type: 'object', required: ['status', 'body'], properties: { status: { type: 'integer' }, body: { description: 'The answer\'s body; null for a 204.' } } },
      },
    },
  },
  DryRun: {
    type: 'object',
    required: ['dry_run', 'changes', 'reload'],
    properties: {
      dry_run: { type: 'boolean', enum: [true] },
      resource: { type: ['object', 'null'], description: 'What the write would answer; null for a DELETE.' },
      removed: { type: 'object', description: 'What a DELETE would remove.' },
      results: { $ref: '#/components/schemas/BatchResults/properties/results' },
      changes: { type: 'object', description: 'Per package, the lines `uci changes` would print; secrets redacted.', additionalProperties: { type: 'array', items: { type: 'string' } } },
      reload: { type: 'array', items: { type: 'string' }, description: 'The init scripts it would reload.' },
    },
  },
  ArmedChange: {
    type: 'object',
    required: ['id', 'token', 'armed_at', 'expires_at', 'packages', 'services'],
    properties: {
      id: { type: 'string' },
      token: { type: 'string', description: 'The token that armed it.' },
      armed_at: { type: 'string', format: 'date-time' },
      expires_at: { type: 'string', format: 'date-time', description: 'The deadline: unconfirmed by then, the change is rolled back.' },
      packages: { type: 'array', items: { type: 'string' }, description: 'The configuration packages the change\'s writes changed, which a rollback puts back as they were.' },
      services: { type: 'array', items: { type: 'string' }, description: 'The init scripts its writes reloaded, which a rollback reloads again.' },
    },
  },
  RawSection: {
    type: 'object',
    required: ['id', 'type', 'anonymous', 'options', 'redacted'],
    properties: {
      id: { type: 'string', description: 'The section name; libuci\'s `cfg<hex>` name for an anonymous section, which changes when a section before it is removed.' },
      type: { type: 'string' },
      anonymous: { type: 'boolean' },
      options: { $ref: '#/components/schemas/RawOptions' },
      redacted: { type: 'array', items: { type: 'string' }, description: 'Options held but never returned: token salts and hashes, and the secrets the curated resources mark.' },
    },
  },
  RawOptions: {
    type: 'object',
    description: 'Options by name, as libuci holds them: a list is an array of strings.',
    propertyNames: { pattern: '^[A-Za-z0-9_]+$' },
    additionalProperties: { oneOf: [RAW_VALUE, { type: 'array', items: RAW_VALUE }] },
  },
  RawRequest: {
    type: 'object',
    additionalProperties: false,
    description: 'A section to create (`type` required) or its new state. `id`, `anonymous` and `redacted` of a read are tolerated; `type` and `anonymous` must not change.',
    properties: {
      id: { type: 'string', pattern: '^(?!cfg[0-9a-f]{6})[A-Za-z0-9_]+$', description: 'On create: the section name; generated when absent.' },
      type: { type: 'string', pattern: '^[!$-&(-:<-\\[\\]-~]+$' },
      anonymous: { type: 'boolean' },
      options: { $ref: '#/components/schemas/RawOptions' },
      redacted: { type: 'array', items: { type: 'string' } },
    },
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
