// What the OpenAPI document and the /schema answers say of a resource's members: the framework
// members, read-only and write-only marks, and the patterns put back.
import type { DocField, DocGroup, JsonSchema, ResourceDoc, When } from '../resources/model.js';
import type { Properties } from './objects.js';
import type { Say } from './prose.js';

// Not resources/model's isGroup: importing it would split the module every read loads into two chunks.
const isGroup = (member: DocField | DocGroup): member is DocGroup => 'fields' in member;

export const READ_NULLABLE = 'x-uapi-read-nullable';

// A read returns what is stored, which only writes are held to: patterns, lengths and ranges
// describe requests, not responses.
const WRITE_CONSTRAINTS = ['pattern', 'not', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'];

export function readable(schema: JsonSchema): JsonSchema {
  const result: JsonSchema = {};
  for (const key in schema) {
    const value = schema[key];
    if (WRITE_CONSTRAINTS.includes(key)) continue;
    if (key === 'items') result[key] = readable(value as JsonSchema);
    else if (key === 'anyOf') result[key] = (value as JsonSchema[]).map(readable);
    else result[key] = value;
  }
  return result;
}

/** The members every resource has besides its fields. */
export function framework(kind: ResourceDoc['kind'], ids: string[] | undefined, say: Say): Properties {
  const properties: Properties = {};
  if (kind === 'collection') {
    properties.id = { type: 'string', pattern: '^[A-Za-z0-9_]+$', maxLength: 32, not: { pattern: '^cfg[0-9a-f]{6,}$' }, description: say('sectionId') };
    if (ids) properties.id = { type: 'string', enum: ids, description: say('fixedIds', ids.map((id) => `\`${id}\``).join(', ')) };
  }
  if (kind === 'view') {
    properties.id = { type: 'string', pattern: '^[A-Za-z0-9_]+$', readOnly: true, description: say('viewId') };
    return properties;
  }
  properties.managed = { type: 'boolean', readOnly: true, description: say('managed') };
  properties.runtime = { type: ['object', 'null'], readOnly: true, description: say('runtime') };
  return properties;
}

export const presenceFlag = (name: string, say: Say): JsonSchema => ({ type: 'boolean', readOnly: true, description: say('presence', name) });

/** What a `when` adds to a member's description. */
export const onlyWhile = ({ field, values }: When, always?: boolean) =>
  ` Only while \`${field}\` is ${values.join(' or ')}: ${always ? 'otherwise it reads []' : 'a read carries it then only'}.`;

/** A field as declared: its schema, description, and write-only or read-only mark. */
export function declared(field: DocField): JsonSchema {
  const description = ((field.description ?? '') + (field.when ? onlyWhile(field.when, field.always) : '')).trimStart();
  return {
    ...field.schema,
    ...(description ? { description } : {}),
    ...(field.secret ? { writeOnly: true } : {}),
    ...(field.readOnly ? { readOnly: true } : {}),
  };
}

function fieldProperties(properties: Properties, name: string, field: DocField, say: Say): void {
  properties[name] = field.nullable ? { ...declared(field), [READ_NULLABLE]: true } : declared(field);
  if (field.secret) properties[`has_${name}`] = presenceFlag(name, say);
}

/** `/schema/<key>`'s `schema_properties`: every property of both directions as one set. */
export function schemaProperties(doc: ResourceDoc, say: Say): Properties {
  const properties = framework(doc.kind, doc.ids, say);
  for (const [name, member] of Object.entries(doc.members)) {
    if (!isGroup(member)) {
      fieldProperties(properties, name, member, say);
      continue;
    }
    const inner: Properties = {};
    for (const [field, value] of Object.entries(member.fields)) fieldProperties(inner, field, value, say);
    properties[name] = { type: 'object', ...(member.description ? { description: member.description } : {}), properties: inner };
  }
  return properties;
}

/** A generated doc as the document shows it: each pattern, kept once, put back by its index. */
export function withPatterns<T>(value: T, pattern: (index: number) => string): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withPatterns(item, pattern)) as T;
  const result: Record<string, unknown> = {};
  for (const key in value) result[key] = key === 'pattern' ? pattern(value[key] as number) : withPatterns(value[key], pattern);
  return result as T;
}
