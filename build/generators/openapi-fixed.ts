// The part of the OpenAPI document that no resource gives: the operations, tokens, /packages
// (openapi-packages.ts) and /schema paths, the error, header and parameter components and the fixed
// schemas (openapi-schemas.ts), written once by the build as JSON.
import type { FixedDocument } from '../../src/openapi/document.js';
import type { Properties } from '../../src/openapi/objects.js';
import { CONFIGURATION_WRITE, CONFIRM_HEADERS, DRY_RUN_ANSWER, ERROR_RESPONSE_NAMES, headers, IDEMPOTENT, json, orDryRun, READ_ERRORS, ref, WRITE_ERRORS, WRITE_HEADERS, type Operation } from '../../src/openapi/operations.js';
import type { JsonSchema } from '../../src/resources/model.js';
import { TEXT_PATTERN } from '../../src/http/text.js';
import { deferred, named } from './deferred.js';
import { HEADER } from './inventory.js';
import { TEXT } from './openapi-text.js';
import { PACKAGE_SCHEMAS, packagePaths } from './openapi-packages.js';
import { FIXED_SCHEMAS } from './openapi-schemas.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: '`bad_request`: malformed JSON or wrong shape; `invalid_cursor`.',
  401: '`unauthorized`: no or malformed Authorization header; `invalid_token`: unknown, expired, or source address not allowed.',
  403: '`insufficient_scope`, `scope_escalation_blocked`, or `tls_required` (plain HTTP from a non-loopback client).',
  404: '`not_found`.',
  409: '`conflict`, `unmanaged_resource` (adopt first) or `idempotency_key_conflict`.',
  412: '`precondition_failed`: stale If-Match, matching If-None-Match, or a failed JSON Patch `test`; nothing was changed.',
  422: '`validation_failed`: every field error at once in `errors`.',
  423:
    '`locked`: another write holds the lock; retry after `Retry-After` seconds. Or a change armed with `confirm_within` awaits confirmation, ' +
    'named by `confirm_id` and `expires_at`: until it is confirmed or rolled back, a configuration write passes only when it joins it with `confirm_id`.',
  429: '`too_many_requests`: the token\'s rate limit; retry after `Retry-After` seconds.',
  500: '`internal_error`, or `reload_failed_restored` / `reload_failed_unrecovered` with `reload_error` (and `restore_error`).',
  503: '`service_unavailable`, or `init_script_missing` naming the absent init script.',
};
/** A commit-confirm change's id: a ULID. */
const CONFIRM_ID = { type: 'string', pattern: '^[0-9A-HJKMNP-TV-Z]{26}$' };
/** A commit-confirm window's length (config/armed.ts's WINDOW, held to it by test/api/openapi-confirm.test.ts). */
const WINDOW_SECONDS = { type: 'integer', minimum: 10, maximum: 3600 };
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
    'On a read-only view: the malformed lines of its file the read skipped, `0` when none. A read parses the file only as far as its answer needs. ' +
      'On system/authorized_keys: the lines dropbear takes no key from, comments and blank lines aside.',
    { type: 'integer', minimum: 0 },
  ],
  'Idempotent-Replayed': ['`true` when the answer was served from the idempotency cache.', { type: 'string', enum: ['true'] }],
  'X-Dry-Run': ['`true` on a dry run\'s answer.', { type: 'string', enum: ['true'] }],
  'X-Confirm-Id': ['The change the write armed (`confirm_within`) or joined (`confirm_id`), awaiting confirmation at /confirm/{id}.', CONFIRM_ID],
  'X-Confirm-Deadline': ['When the change is rolled back unless confirmed: RFC 3339, UTC, to the second.', { type: 'string', format: 'date-time' }],
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
/** A confirmation, extension or rollback takes the global lock exclusively: 423 while a write holds it. */
const CONFIRM_ERRORS = [...READ_ERRORS, 423];
/** `*`, or a comma-separated list of ETags. */
const CONDITION = { type: 'string', pattern: `^(\\*|${ETAG}( *, *${ETAG})*)$` };
function fixedPaths(): Record<string, Operation> {
  const open = { security: [] };
  const token = ref('schemas', 'Token');
  return {
    '/healthz': {
      get: deferred('Health of the subsystems; `version` is the version-skew probe', 'operations', [403], {
        200: { description: 'Every check is ok or unknown.', headers: named(), content: json(ref('schemas', 'Health')) },
        503: { description: 'A subsystem is degraded.', headers: named(), content: json(ref('schemas', 'Health')) },
      }, { operationId: 'getHealth', ...open }),
    },
    '/auth/whoami': {
      get: deferred('The calling token', 'tokens', READ_ERRORS, { 200: { description: 'The token as the server sees it.', headers: named(), content: json(ref('schemas', 'Whoami')) } }, { operationId: 'whoami' }),
    },
    '/metrics': {
      get: deferred('Counters and histograms in text exposition format 0.0.4', 'operations', READ_ERRORS, {
        200: { description: 'The metrics.', headers: named(), content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
      }, { operationId: 'getMetrics' }),
    },
    '/diagnostics': {
      get: deferred('Version, uptime, lock files, recent errors and the management path; `validate=1` adds the sweep', 'operations', READ_ERRORS, {
        200: { description: 'The diagnostics; the sweep members only with `validate=1`.', headers: named(), content: json(ref('schemas', 'Diagnostics')) },
      }, {
        operationId: 'getDiagnostics',
        parameters: [{ name: 'validate', in: 'query', required: false, schema: { type: 'string', enum: ['0', '1'], default: '0' }, description: '`1` runs every readable section through the write validation.' }],
      }),
    },
    '/tokens': {
      get: deferred('List tokens', 'tokens', READ_ERRORS, { 200: { description: 'Every token.', headers: named(), content: json({ type: 'array', items: token }) } }, { operationId: 'listTokens' }),
      post: deferred('Mint a token whose scopes are a strict subset of the caller\'s', 'tokens', WRITE_ERRORS, {
        201: { description: 'The cleartext bearer, shown this once.', headers: named('Idempotent-Replayed'), content: json(ref('schemas', 'TokenCreated')) },
      }, {
        operationId: 'createToken',
        // Here, where a client (and the generated-requests test) reads what a 422 may cite.
        description: 'Refused with 403 `scope_escalation_blocked` unless the scopes, each and together, grant strictly less than the caller\'s; 422 on `scopes` (the item) when a bare domain outside the scope tree names no configuration package of the router.',
        parameters: IDEMPOTENT,
        requestBody: { required: true, content: json(ref('schemas', 'TokenRequest')) },
      }),
    },
    '/tokens/{name}': {
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      get: deferred('Read a token', 'tokens', READ_ERRORS, { 200: { description: 'The token.', headers: named(), content: json(token) } }, { operationId: 'getToken' }),
      delete: deferred('Revoke a token', 'tokens', WRITE_ERRORS, { 204: { description: 'Revoked: no body.', headers: named() } }, {
        operationId: 'deleteToken',
        description: 'Refused with 403 `insufficient_scope` when the token permits anything the caller\'s scopes do not: a token operator cannot revoke a broader token.',
      }),
    },
    '/batch': {
      post: deferred('Run up to 50 operations on curated and raw paths as one transaction', 'operations', WRITE_ERRORS, {
        200: DRY_RUN_ANSWER,
        207: {
          description: 'Every operation succeeded: its `{status, body}` in order. The reload and kernel headers, once for the whole batch, only when it wrote.',
          headers: named(...WRITE_HEADERS, 'Idempotent-Replayed'),
          content: json(ref('schemas', 'BatchResults')),
        },
      }, {
        operationId: 'batch',
        description:
          'Each operation is checked against the token\'s scopes on its own and sees the changes of those before it; all packages are locked, staged and ' +
          'committed together, then each service reloads once. Any failure leaves every file as it was and answers the failing operation\'s status with ' +
          '`batch_partial_failure`: `aborted_at_index`, its own envelope in `error`, `reverted`. A batch is refused with 422 on `operations` (1 to 50), ' +
          '`operations[i].method`, `operations[i].path` (a curated or raw path, no query) and `operations[i].if_match`, before anything runs. Reads answer the staged configuration, without `runtime`.',
        parameters: [...IDEMPOTENT, ...CONFIGURATION_WRITE],
        requestBody: { required: true, content: json(ref('schemas', 'BatchRequest')) },
      }),
    },
    '/confirm/{id}': {
      description:
        'A change armed by a configuration write with `confirm_within`, which is rolled back at its deadline unless confirmed. Any token may ask, and each verb needs ' +
        'the write scope of every package the change touched as a bare domain (`firewall:rw`, `*:rw`): 403 `insufficient_scope` otherwise. 404 `not_found` once ' +
        'the change was confirmed or rolled back. Each verb restarts the helper that keeps the deadline when it was killed, and a deadline already passed is then kept at once.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: CONFIRM_ID, description: 'The write\'s `X-Confirm-Id`.' }],
      get: deferred('Read the change awaiting confirmation', 'confirm', READ_ERRORS, {
        200: { description: 'The change.', headers: named(), content: json(ref('schemas', 'ArmedChange')) },
      }, { operationId: 'getConfirm' }),
      post: deferred('Confirm the change, or with `extend` renew its window', 'confirm', [...CONFIRM_ERRORS, 409], {
        200: { description: 'With `extend`: the change, its deadline renewed.', headers: named(), content: json(ref('schemas', 'ArmedChange')) },
        204: { description: 'Confirmed: the change stays; no body.', headers: named() },
      }, {
        operationId: 'confirmChange',
        parameters: [
          ...IDEMPOTENT,
          { name: 'extend', in: 'query', required: false, schema: WINDOW_SECONDS, description: 'Seconds from now to the new deadline, 10 to 3600 (another value is 400); the change stays armed.' },
        ],
      }),
      delete: deferred('Roll the change back now', 'confirm', CONFIRM_ERRORS, {
        204: { description: 'Rolled back: the packages as they were before the change, its services reloaded; no body.', headers: named() },
      }, {
        operationId: 'rollBackChange',
        description: 'A failed reload answers 500 `reload_failed_restored` with `reload_error`: the files are restored all the same.',
      }),
    },
    '/system/password': {
      post: deferred('Set a user\'s password', 'system', WRITE_ERRORS, { 204: { description: 'Set: no body, no reload headers.', headers: named() } }, {
        operationId: 'setPassword',
        parameters: IDEMPOTENT,
        description:
          'Runs the router\'s passwd with the password on its stdin; the password is never returned, logged or put in an argv. ' +
          'Refused with 422 unless `user` is a user of /etc/passwd (`not_in_enum`) and the password is at most 4094 bytes of UTF-8. ' +
          'Takes the global lock exclusively: 423 while a configuration write runs.',
        requestBody: { required: true, content: json(ref('schemas', 'PasswordRequest')) },
      }),
    },
    // What holds for every operation of a raw path is said once, on the path (OpenAPI's Path Item description).
    '/raw/{package}': {
      description: RAW_PATH,
      parameters: [RAW_PACKAGE],
      get: deferred('The sections of a configuration package the token may read', 'raw', READ_ERRORS, {
        200: { description: 'Sections in file order, a page at a time.', headers: named('Link', 'X-Next-Cursor'), content: json({ type: 'array', items: ref('schemas', 'RawSection') }) },
      }, { operationId: 'listRaw', description: TEXT.paged, parameters: [ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
      post: deferred('Create a section', 'raw', WRITE_ERRORS, { 200: rawWritten }, {
        operationId: 'createRaw',
        parameters: [...IDEMPOTENT, ...CONFIGURATION_WRITE],
        requestBody: { required: true, content: json(ref('schemas', 'RawRequest')) },
      }),
    },
    '/raw/{package}/{id}': {
      description: RAW_PATH,
      parameters: [RAW_PACKAGE, ref('parameters', 'Id')],
      get: deferred('Read a section', 'raw', READ_ERRORS, {
        200: { description: 'The section.', headers: named(), content: json(ref('schemas', 'RawSection')) },
      }, { operationId: 'getRaw' }),
      put: deferred('Replace a section\'s options', 'raw', WRITE_ERRORS, { 200: rawWritten }, {
        operationId: 'replaceRaw',
        description: 'Options the body omits are removed, but for redacted ones, which are kept.',
        parameters: CONFIGURATION_WRITE,
        requestBody: { required: true, content: json(ref('schemas', 'RawRequest')) },
      }),
      patch: deferred('Merge-patch a section\'s options (null removes one), or apply a JSON Patch to its read', 'raw', WRITE_ERRORS, { 200: rawWritten }, {
        operationId: 'patchRaw',
        description: 'A JSON Patch whose path names nothing answers 422 `conflict`; a failed `test` 412.',
        parameters: CONFIGURATION_WRITE,
        requestBody: { required: true, content: { ...json(ref('schemas', 'RawRequest')), 'application/json-patch+json': { schema: ref('schemas', 'JsonPatch') } } },
      }),
      delete: deferred('Remove a section', 'raw', WRITE_ERRORS, { 200: DRY_RUN_ANSWER, 204: { description: 'Removed: no body, no reload headers.', headers: named(...CONFIRM_HEADERS) } }, {
        operationId: 'deleteRaw',
        parameters: CONFIGURATION_WRITE,
        description: `Refused with 409 \`conflict\` when a curated resource still names the section, or its resource may not lose it (uhttpd's instance \`main\`).`,
      }),
    },
    ...packagePaths(),
    '/openapi.json': {
      get: deferred('This document', 'operations', [403, 500], { 200: { description: 'The OpenAPI 3.1 document; gzipped (`Content-Encoding: gzip`) when the request\'s `Accept-Encoding` admits gzip.', headers: named(), content: json({ type: 'object' }) } }, {
        operationId: 'getOpenapi',
        ...open,
      }),
    },
    '/schema': {
      get: deferred('The schema keys', 'operations', [403, 500], {
        200: { description: 'Every `<package>/<resource>` key.', headers: named(), content: json(ref('schemas', 'SchemaIndex')) },
      }, { operationId: 'listSchemas', ...open }),
    },
    '/schema/{package}/{resource}': {
      parameters: ['package', 'resource'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      get: deferred('One resource\'s declared properties as one set', 'operations', [403, 404, 500], {
        200: { description: 'The properties.', headers: named(), content: json(ref('schemas', 'ResourceSchema')) },
      }, { operationId: 'getSchema', ...open }),
    },
  };
}

const RAW_PACKAGE = { name: 'package', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' }, description: 'A package with a file in /etc/config.' };
const RAW_ACCESS =
  'Needs the raw scope of the package (`raw:<package>`) and the curated scope of the section\'s type (a firewall rule needs `firewall:rules`; a type no resource serves, the domain of the package\'s resources; a package no resource serves, its own name: `luci:ro`, covered by `*:ro`); a write needs `rw` of both. A package\'s section list without its package scope is 403. ' +
  'The service\'s own package is read-only here (405), and its tokens need `wrtapi:tokens:rw` even to read. ' +
  'Raw passthrough carries no ETag: an `If-Match` other than `*` answers 412.';
const RAW_WRITE =
  'One transaction, as a curated write: the package\'s services are reloaded (those of its curated resources, else its own init script if it has one) and a failed reload restores the file; no reload headers. ' +
  'Refused with 422 on `type` (required on create; must not change), `anonymous` (must not change), `id` or an option name or value the schemas refuse, and 409 `conflict` when a curated resource would name a section that is gone. ' +
  'A section of uhttpd\'s instances is held to that resource\'s self-lockout rules too: a write that would stop instance `main` serving this API is 422 `conflict` on the option. ' +
  'A read\'s redacted options are kept when the body omits them; naming one sets it.';
const RAW_PATH = `${RAW_ACCESS} A write (POST, PUT, PATCH): ${RAW_WRITE}`;
const rawWritten = { description: 'The section as written.', headers: named('X-Dry-Run', ...CONFIRM_HEADERS), content: orDryRun(ref('schemas', 'RawSection')) };

/** The document without its resources, which `src/openapi/document.ts` adds at request time. */
export function fixedDocument(version: string): FixedDocument {
  const errorResponse = (status: number) => {
    const retry = status === 423 || status === 429 ? ['Retry-After'] : status === 401 ? ['WWW-Authenticate'] : [];
    return { description: ERROR_DESCRIPTIONS[status], headers: headers(...retry), content: json(ref('schemas', 'Error')) };
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'wrtapi',
      version,
      description:
        'REST API for OpenWrt routers: UCI configuration and ubus state over HTTPS. ' +
        'A resource\'s read can be sent back as a write: besides the request schema\'s members, a write tolerates `managed` and `runtime` (ignored), ' +
        'and the read-only fields and `has_<secret>` flags when they hold what a read gives, before the write or after it (another value is 422 `read_only`). ' +
        'No string may hold a control character but tab, LF and CR, nor an unpaired surrogate: every pattern says so (422 `invalid_format` in a body, 400 in a path or query).',
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
        DryRun: {
          name: 'dry_run',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['true', 'false'] },
          description: '`true`: the write is checked as it would be, changes nothing, and answers 200 with what it would do; a refusal is its own. Another value is 400.',
        },
        ConfirmWithin: {
          name: 'confirm_within',
          in: 'query',
          required: false,
          schema: WINDOW_SECONDS,
          description:
            'Seconds, 10 to 3600 (another value is 400): the write commits and reloads as usual and arms a rollback to the state before it, kept unless ' +
            '`POST /confirm/{id}` confirms it by the deadline; `X-Confirm-Id` and `X-Confirm-Deadline` name it. Needs the write scope (`<package>:rw`) of ' +
            'every package the write changes. Until the change is confirmed or rolled back, every other configuration write is 423 `locked`, a second arm included.',
        },
        ConfirmId: {
          name: 'confirm_id',
          in: 'query',
          required: false,
          schema: CONFIRM_ID,
          description:
            'The armed change\'s `X-Confirm-Id`: the write joins its window instead of answering 423, each package it changes kept as it was before its first ' +
            'change, so the change is confirmed or rolled back as one. Needs the write scope of every package the change touched. 409 `conflict` when no ' +
            'change awaits confirmation as that id; 400 beside `confirm_within`.',
        },
        ...queryAndHeader('IfMatch', 'If-Match', 'if_match', 'The current ETag, or `*`; otherwise 412.', CONDITION),
        ...queryAndHeader('IfNoneMatch', 'If-None-Match', 'if_none_match', 'On GET a matching ETag gives 304; on a write, 412.', CONDITION),
        ...queryAndHeader(
          'IdempotencyKey',
          'Idempotency-Key',
          'idempotency_key',
          'Replays the stored answer of a success for 24 hours (a failure changed nothing: its retry runs again); the same key with another body gives 409.',
          { type: 'string', minLength: 1, pattern: TEXT_PATTERN },
        ),
        ...queryAndHeader(
          'RequestId',
          'X-Request-Id',
          'request_id',
          'A client-chosen request id, used when it matches `^[A-Za-z0-9_-]{8,128}$`: any other value, an empty one included, is ignored, and the answer carries a generated ULID instead.',
          { type: 'string', pattern: TEXT_PATTERN },
        ),
      },
      headers: Object.fromEntries(
        Object.entries(HEADER_DEFINITIONS).map(([name, [description, schema]]) => [name.replace(/-/g, ''), { description, schema }]),
      ),
      responses: {
        ...Object.fromEntries(Object.entries(ERROR_RESPONSE_NAMES).map(([status, name]) => [name, errorResponse(Number(status))])),
        DryRun: { description: 'With `dry_run=true`: what the write would do.', headers: headers('X-Dry-Run'), content: json(ref('schemas', 'DryRun')) },
      },
      schemas: { ...FIXED_SCHEMAS, ...PACKAGE_SCHEMAS },
    },
  };
}

// JSON text, as the mappings are: /openapi.json parses it rather than compiling an object literal.
// Without its prose, which wrtapi-doc holds (build/generators/prose.ts).
export function fixedModule(fixed: FixedDocument): string {
  return `${HEADER}import type { FixedDocument } from '../openapi/document.js';\n\nexport const FIXED: FixedDocument = JSON.parse(${JSON.stringify(JSON.stringify(fixed))});\n`;
}
