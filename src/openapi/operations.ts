// The operations of the OpenAPI document: the shape every one shares, and those of a resource.
import type { JsonSchema, ResourceDoc } from '../resources/model.js';

export type Operation = Record<string, unknown>;

/** The component names of the error responses, by status. */
export const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  412: 'PreconditionFailed',
  422: 'ValidationFailed',
  423: 'Locked',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};
export const READ_ERRORS = [400, 401, 403, 404, 429, 500, 503];
export const WRITE_ERRORS = [...READ_ERRORS, 409, 412, 422, 423].sort((a, b) => a - b);

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
export const headers = (...names: string[]) => Object.fromEntries(['X-Request-Id', ...names].map((name) => [name, ref('headers', name.replace(/-/g, ''))]));
const RELOAD_HEADERS = ['X-Reload-Status', 'X-Reload-Services', 'X-Kernel-Status', 'X-Kernel-Applied'];

export function operation(summary: string, tag: string, statuses: number[], responses: Record<string, unknown>, fields: Operation = {}): Operation {
  const { parameters = [], ...rest } = fields as { parameters?: unknown[] };
  const errors = Object.fromEntries(statuses.map((status) => [String(status), ref('responses', ERROR_RESPONSE_NAMES[status])]));
  // The fixed document names a response's headers (see build/generators/openapi-fixed.ts).
  for (const response of Object.values(responses) as { headers?: unknown }[]) {
    if (Array.isArray(response.headers)) response.headers = Object.fromEntries(response.headers.map((name: string) => [name, ref('headers', name.replace(/-/g, ''))]));
  }
  return {
    summary,
    tags: [tag],
    ...rest,
    parameters: [...(parameters as unknown[]), ref('parameters', 'RequestIdHeader'), ref('parameters', 'RequestIdQuery')],
    responses: { ...responses, ...errors },
  };
}

const CONDITIONAL_GET = [ref('parameters', 'IfNoneMatchHeader'), ref('parameters', 'IfNoneMatchQuery')];
const CONDITIONAL_WRITE = [ref('parameters', 'IfMatchHeader'), ref('parameters', 'IfMatchQuery'), ...CONDITIONAL_GET];
export const IDEMPOTENT = [ref('parameters', 'IdempotencyKeyHeader'), ref('parameters', 'IdempotencyKeyQuery')];
export const DRY_RUN = ref('parameters', 'DryRun');
/** The 200 of a write's dry run, where the write itself answers another status. */
export const DRY_RUN_ANSWER = ref('responses', 'DryRun');
/** A write's 200 body: the resource, or with `dry_run=true` what the write would do. */
export const orDryRun = (schema: JsonSchema) => json({ anyOf: [schema, ref('schemas', 'DryRun')] });

