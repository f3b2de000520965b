// The one walker over a definition's members that every generated schema is built with: a field's
// declared properties, what a read of it can hold, and how groups nest into an object schema.
import { readOption } from '../../src/resources/options.js';
import { isGroup, type Field, type Group, type JsonSchema, type ResourceDefinition } from '../../src/resources/model.js';
import type { Properties } from './inventory.js';

export const READ_NULLABLE = 'x-uapi-read-nullable';
// Values no codec can represent: a codec that reads either as null (a scalar codec reads a UCI list
// as null) answers null for values it cannot represent, so its field is read-nullable.
const UNREPRESENTABLE = '\u0000';
const UNREPRESENTABLE_LIST = ['\u0000', '\u0000'];

export const readsNull = (field: Field) => readOption(field.codec, UNREPRESENTABLE) === null || readOption(field.codec, UNREPRESENTABLE_LIST) === null;

// A read returns what is stored, which only writes are held to: patterns, lengths and ranges
// describe requests, not responses.
const WRITE_CONSTRAINTS = ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'];
export function readable(schema: JsonSchema): JsonSchema {
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (WRITE_CONSTRAINTS.includes(key)) continue;
    if (key === 'items') result[key] = readable(value as JsonSchema);
    else if (key === 'anyOf') result[key] = (value as JsonSchema[]).map(readable);
    else result[key] = value;
  }
  return result;
}
export const alwaysRead = (field: Field) => readOption(field.codec, undefined) !== undefined;

/** The schema with null allowed: added to its type and enum, or as one more `anyOf` branch. */
export function withNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.type === undefined) throw new Error(`cannot add null to a schema without type or anyOf: ${JSON.stringify(schema)}`);
  const types = [schema.type].flat();
  const widened: JsonSchema = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) widened.enum = [...schema.enum, null];
  return widened;
}

export function withoutMarker(schema: JsonSchema): JsonSchema {
  const { [READ_NULLABLE]: _marker, ...rest } = schema;
  return rest;
}

export function framework(definition: ResourceDefinition): Properties {
  const properties: Properties = {};
  if (definition.kind === 'collection') {
    properties.id = { type: 'string', description: 'Section name. On create, optional: [A-Za-z0-9_], at most 32 characters; generated when absent.' };
    properties.managed = { type: 'boolean', readOnly: true, description: 'False for an anonymous section, which must be adopted before a write.' };
  }
  properties.runtime = { type: 'object', readOnly: true, description: 'Live state computed by the server; not configuration, not covered by the ETag.' };
  return properties;
}

export const presenceFlag = (name: string): JsonSchema => ({ type: 'boolean', readOnly: true, description: `Whether \`${name}\` is set; its value is never returned.` });

export function fieldProperties(fields: Record<string, Field>): Properties {
  const properties: Properties = {};
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = {
      ...field.schema,
      ...(field.description ? { description: field.description } : {}),
      ...(field.secret ? { writeOnly: true } : {}),
      ...(readsNull(field) ? { [READ_NULLABLE]: true } : {}),
    };
    if (field.secret) properties[`has_${name}`] = presenceFlag(name);
  }
  return properties;
}

/** `/schema/<key>`'s `schema_properties`: every property of both directions as one set. */
export function schemaProperties(definition: ResourceDefinition): Properties {
  const properties = framework(definition);
  for (const [name, member] of Object.entries(definition.members)) {
    if (isGroup(member)) {
      properties[name] = { type: 'object', ...(member.description ? { description: member.description } : {}), properties: fieldProperties(member.fields) };
    } else {
      Object.assign(properties, fieldProperties({ [name]: member }));
    }
  }
  return properties;
}

/**
 * A resource's object schema from a builder of one object level: the top-level fields with the
 * `extra` members, then each group as a nested level, shaped and marked required by `group`.
 */
export function resourceObject(
  definition: ResourceDefinition,
  level: (fields: Record<string, Field>, extra?: Properties) => JsonSchema,
  extra: Properties,
  group: (object: JsonSchema, member: Group) => { schema: JsonSchema; required: boolean },
): JsonSchema {
  const top: Record<string, Field> = {};
  const groups: Properties = {};
  const groupsRequired: string[] = [];
  for (const [name, member] of Object.entries(definition.members)) {
    if (!isGroup(member)) {
      top[name] = member;
      continue;
    }
    const { schema, required } = group(level(member.fields), member);
    groups[name] = schema;
    if (required) groupsRequired.push(name);
  }
  const schema = level(top, extra);
  const required = [...((schema.required as string[] | undefined) ?? []), ...groupsRequired];
  const { required: _unused, ...rest } = schema;
  return { ...rest, properties: { ...(schema.properties as Properties), ...groups }, ...(required.length ? { required } : {}) };
}

export const holdsRequired = (member: Group) => Object.values(member.fields).some((field) => field.required);
