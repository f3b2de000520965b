// The operations of the OpenAPI document: the shape every one shares, and those of a resource.
import type { JsonSchema, ResourceDoc } from '../resources/model.js';
import type { Say } from './prose.js';

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
/** The commit-confirm window a configuration write armed or joined. */
export const CONFIRM_HEADERS = ['X-Confirm-Id', 'X-Confirm-Deadline'];
/** A configuration write's: its reloads and kernel apply, and its window. */
export const WRITE_HEADERS = ['X-Reload-Status', 'X-Reload-Services', 'X-Kernel-Status', 'X-Kernel-Applied', ...CONFIRM_HEADERS];

export function operation(summary: string | undefined, tag: string, statuses: number[], responses: Record<string, unknown>, fields: Operation = {}): Operation {
  const { parameters = [], ...rest } = fields as { parameters?: unknown[] };
  const errors = Object.fromEntries(statuses.map((status) => [String(status), ref('responses', ERROR_RESPONSE_NAMES[status])]));
  // The fixed document names a response's headers (see build/generators/openapi-fixed.ts).
  for (const response of Object.values(responses) as { headers?: unknown }[]) {
    if (Array.isArray(response.headers)) response.headers = Object.fromEntries(response.headers.map((name: string) => [name, ref('headers', name.replace(/-/g, ''))]));
  }
  return {
    // The fixed part without wrtapi-doc holds '' for a summary.
    summary: summary || undefined,
    tags: [tag],
    ...rest,
    parameters: [...(parameters as unknown[]), ref('parameters', 'RequestIdHeader'), ref('parameters', 'RequestIdQuery')],
    responses: { ...responses, ...errors },
  };
}

const CONDITIONAL_GET = [ref('parameters', 'IfNoneMatchHeader'), ref('parameters', 'IfNoneMatchQuery')];
const CONDITIONAL_WRITE = [ref('parameters', 'IfMatchHeader'), ref('parameters', 'IfMatchQuery'), ...CONDITIONAL_GET];
export const IDEMPOTENT = [ref('parameters', 'IdempotencyKeyHeader'), ref('parameters', 'IdempotencyKeyQuery')];
/** What every configuration write takes beside its own parameters: a dry run, and commit-confirm's arm or join. */
export const CONFIGURATION_WRITE = ['DryRun', 'ConfirmWithin', 'ConfirmId'].map((name) => ref('parameters', name));
/** The 200 of a write's dry run, where the write itself answers another status. */
export const DRY_RUN_ANSWER = ref('responses', 'DryRun');
/** A write's 200 body: the resource, or with `dry_run=true` what the write would do. */
export const orDryRun = (schema: JsonSchema) => json({ anyOf: [schema, ref('schemas', 'DryRun')] });

/** The paths of one resource: its collection, item and adopt operations, or a singleton's. */
export function resourcePaths(definition: ResourceDoc, title: string, say: Say): Record<string, Operation> {
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
  const writeHeaders = definition.mgmtPath ? [...WRITE_HEADERS, 'X-Mgmt-Path-Warning'] : WRITE_HEADERS;
  // A response's description is required: '' without wrtapi-doc.
  const written = { description: say('written') ?? '', headers: headers('ETag', ...writeHeaders, 'X-Dry-Run'), content: orDryRun(ref('schemas', title)) };
  const read = { description: say('readOne') ?? '', headers: headers('ETag'), content: body };
  const notModified = { description: say('notModified') ?? '', headers: headers('ETag') };
  const put = { required: true, content: json(ref('schemas', `${title}Request`)) };
  const patch = {
    required: true,
    content: {
      'application/json': { schema: ref('schemas', `${title}Patch`) },
      'application/json-patch+json': { schema: ref('schemas', 'JsonPatch') },
    },
  };
  const item = {
    get: operation(say('read', definition.path), tag, READ_ERRORS, { 200: read, 304: notModified }, { parameters: CONDITIONAL_GET }),
    put: operation(say('replace', definition.path), tag, WRITE_ERRORS, { 200: written }, {
      ...described(checks, referenced),
      parameters: [...CONDITIONAL_WRITE, ...CONFIGURATION_WRITE],
      requestBody: put,
    }),
    patch: operation(say('update', definition.path), tag, WRITE_ERRORS, { 200: written }, {
      ...described(
        say('patchBodies') ?? '',
        checks,
        referenced,
      ),
      parameters: [...CONDITIONAL_WRITE, ...CONFIGURATION_WRITE],
      requestBody: patch,
    }),
  };
  const name = (verb: string) => ({ operationId: `${verb}${title}` });
  if (definition.kind === 'view') return viewPaths(definition, title, tag, say);
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
      get: operation(say('list', definition.path), tag, READ_ERRORS, {
        200: { description: say('page') ?? '', headers: headers('Link', 'X-Next-Cursor'), content: json({ type: 'array', items: ref('schemas', title) }) },
      }, { ...name('list'), description: say('paged'), parameters: [ref('parameters', 'Managed'), ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
      post: operation(say('create', definition.path), tag, WRITE_ERRORS, { 200: created }, {
        ...name('create'),
        ...described(checks),
        parameters: [...IDEMPOTENT, ...CONFIGURATION_WRITE],
        requestBody: { required: true, content: json(ref('schemas', `${title}Request`)) },
      }),
    },
    [`${path}/{id}`]: {
      parameters: idParameter,
      get: { ...name('get'), ...item.get },
      put: { ...name('replace'), ...item.put },
      patch: { ...name('update'), ...item.patch },
      delete: operation(say('delete', definition.path), tag, WRITE_ERRORS, {
        200: DRY_RUN_ANSWER,
        204: { description: say('deleted') ?? '', headers: headers(...writeHeaders) },
      }, {
        ...name('delete'),
        ...described(referenced, kept),
        parameters: [...CONDITIONAL_WRITE, ...CONFIGURATION_WRITE],
      }),
    },
    [`${path}/{id}/adopt`]: {
      parameters: idParameter,
      post: operation(say('adopt', definition.path), tag, WRITE_ERRORS, { 200: created }, {
        ...name('adopt'),
        parameters: [...IDEMPOTENT, ...CONFIGURATION_WRITE],
      }),
    },
  };
}

/** A read-only view's paths: GET of the collection and of an item; other verbs answer 405 with `Allow: GET`. */
function viewPaths(definition: ResourceDoc, title: string, tag: string, say: Say): Record<string, Operation> {
  const path = `/${definition.path}`;
  const paged = [say('viewOnly'), say('paged')].filter(Boolean).join(' ') || undefined;
  return {
    [path]: {
      description: definition.description,
      get: operation(say('list', definition.path), tag, READ_ERRORS, {
        200: { description: say('viewPage') ?? '', headers: headers('Link', 'X-Next-Cursor', 'X-Skipped-Lines'), content: json({ type: 'array', items: ref('schemas', title) }) },
      }, { operationId: `list${title}`, description: paged, parameters: [ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
    },
    [`${path}/{id}`]: {
      parameters: [ref('parameters', 'Id')],
      get: operation(say('read', definition.path), tag, READ_ERRORS, {
        200: { description: say('viewItem') ?? '', headers: headers('X-Skipped-Lines'), content: json(ref('schemas', title)) },
      }, { operationId: `get${title}`, description: say('viewOnly') }),
    },
  };
}