/** The paths of one resource: its collection, item and adopt operations, or a singleton's. */
export function resourcePaths(definition: ResourceDoc, title: string): Record<string, Operation> {
  const path = `/${definition.path}`;
  const checks = definition.checks.length
    ? 'Beyond the schema, the written resource is refused with 422 (`conflict`, `required` or `invalid_format` on the field named) unless:\n' +
      definition.checks.map((check) => `- ${check}`).join('\n')
    : '';
  const referenced = definition.referencedBy.length ? `Refused with 409 \`conflict\` when it would leave a name in ${definition.referencedBy.join(', ')} naming nothing.` : '';
  const kept = Object.entries(definition.undeletable ?? {}).map(([id, why]) => `Refused with 409 \`conflict\` for \`${id}\`: ${why}.`).join(' ');
  const described = (...parts: string[]) => (parts.some(Boolean) ? { description: parts.filter(Boolean).join('\n\n') } : {});
  const tag = definition.path.split('/')[0];
  const body = json(ref('schemas', title));
  const writeHeaders = definition.mgmtPath ? [...RELOAD_HEADERS, 'X-Mgmt-Path-Warning'] : RELOAD_HEADERS;
  const written = { description: 'The resource as written.', headers: headers('ETag', ...writeHeaders, 'X-Dry-Run'), content: orDryRun(ref('schemas', title)) };
  const read = { description: 'The resource.', headers: headers('ETag'), content: body };
  const notModified = { description: 'If-None-Match matched: no body.', headers: headers('ETag') };
  const put = { required: true, content: json(ref('schemas', `${title}Request`)) };
  const patch = {
    required: true,
    content: {
      'application/json': { schema: ref('schemas', `${title}Patch`) },
      'application/json-patch+json': { schema: ref('schemas', 'JsonPatch') },
    },
  };
  const item = {
    get: operation(`Read ${definition.path}`, tag, READ_ERRORS, { 200: read, 304: notModified }, { parameters: CONDITIONAL_GET }),
    put: operation(`Replace ${definition.path}`, tag, WRITE_ERRORS, { 200: written }, {
      ...described(checks, referenced),
      parameters: [...CONDITIONAL_WRITE, DRY_RUN],
      requestBody: put,
    }),
    patch: operation(`Update ${definition.path}: RFC 7396 merge patch, or RFC 6902 JSON Patch`, tag, WRITE_ERRORS, { 200: written }, {
      ...described(
        'A merge patch is checked against the Patch schema. A JSON Patch is applied to the resource as read, and the result is checked ' +
          'against the Request schema; an operation whose `path` or `from` names nothing answers 422 `conflict` on it, a failed `test` 412.',
        checks,
        referenced,
      ),
      parameters: [...CONDITIONAL_WRITE, DRY_RUN],
      requestBody: patch,
    }),
  };
  const name = (verb: string) => ({ operationId: `${verb}${title}` });
  if (definition.kind === 'view') return viewPaths(definition, title, tag);
  if (definition.kind === 'singleton') {
    return {
      [path]: {
        description: definition.description,
        get: { ...name('get'), ...item.get },
        put: { ...name('replace'), ...item.put },
        patch: { ...name('update'), ...item.patch },
      },
    };
  }
  const idParameter = [ref('parameters', 'Id')];
  const created = { ...written, headers: headers('ETag', ...writeHeaders, 'Idempotent-Replayed') };
  return {
    [path]: {
      description: definition.description,
      get: operation(`List ${definition.path}`, tag, READ_ERRORS, {
        200: { description: 'A page of the collection.', headers: headers('Link', 'X-Next-Cursor'), content: json({ type: 'array', items: ref('schemas', title) }) },
      }, { ...name('list'), description: PAGED, parameters: [ref('parameters', 'Managed'), ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
      post: operation(`Create in ${definition.path}`, tag, WRITE_ERRORS, { 200: created }, {
        ...name('create'),
        ...described(checks),
        parameters: [...IDEMPOTENT, DRY_RUN],
        requestBody: { required: true, content: json(ref('schemas', `${title}Request`)) },
      }),
    },
    [`${path}/{id}`]: {
      parameters: idParameter,
      get: { ...name('get'), ...item.get },
      put: { ...name('replace'), ...item.put },
      patch: { ...name('update'), ...item.patch },
      delete: operation(`Delete from ${definition.path}`, tag, WRITE_ERRORS, {
        200: DRY_RUN_ANSWER,
        204: { description: 'Deleted: no body.', headers: headers(...writeHeaders) },
      }, {
        ...name('delete'),
        ...described(referenced, kept),
        parameters: [...CONDITIONAL_WRITE, DRY_RUN],
      }),
    },
    [`${path}/{id}/adopt`]: {
      parameters: idParameter,
      post: operation(`Adopt an anonymous section of ${definition.path}: it gets a generated id and becomes managed`, tag, WRITE_ERRORS, { 200: created }, {
        ...name('adopt'),
        parameters: [...IDEMPOTENT, DRY_RUN],
      }),
    },
  };
}

/** What a list refuses although the schema of its parameters holds: a cursor from a page that is gone. */
export const PAGED = 'A `cursor` that names no current item answers 400 `invalid_cursor`.';

/** A read-only view's paths: GET of the collection and of an item; other verbs answer 405 with `Allow: GET`. */
function viewPaths(definition: ResourceDoc, title: string, tag: string): Record<string, Operation> {
  const path = `/${definition.path}`;
  const readOnly = 'Read-only: any other verb answers 405 `method_not_allowed` with `Allow: GET`. `X-Skipped-Lines` counts the malformed lines of the file the read skipped, which reads only as far as its answer needs.';
  return {
    [path]: {
      description: definition.description,
      get: operation(`List ${definition.path}`, tag, READ_ERRORS, {
        200: { description: 'A page of the items.', headers: headers('Link', 'X-Next-Cursor', 'X-Skipped-Lines'), content: json({ type: 'array', items: ref('schemas', title) }) },
      }, { operationId: `list${title}`, description: `${readOnly} ${PAGED}`, parameters: [ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
    },
    [`${path}/{id}`]: {
      parameters: [ref('parameters', 'Id')],
      get: operation(`Read ${definition.path}`, tag, READ_ERRORS, {
        200: { description: 'The item.', headers: headers('X-Skipped-Lines'), content: json(ref('schemas', title)) },
      }, { operationId: `get${title}`, description: readOnly }),
    },
  };
}
