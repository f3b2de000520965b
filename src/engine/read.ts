import { configPath, keptPackage, madeFrom, parsePackage } from '../config/store.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import type { UciPackage, UciSection } from '../uci/index.js';
import { readOption } from '../resources/options.js';
import { applies, isGroup, type JsonObject, type MappedField, type ResourceMapping, type TypeBy } from '../resources/model.js';

/** Sets `target[name]` from the section's option, or `has_<name>` for a write-only secret. */
function readField(target: JsonObject, name: string, field: MappedField, section: UciSection): void {
  const value = section.options.get(field.option ?? name);
  if (field.secret) {
    target[`has_${name}`] = value !== undefined;
    return;
  }
  const json = readOption(field.codec, value);
  // An implied value stored as the option is one the daemon refuses: it reads as unreadable.
  if (json !== undefined) target[name] = typeof json === 'string' && field.implied?.[json] ? null : json;
  else if (field.implied) {
    for (const implied in field.implied) {
      if (target[field.implied[implied]] !== undefined) {
        target[name] = implied;
        break;
      }
    }
  }
}

/** Whether the resource serves sections of this type. */
export function servesType({ type, typeBy }: ResourceMapping, candidate: string): boolean {
  if (!typeBy) return candidate === type;
  if (typeBy.prefix !== undefined) return candidate.startsWith(typeBy.prefix) && candidate.length > typeBy.prefix.length;
  return Object.values(typeBy.types!).includes(candidate);
}

/** The value of the `typeBy` field that a section type stands for. */
export function typeFieldValue({ typeBy }: ResourceMapping & { typeBy: TypeBy }, type: string): string {
  if (typeBy.prefix !== undefined) return type.slice(typeBy.prefix.length);
  return Object.keys(typeBy.types!).find((value) => typeBy.types![value] === type)!;
}

/** The section type a body asks for: the resource's type, or the one its `typeBy` field names. */
export function sectionTypeOf(definition: ResourceMapping, body: JsonObject): string {
  const { typeBy } = definition;
  const value = typeBy && body[typeBy.field];
  if (!typeBy || typeof value !== 'string') return definition.type;
  return typeBy.prefix !== undefined ? typeBy.prefix + value : typeBy.types![value];
}

/** The resource body of a section, without `runtime`: what the ETag covers. */
export function viewOf(definition: ResourceMapping, section: UciSection): JsonObject {
  const body: JsonObject = definition.kind === 'collection' ? { id: section.name, managed: !section.anonymous } : { managed: !section.anonymous };
  if (definition.typeBy) body[definition.typeBy.field] = typeFieldValue(definition as ResourceMapping & { typeBy: TypeBy }, section.type);
  // for-in rather than Object.entries(): QuickJS builds an array per entry, and a collection read
  // runs this for every field of every section.
  const later: string[] = [];
  for (const name in definition.members) {
    const member = definition.members[name];
    if (isGroup(member) || member.when || member.implied) later.push(name);
    else if (name !== definition.typeBy?.field) readField(body, name, member, section);
  }
  // After the others: a member's `when` looks at one of them, and so does an implied value. An
  // unset list reads [] whether it applies or not (the spec's rule).
  for (const name of later) {
    const member = definition.members[name];
    if (!applies(member.when, body)) {
      if (!isGroup(member) && member.codec.kind === 'list') body[name] = [];
      continue;
    }
    if (!isGroup(member)) {
      readField(body, name, member, section);
      continue;
    }
    const group: JsonObject = {};
    for (const inner in member.fields) readField(group, inner, member.fields[inner], section);
    body[name] = group;
  }
  return body;
}

/** The sections a resource serves: those of its type, or a named singleton's one section. */
export function sectionsOf(definition: ResourceMapping, model: UciPackage): UciSection[] {
  const { section: name } = definition;
  return model.sections.filter((section) => servesType(definition, section.type) && (name === undefined || section.name === name));
}

/**
 * The view of every section the resource serves, in file order, without `runtime`: made once for
 * all requests that read the same file (Ports.derived), which spares a read of nine firewall rules
 * 2.4M instructions of building them.
 */
export async function collectionViews(ports: Ports, definition: ResourceMapping): Promise<JsonObject[]> {
  const text = ports.readFile(configPath(definition.package));
  const viewsOf = (model: UciPackage) => sectionsOf(definition, model).map((section) => viewOf(definition, section));
  const from = ports.derived && text !== undefined && madeFrom(ports, definition.package, text);
  const kept =
    from &&
    ports.derived!(`views.${definition.path.replace('/', '.')}`, from, () => {
      const model = keptPackage(ports, definition.package, text!);
      return model && viewsOf(model);
    });
  return kept || viewsOf(await parsePackage(ports, definition.package, text));
}

/** The section behind `/<resource>/{id}`, or behind a singleton (its first section of the type, or its named one). */
export function findResourceSection(definition: ResourceMapping, model: UciPackage, id?: string): UciSection {
  const sections = sectionsOf(definition, model);
  const section = id === undefined ? sections[0] : sections.find((candidate) => candidate.name === id);
  if (!section) throw new ApiError(404, 'not_found', id === undefined ? `${definition.path} is not configured` : `No ${definition.path} with id ${id}`);
  return section;
}
