// The OpenAPI 3.1 document: per resource its request, merge-patch and response schemas and its
// paths, then the fixed paths and components.
import type { Field, JsonSchema, ResourceDefinition } from '../../src/resources/model.js';
import type { Properties, Resource } from './inventory.js';
import { alwaysRead, fieldProperties, framework, holdsRequired, presenceFlag, readable, readsNull, resourceObject, withNull, withoutMarker } from './members.js';
import { CONDITIONAL_GET, CONDITIONAL_WRITE, ERROR_RESPONSES, HEADER_DEFINITIONS, headers, IDEMPOTENT, json, operation, queryAndHeader, READ_ERRORS, ref, RELOAD_HEADERS, WRITE_ERRORS, type Operation } from './openapi-common.js';
import { FIXED_SCHEMAS, fixedPaths } from './openapi-fixed.js';

type Half = 'request' | 'patch' | 'response';

/** One object level of an OpenAPI half: the request, merge-patch or response view of `fields`. */
function halfObject(fields: Record<string, Field>, half: Half, extra: Properties = {}): JsonSchema {
  const properties: Properties = { ...extra };
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const declared = withoutMarker(fieldProperties({ [name]: field })[name]);
    if (half === 'response') {
      if (field.secret) {
        properties[`has_${name}`] = presenceFlag(name);
        required.push(`has_${name}`);
        continue;
      }
      properties[name] = readsNull(field) ? withNull(readable(declared)) : readable(declared);
      if (alwaysRead(field)) required.push(name);
    } else {
      // null clears a field, so a required one never takes it: not on create, nor in a patch.
      properties[name] = field.required ? declared : withNull(declared);
      if (half === 'request' && field.required) required.push(name);
    }
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

export function halfSchema(definition: ResourceDefinition, half: Half): JsonSchema {
  const frameworkProperties = framework(definition);
  const extra: Properties = half === 'response' ? frameworkProperties : frameworkProperties.id ? { id: frameworkProperties.id } : {};
  const schema = resourceObject(definition, (fields, members) => halfObject(fields, half, members), extra, (object, member) => {
    const nullable = half !== 'response' && !holdsRequired(member);
    return {
      schema: { ...(nullable ? withNull(object) : object), ...(member.description ? { description: member.description } : {}) },
      required: half === 'response' || (half === 'request' && holdsRequired(member)),
    };
  });
  const required = [...(half === 'response' ? ['id', 'managed'].filter((name) => name in frameworkProperties) : []), ...((schema.required as string[] | undefined) ?? [])];
  const { required: _unused, ...rest } = schema;
  return { ...rest, description: definition.description, ...(required.length ? { required } : {}) };
}

function resourcePaths(resource: Resource): Record<string, Operation> {
  const { definition, title } = resource;
  const path = `/${definition.path}`;
  const tag = definition.path.split('/')[0];
  const body = json(ref('schemas', title));
  const written = { description: 'The resource as written.', headers: headers('ETag', ...RELOAD_HEADERS), content: body };
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
    put: operation(`Replace ${definition.path}`, tag, WRITE_ERRORS, { 200: written }, { parameters: CONDITIONAL_WRITE, requestBody: put }),
    patch: operation(`Update ${definition.path}: RFC 7396 merge patch, or RFC 6902 JSON Patch`, tag, WRITE_ERRORS, { 200: written }, {
      parameters: CONDITIONAL_WRITE,
      requestBody: patch,
    }),
  };
  const name = (verb: string) => ({ operationId: `${verb}${title}` });
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
  const created = { ...written, headers: headers('ETag', ...RELOAD_HEADERS, 'Idempotent-Replayed') };
  return {
    [path]: {
      description: definition.description,
      get: operation(`List ${definition.path}`, tag, READ_ERRORS, {
        200: { description: 'A page of the collection.', headers: headers('Link', 'X-Next-Cursor'), content: json({ type: 'array', items: ref('schemas', title) }) },
      }, { ...name('list'), parameters: [ref('parameters', 'Managed'), ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
      post: operation(`Create in ${definition.path}`, tag, WRITE_ERRORS, { 200: created }, {
        ...name('create'),
        parameters: IDEMPOTENT,
        requestBody: { required: true, content: json(ref('schemas', `${title}Request`)) },
      }),
    },
    [`${path}/{id}`]: {
      parameters: idParameter,
      get: { ...name('get'), ...item.get },
      put: { ...name('replace'), ...item.put },
      patch: { ...name('update'), ...item.patch },
      delete: operation(`Delete from ${definition.path}`, tag, WRITE_ERRORS, {
        204: { description: 'Deleted: no body.', headers: headers(...RELOAD_HEADERS) },
      }, { ...name('delete'), parameters: CONDITIONAL_WRITE }),
    },
    [`${path}/{id}/adopt`]: {
      parameters: idParameter,
      post: operation(`Adopt an anonymous section of ${definition.path}: it gets a generated id and becomes managed`, tag, WRITE_ERRORS, { 200: created }, {
        ...name('adopt'),
        parameters: IDEMPOTENT,
      }),
    },
  };
}

export function openapiDocument(resources: Resource[], version: string): JsonSchema {
  const schemas: Properties = {};
  let paths: Record<string, Operation> = {};
  for (const resource of resources) {
    const { definition, title } = resource;
    schemas[`${title}Request`] = halfSchema(definition, 'request');
    schemas[`${title}Patch`] = halfSchema(definition, 'patch');
    schemas[title] = halfSchema(definition, 'response');
    paths = { ...paths, ...resourcePaths(resource) };
  }
  const errorResponse = (status: number) => {
    const retry = status === 423 || status === 429 ? ['Retry-After'] : status === 401 ? ['WWW-Authenticate'] : [];
    return { description: ERROR_RESPONSES[status][1], headers: headers(...retry), content: json(ref('schemas', 'Error')) };
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
    paths: { ...paths, ...fixedPaths() },
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
      responses: Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, [name]]) => [name, errorResponse(Number(status))])),
      schemas: { ...schemas, ...FIXED_SCHEMAS },
    },
  };
}
