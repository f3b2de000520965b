import { ApiError } from '../errors.js';
import type { Request } from '../request.js';
import type { UciPackage, UciSection } from '../uci/index.js';
import { readOption } from '../resources/options.js';
import { isGroup, type JsonObject, type MappedField, type ResourceMapping } from '../resources/model.js';

/** Sets `target[name]` from the section's option, or `has_<name>` for a write-only secret. */
function readField(target: JsonObject, name: string, field: MappedField, section: UciSection): void {
  const value = section.options.get(field.option ?? name);
  if (field.secret) {
    target[`has_${name}`] = value !== undefined;
    return;
  }
  const json = readOption(field.codec, value);
  if (json !== undefined) target[name] = json;
}

/** The resource body of a section, without `runtime`: what the ETag covers. */
export function viewOf(definition: ResourceMapping, section: UciSection): JsonObject {
  const body: JsonObject = definition.kind === 'collection' ? { id: section.name, managed: !section.anonymous } : {};
  // for-in rather than Object.entries(): QuickJS builds an array per entry, and a collection read
  // runs this for every field of every section.
  for (const name in definition.members) {
    const member = definition.members[name];
    if (isGroup(member)) {
      const group: JsonObject = {};
      for (const inner in member.fields) readField(group, inner, member.fields[inner], section);
      body[name] = group;
    } else {
      readField(body, name, member, section);
    }
  }
  return body;
}

/**
 * A quoted hash of the body alone, so sibling sections never change it. An ETag guards against lost
 * updates between cooperating writers, not against forgery, and SHA-256 in QuickJS's interpreter
 * cost more than the rest of a read: two 32-bit multiply-xor lanes (cyrb53's) give 64 bits instead.
 */
export function etagOf(body: JsonObject): string {
  const text = JSON.stringify(body);
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 2654435761);
    b = Math.imul(b ^ code, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return `"${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}"`;
}

export function sectionsOf(definition: ResourceMapping, model: UciPackage): UciSection[] {
  return model.sections.filter((section) => section.type === definition.type);
}

/** The section behind `/<resource>/{id}`, or behind a singleton (its first section of the type). */
export function findResourceSection(definition: ResourceMapping, model: UciPackage, id?: string): UciSection {
  const sections = sectionsOf(definition, model);
  const section = id === undefined ? sections[0] : sections.find((candidate) => candidate.name === id);
  if (!section) throw new ApiError(404, 'not_found', id === undefined ? `${definition.path} is not configured` : `No ${definition.path} with id ${id}`);
  return section;
}

/** Whether an `If-Match`/`If-None-Match` value names the current ETag (`*` names any). */
export function etagMatches(condition: string, etag: string): boolean {
  return condition
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === etag);
}

export function conditionsOf(request: Request) {
  return {
    ifMatch: request.headerOrQuery('If-Match', 'if_match'),
    ifNoneMatch: request.headerOrQuery('If-None-Match', 'if_none_match'),
  };
}
