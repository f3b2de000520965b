// The one walker over a resource's members that every object schema of it is built with: the
// request schemas a write is checked against, and the OpenAPI document's halves.
import type { DocField, DocGroup, JsonSchema, ResourceDoc } from '../resources/model.js';

export type Properties = Record<string, JsonSchema>;

// Not resources/model's isGroup: importing it would split the module every read loads into two chunks.
const isGroup = (member: DocField | DocGroup): member is DocGroup => 'fields' in member;

/** The schema with null allowed: added to its type and enum, or as one more `anyOf` branch. */
export function withNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.type === undefined) throw new Error(`cannot add null to a schema without type or anyOf: ${JSON.stringify(schema)}`);
  const types = [schema.type].flat();
  const widened: JsonSchema = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) widened.enum = [...schema.enum, null];
  return widened;
}

export const holdsRequired = (member: DocGroup) => Object.values(member.fields).some((field) => field.required);

/**
 * A resource's object schema from a builder of one object level: the top-level fields with the
 * `extra` members, then each group as a nested level, shaped and marked required by `group`.
 */
export function resourceObject(
  doc: ResourceDoc,
  level: (fields: Record<string, DocField>, extra?: Properties) => JsonSchema,
  extra: Properties,
  group: (object: JsonSchema, member: DocGroup) => { schema: JsonSchema; required: boolean },
): JsonSchema {
  const top: Record<string, DocField> = {};
  const groups: Properties = {};
  const groupsRequired: string[] = [];
  for (const [name, member] of Object.entries(doc.members)) {
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
