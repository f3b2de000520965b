// What the OpenAPI document, the /schema answers and a write's body check are built from: per
// resource its fields' schemas and descriptions and how a read fills them, as JSON text, its members
// listed in its mapping's order; and the id of the document they assemble into.
import { SCHEMA_KEYWORDS } from '../../src/engine/schema-check.js';
import { readOption } from '../../src/resources/options.js';
import { isGroup, type DocField, type Field, type GeneratedDoc, type Reference, type ResourceDefinition, type ResourceDoc } from '../../src/resources/model.js';
import { HEADER } from './inventory.js';
import { indexedPatterns, textSchema } from './patterns.js';

// Values no codec can represent: a codec that reads either as null (a scalar codec reads a UCI list
// as null) answers null for values it cannot represent, so its field is read-nullable.
const UNREPRESENTABLE = '\u0000';
const UNREPRESENTABLE_LIST = ['\u0000', '\u0000'];

function docField({ schema, description, required, secret, readOnly, when, codec, default: value }: Field): DocField {
  const nullable = readOption(codec, UNREPRESENTABLE) === null || readOption(codec, UNREPRESENTABLE_LIST) === null;
  // A list reads [] while unset, whatever its `when` (engine/read.ts).
  const always = readOption(codec, undefined) !== undefined;
  return {
    // What a create or PUT that leaves the field out writes.
    schema: textSchema(value === undefined ? schema : { ...schema, default: value }),
    ...(description ? { description } : {}),
    ...(required ? { required } : {}),
    ...(secret ? { secret } : {}),
    ...(readOnly ? { readOnly } : {}),
    ...(when ? { when } : {}),
    ...(nullable ? { nullable } : {}),
    ...(always ? { always } : {}),
  };
}

const referenceCheck = ({ field, package: pkg, type, by, except, negation }: Reference) =>
  `\`${field}\` must name an existing \`${type}\` of ${pkg} (by its ${by ? `\`${by}\`` : 'section id'}${negation ? `, after an optional \`${negation}\`` : ''})${except?.length ? `, or ${except.map((value) => `\`${value}\``).join(', ')}` : ''}.`;

/** What strictWhen refuses: each field given while its `when` does not apply, grouped by the values it needs. */
function strictWhenCheck(definition: ResourceDefinition): string {
  const byWhen = new Map<string, string[]>();
  for (const [name, member] of Object.entries(definition.members)) {
    if (isGroup(member) || !member.when || member.readOnly) continue;
    const key = `\`${member.when.field}\` ${member.when.values.join('/')}`;
    byWhen.set(key, [...(byWhen.get(key) ?? []), `\`${name}\``]);
  }
  return [...byWhen].map(([when, names]) => `${names.join(', ')} only with ${when}`).join('; ') + '.';
}

/** A view's field: read-only, always in a read, null where the definition says a line may leave it empty. */
const viewField = ({ schema, description, nullable }: Field): DocField => ({
  schema,
  ...(description ? { description } : {}),
  readOnly: true,
  always: true,
  ...(nullable ? { nullable } : {}),
});

/** The doc of a definition; `inventory`, every definition, tells which of them name its sections. */
export function docOf(definition: ResourceDefinition, inventory: ResourceDefinition[] = []): ResourceDoc {
  const members: ResourceDoc['members'] = {};
  const view = definition.kind === 'view';
  for (const [name, member] of Object.entries(definition.members)) {
    if (view && !isGroup(member)) {
      members[name] = viewField(member);
      continue;
    }
    if (!isGroup(member)) {
      // The typeBy field is read from the section type: always there, never unreadable.
      const { nullable: _nullable, ...typed } = docField(member);
      members[name] = name === definition.typeBy?.field ? { ...typed, always: true } : docField(member);
      continue;
    }
    const fields: Record<string, DocField> = {};
    for (const [inner, field] of Object.entries(member.fields)) fields[inner] = docField(field);
    members[name] = { ...(member.description ? { description: member.description } : {}), ...(member.when ? { when: member.when } : {}), fields };
  }
  const referencedBy = view ? [] : inventory.flatMap((other) =>
    (other.references ?? []).filter((reference) => reference.package === definition.package && reference.type === definition.type).map((reference) => `\`${reference.field}\` of ${other.path}`),
  );
  return {
    path: definition.path,
    kind: definition.kind,
    type: definition.type,
    description: definition.description,
    members,
    checks: [
      ...(definition.strictWhen ? [strictWhenCheck(definition)] : []),
      ...(definition.checks ?? []),
      ...(definition.references ?? []).filter((reference) => !reference.guardOnly).map(referenceCheck),
    ],
    referencedBy,
    ...(definition.ids ? { ids: definition.ids } : {}),
    ...(definition.mgmtPath ? { mgmtPath: true } : {}),
    ...(definition.undeletable ? { undeletable: definition.undeletable } : {}),
  };
}

// Keywords a field schema may hold besides those the body check applies: they only describe.
const DESCRIBING_KEYWORDS = ['description', 'title', 'examples', 'default'];

/** Throws on a field schema with a keyword the body check would not apply: the document would state a rule no write is held to. */
export function assertCheckable(doc: ResourceDoc): void {
  const visit = (schema: unknown, where: string): void => {
    if (schema === null || typeof schema !== 'object') return;
    for (const [keyword, value] of Object.entries(schema)) {
      if (!SCHEMA_KEYWORDS.includes(keyword) && !DESCRIBING_KEYWORDS.includes(keyword)) throw new Error(`${doc.path} ${where}: the body check does not apply \`${keyword}\``);
      if (keyword === 'items' || keyword === 'not') visit(value, where);
      if (keyword === 'anyOf') (value as unknown[]).forEach((branch) => visit(branch, where));
      if (keyword === 'properties') for (const [name, inner] of Object.entries(value as object)) visit(inner, `${where}.${name}`);
    }
  };
  for (const [name, member] of Object.entries(doc.members)) {
    if ('fields' in member) for (const [inner, field] of Object.entries(member.fields)) visit(field.schema, `${name}.${inner}`);
    else visit(member.schema, name);
  }
}

/**
 * A doc with its members listed without their names, which its mapping holds (GeneratedDoc), and
 * without a field's `when`, which its mapping holds too.
 */
export function generatedDoc(doc: ResourceDoc): GeneratedDoc {
  if (doc.kind === 'view') return doc;
  return {
    ...doc,
    members: Object.values(doc.members).map((member) => {
      if (isGroup(member)) return { ...member, fields: Object.values(member.fields) };
      const { when: _when, ...field } = member;
      return field;
    }),
  };
}

/** A doc as JSON text, its patterns as indexes for `pattern()`: the mapping module carries it (generators/mappings.ts). */
export const docText = (doc: ResourceDoc, patternIndex: Map<string, number>): string => JSON.stringify(indexedPatterns(generatedDoc(doc), patternIndex));

/** Names the document the docs and the fixed part assemble into: it changes with any of them. */
export const documentIdModule = (documentId: string) => `${HEADER}\nexport const DOCUMENT_ID = ${JSON.stringify(documentId)};\n`;
