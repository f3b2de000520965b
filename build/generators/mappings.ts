// What a read loads: the resource table every request parses, and per resource its mapping (the
// definition without schemas, descriptions and rules) as JSON text.
import { isGroup, type Field, type MappedField, type MappedMember, type ResourceDefinition, type ResourceMapping } from '../../src/resources/model.js';
import { HEADER, type Resource } from './inventory.js';

// The table every request parses: its rows as JSON text (see mappingModule), with one loader each.
export function resourcesModule(resources: Resource[]): string {
  const rows = resources.map(({ definition }) => {
    const [domain, sub] = definition.path.split('/');
    // A view is no set of sections: nothing names it, though it shares its source's package and type.
    const referencedBy = definition.kind === 'view' ? [] : resources
      .filter((other) => other.definition.references?.some((reference) => reference.package === definition.package && reference.type === definition.type))
      .map((other) => other.definition.path);
    return {
      path: definition.path,
      kind: definition.kind,
      package: definition.package,
      type: definition.type,
      scope: sub === undefined ? { domain } : { domain, sub },
      ...(referencedBy.length ? { referencedBy } : {}),
    };
  });
  const loaders = resources.map(({ module }) => `  () => import(${JSON.stringify(`./mappings/${module}.js`)}),`);
  return [
    `${HEADER}import type { ResourceEntry, ResourceModule } from '../resources/model.js';`,
    '',
    `const LOADERS: (() => Promise<ResourceModule>)[] = [\n${loaders.join('\n')}\n];`,
    '',
    `const ROWS: Omit<ResourceEntry, 'module'>[] = JSON.parse(${JSON.stringify(JSON.stringify(rows))});`,
    '',
    'export const RESOURCES: ResourceEntry[] = ROWS.map((row, i) => ({ ...row, module: LOADERS[i] }));',
    '',
  ].join('\n');
}

/** A definition without what only the build uses (schemas, descriptions, checks' statements) and without its rules. */
function mappedField({ schema: _schema, description: _description, ...field }: Field): MappedField {
  return field;
}

export function mappingOf(definition: ResourceDefinition): ResourceMapping {
  const { description: _description, rules: _rules, checks: _checks, parse: _parse, members, ...rest } = definition;
  // A view's read takes its items from its parser: its members are for the doc only.
  if (definition.kind === 'view') return { ...rest, members: {} };
  const mapped: Record<string, MappedMember> = {};
  for (const [name, member] of Object.entries(members)) {
    if (!isGroup(member)) {
      mapped[name] = mappedField(member);
      continue;
    }
    const fields: Record<string, MappedField> = {};
    for (const [inner, field] of Object.entries(member.fields)) fields[inner] = mappedField(field);
    mapped[name] = { fields, ...(member.when ? { when: member.when } : {}) };
  }
  return { ...rest, members: mapped };
}

// JSON text in a string literal: QuickJS scans a string and JSON.parse builds the object for a
// fraction of what compiling the same object literal costs, and every read pays that.
export function mappingModule({ definition, domain, name, module }: Resource): string {
  return [
    `${HEADER}import type { ${definition.parse ? 'LineParser, ' : ''}ResourceDoc, ResourceMapping, Rules } from '../../resources/model.js';`,
    '',
    `export const mapping: ResourceMapping = JSON.parse(${JSON.stringify(JSON.stringify(mappingOf(definition)))});`,
    definition.rules
      ? `export const rules = async (): Promise<Rules | undefined> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).rules;`
      : 'export const rules = async (): Promise<Rules | undefined> => undefined;',
    `export const doc = (): Promise<{ doc: ResourceDoc }> => import(${JSON.stringify(`../docs/${module}.js`)});`,
    ...(definition.parse
      ? [`export const parser = async (): Promise<LineParser> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).parse;`]
      : []),
    '',
  ].join('\n');
}
