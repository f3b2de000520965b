// The schemas a write's body is held to, derived from a resource's doc by the same walker as the
// document's: what the document states is what the engine checks.
import type { DocField, JsonSchema, ResourceDoc } from '../resources/model.js';
import { holdsRequired, resourceObject, withNull, type Properties } from './objects.js';

/** `full`: the body of a create or PUT, and the result of a JSON Patch; `patch`: a merge-patch delta. */
export type BodyKind = 'full' | 'patch';

/**
 * The schema of one kind of a resource's bodies, built only for the kind a write checks. Objects are
 * closed; the members a read carries besides the fields are tolerated so that a read can be sent
 * back. null clears a field, so a required one never takes it, nor does a group holding one.
 */
export function requestSchema(doc: ResourceDoc, kind: BodyKind): JsonSchema {
  const full = kind === 'full';
  const level = (fields: Record<string, DocField>, tolerated: Properties = {}): JsonSchema => {
    const properties: Properties = { ...tolerated };
    const required: string[] = [];
    for (const name in fields) {
      const field = fields[name];
      // A read-only field is another view of an option: tolerated so that a read can be sent back.
      properties[name] = field.readOnly ? {} : field.required ? field.schema : withNull(field.schema);
      if (field.secret) properties[`has_${name}`] = { type: 'boolean' };
      if (full && field.required) required.push(name);
    }
    return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
  };
  // The id of a read sent back: a section name, whatever the path names.
  const tolerated: Properties = { ...(doc.kind === 'collection' ? { id: { type: 'string', pattern: '^[A-Za-z0-9_]+$' } } : {}), managed: {}, runtime: {} };
  return resourceObject(doc, level, tolerated, (object, member) => ({
    schema: holdsRequired(member) ? object : withNull(object),
    required: object.required !== undefined,
  }));
}
