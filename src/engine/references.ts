import { ApiError, type FieldError } from '../http/errors.js';
import { resourceAt } from './tables.js';
import { isGroup, valueAt, type Json, type JsonObject, type MappedField, type Reference, type ResourceEntry, type ResourceMapping, type RuleContext, type TypeBy } from '../resources/model.js';
import { servesType, typeFieldValue } from './read.js';
import type { UciPackage } from '../uci/index.js';

/** The names that sections of the referenced type answer to: their `by` option, or their section name. */
export function referencedNames(model: UciPackage, reference: Pick<Reference, 'type' | 'by'>): Set<string> {
  const names = new Set<string>();
  for (const section of model.sections) {
    if (section.type !== reference.type) continue;
    const name = reference.by ? section.options.get(reference.by) : section.name;
    if (typeof name === 'string') names.add(name);
  }
  return names;
}

/** The name a value gives, without its negation. */
function namedBy(reference: Reference, value: string): string {
  return reference.negation && value.startsWith(reference.negation) ? value.slice(reference.negation.length) : value;
}

/** A field naming a section (or, for a list, each item) that does not exist is a `conflict`. */
export function referenceErrors(definition: ResourceMapping, body: JsonObject, context: RuleContext): FieldError[] {
  const errors: FieldError[] = [];
  for (const reference of definition.references ?? []) {
    if (reference.guardOnly) continue;
    const value = reference.field === 'id' ? (context.id ?? null) : valueAt(body, reference.field);
    // A `words` field names a section with each of its words.
    const words = typeof value === 'string' && fieldAt(definition, reference.field)?.codec.kind === 'words';
    const items: [string, Json][] = Array.isArray(value)
      ? value.map((item, i) => [`${reference.field}[${i}]`, item])
      : words ? value.split(/\s+/).filter(Boolean).map((item) => [reference.field, item]) : [[reference.field, value ?? null]];
    const names = referencedNames(context.read(reference.package), reference);
    for (const [field, value] of items) {
      const item = typeof value === 'string' ? namedBy(reference, value) : value;
      if (typeof item !== 'string' || reference.except?.includes(item) || names.has(item)) continue;
      errors.push({ field, code: 'conflict', message: `${field}: no ${reference.package} ${reference.type} named ${item}` });
    }
  }
  return errors;
}

/** A resource that names sections of another, with the UCI option that holds the name. */
export interface Referrer {
  definition: ResourceMapping;
  reference: Reference;
  option: string;
}

/** The field at a dotted path (`match.src_zone`); undefined for `id`, the section's own name. */
function fieldAt(definition: ResourceMapping, dotted: string): MappedField | undefined {
  const [first, inner] = dotted.split('.');
  const member = definition.members[first];
  return member && isGroup(member) ? member.fields[inner] : member;
}

function optionOf(definition: ResourceMapping, dotted: string): string {
  // The section's own name is no option (see checkNoDanglingReferences).
  if (dotted === 'id') return '';
  const [first, inner] = dotted.split('.');
  return fieldAt(definition, dotted)!.option ?? (inner ?? first);
}

/** The resources whose references name sections of `entry`, loaded for a write that may remove names. */
export async function referrersOf(entry: ResourceEntry): Promise<Referrer[]> {
  const definitions = await Promise.all((entry.referencedBy ?? []).map(async (path) => (await (await resourceAt(path))!.module()).mapping));
  return definitions.flatMap((definition) =>
    (definition.references ?? [])
      .filter((reference) => reference.package === entry.package && reference.type === entry.type)
      .map((reference) => ({ definition, reference, option: optionOf(definition, reference.field) })),
  );
}

/**
 * Refuses a write that removes or renames a section other sections still name (a zone a rule
 * uses): firewall4 would silently skip those sections. `before` holds each referrer's names as
 * they were before the write was staged.
 */
export function checkNoDanglingReferences(referrers: Referrer[], before: Set<string>[], read: (pkg: string) => UciPackage): void {
  const users: string[] = [];
  referrers.forEach(({ definition, reference, option }, i) => {
    const after = referencedNames(read(reference.package), reference);
    const removed = [...before[i]].filter((name) => !after.has(name));
    if (!removed.length) return;
    for (const section of read(definition.package).sections) {
      if (!servesType(definition, section.type)) continue;
      // A wireguard peer names its interface by its section type, an mwan3 interface by its own name.
      const value =
        reference.field === 'id'
          ? section.name
          : definition.typeBy?.field === reference.field
            ? typeFieldValue(definition as ResourceMapping & { typeBy: TypeBy }, section.type)
            : section.options.get(option);
      const named = (typeof value === 'string' ? value.split(/\s+/) : value ?? []).map((name) => namedBy(reference, name)).filter((name) => removed.includes(name));
      if (named.length) users.push(`${definition.path}/${section.name} (${reference.field}: ${named.join(', ')})`);
    }
  });
  if (users.length) throw new ApiError(409, 'conflict', `Still named by ${users.join('; ')}; change or remove those first`);
}
