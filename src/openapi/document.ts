// The OpenAPI 3.1 document, assembled at request time: per resource its request, merge-patch and
// response schemas and its paths from the generated docs, then the fixed paths and components the
// build wrote as JSON.
import type { DocField, JsonSchema, ResourceDoc } from '../resources/model.js';
import { authorizedKeysDocument } from './authorized-keys-paths.js';
import { declared, framework, onlyWhile, presenceFlag, readable } from './members.js';
import { holdsRequired, resourceObject, withNull, type Properties } from './objects.js';
import { operation, resourcePaths, type Operation } from './operations.js';
import type { Say } from './prose.js';

/**
 * The document without its resources: what `build/generators/openapi-fixed.ts` writes. A path's
 * operation is kept as the arguments of `operation()`, expanded by `openapiDocument`.
 */
export interface FixedDocument {
  paths: Record<string, Operation>;
  components: { schemas: Properties } & Record<string, unknown>;
  [member: string]: unknown;
}

const silent: Say = () => undefined;

/** PascalCase of a resource's path, the stem of its component names. */
export const titleOf = (path: string) => path.split(/[/_-]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('');

type Half = 'request' | 'patch' | 'response';

/** One object level of an OpenAPI half: the request, merge-patch or response view of `fields`. */
function halfObject(fields: Record<string, DocField>, half: Half, say: Say, extra: Properties = {}): JsonSchema {
  const properties: Properties = { ...extra };
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const schema = declared(field);
    if (half === 'response') {
      if (field.secret) {
        properties[`has_${name}`] = presenceFlag(name, say);
        if (!field.when) required.push(`has_${name}`);
        continue;
      }
      properties[name] = field.nullable ? withNull(readable(schema)) : readable(schema);
      if (field.always) required.push(name);
    } else if (!field.readOnly) {
      // null clears a field, so a required one never takes it: not on create, nor in a patch.
      properties[name] = field.required ? schema : withNull(schema);
      if (half === 'request' && field.required) required.push(name);
    }
  }
  // A request member the schema does not name is refused (`unknown_field`); a response may grow.
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...(half === 'response' ? {} : { additionalProperties: false }) };
}

export function halfSchema(definition: ResourceDoc, half: Half, say: Say = silent): JsonSchema {
  const frameworkProperties = framework(definition.kind, definition.ids, say);
  const { id, ...rest } = frameworkProperties;
  const extra: Properties = half === 'response' ? { ...(id ? { id: readable(id) } : {}), ...rest } : id ? { id } : {};
  const schema = resourceObject(definition, (fields, members) => halfObject(fields, half, say, members), extra, (object, member) => {
    const nullable = half !== 'response' && !holdsRequired(member);
    const description = ((member.description ?? '') + (member.when ? onlyWhile(member.when) : '')).trimStart();
    return {
      schema: { ...(nullable ? withNull(object) : object), ...(description ? { description } : {}) },
      required: (half === 'response' && !member.when) || (half === 'request' && holdsRequired(member)),
    };
  });
  const framed = half === 'response' ? ['id', 'managed'].filter((name) => name in frameworkProperties) : [];
  const required = [...framed, ...((schema.required as string[] | undefined) ?? [])];
  const { required: _unused, ...members } = schema;
  return { ...members, description: definition.description, ...(required.length ? { required } : {}) };
}

/** What a request requires beyond its patch, in the order halfSchema lists them: the required top-level fields, the groups holding one. */
export function requestRequired(doc: ResourceDoc): string[] {
  const names: string[] = [];
  const groups: string[] = [];
  for (const [name, member] of Object.entries(doc.members)) {
    if ('fields' in member) {
      if (holdsRequired(member)) groups.push(name);
    } else if (member.required && !member.readOnly) names.push(name);
  }
  return [...names, ...groups];
}

export function openapiDocument(docs: ResourceDoc[], fixed: FixedDocument, say: Say = silent): JsonSchema {
  const schemas: Properties = {};
  const paths: Record<string, Operation> = {};
  for (const doc of docs) {
    const title = titleOf(doc.path);
    // A view takes no body: it has a response schema only. A request holds the patch's fields and
    // requires some: stated once, as the patch and a reference to it (test/unit/openapi-document.test.ts
    // holds the two halves to differing in `required` only), a third of the document less.
    if (doc.kind !== 'view') {
      const required = requestRequired(doc);
      schemas[`${title}Request`] = { $ref: `#/components/schemas/${title}Patch`, ...(required.length ? { required } : {}) };
      schemas[`${title}Patch`] = halfSchema(doc, 'patch', say);
    }
    schemas[title] = halfSchema(doc, 'response', say);
    Object.assign(paths, resourcePaths(doc, title, say));
  }
  for (const [template, item] of Object.entries(fixed.paths)) {
    paths[template] = Object.fromEntries(
      Object.entries(item).map(([key, value]) => [key, key !== 'parameters' && Array.isArray(value) ? operation(...(value as Parameters<typeof operation>)) : value]),
    );
  }
  // The one resource that is no UCI definition: its handler and its paths are its own.
  const keys = authorizedKeysDocument(say);
  return { ...fixed, paths: { ...paths, ...keys.paths }, components: { ...fixed.components, schemas: { ...schemas, ...keys.schemas, ...fixed.components.schemas } } };
}
