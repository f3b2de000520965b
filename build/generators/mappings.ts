// What a read loads: the resource table of its domain, and per resource its mapping (the
// definition without schemas, descriptions and rules) as JSON text.
import { isGroup, type Field, type MappedField, type MappedMember, type ResourceDefinition, type ResourceMapping } from '../../src/resources/model.js';
import { HEADER, type Resource } from './inventory.js';

// The resource table, split by domain: routing imports the table of the path's domain by its name
// (src/routes.ts), so a request pays nothing for the other domains' resources; the index (a loader
// per domain) serves the writes that look up their referrers, the diagnostics and /schema.
// Each table holds its rows as JSON text (see mappingModule), with one loader each.
export function resourcesModules(resources: Resource[]): { index: string; tables: Map<string, string> } {
  const byDomain = new Map<string, Resource[]>();
  for (const resource of resources) {
    const [domain] = resource.definition.path.split('/');
    if (domain !== resource.domain) throw new Error(`${resource.domain}/${resource.name}: its path ${resource.definition.path} must begin with its folder's name`);
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), resource]);
  }
  // allResources() concatenates the tables: that must be the inventory's order, which the docs index shares.
  if ([...byDomain.values()].flat().some((resource, i) => resource !== resources[i])) throw new Error('a domain\'s paths do not sort together');
  const tables = new Map([...byDomain].map(([domain, members]) => [domain, tableModule(members, resources)]));
  const loaders = [...byDomain.keys()].map((domain) => `  [${JSON.stringify(domain)}, () => import(${JSON.stringify(`./tables/${domain}.js`)})],`);
  const index = [
    `${HEADER}import type { ResourceEntry } from '../resources/model.js';`,
    '',
    `const TABLES: [string, () => Promise<{ RESOURCES: ResourceEntry[] }>][] = [\n${loaders.join('\n')}\n];`,
    '',
    '/** Every resource, in the order of the docs index. */',
    'export async function allResources(): Promise<ResourceEntry[]> {',
    '  return (await Promise.all(TABLES.map(async ([, load]) => (await load()).RESOURCES))).flat();',
    '}',
    '',
    '/** The resource at a path. */',
    'export async function resourceAt(path: string): Promise<ResourceEntry | undefined> {',
    "  const table = TABLES.find(([name]) => name === path.split('/')[0]);",
    '  return table && (await table[1]()).RESOURCES.find((entry) => entry.path === path);',
    '}',
    '',
  ].join('\n');
  return { index, tables };
}

function tableModule(members: Resource[], resources: Resource[]): string {
  const rows = members.map(({ definition }) => {
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
  const loaders = members.map(({ module }) => `  () => import(${JSON.stringify(`../mappings/${module}.js`)}),`);
  return [
    `${HEADER}import type { ResourceEntry, ResourceModule } from '../../resources/model.js';`,
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
  const { description: _description, rules: _rules, checks: _checks, parse: _parse, runtimeOf: _runtimeOf, members, ...rest } = definition;
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
    `${HEADER}import type { ${definition.parse ? 'LineParser, ' : ''}ResourceDoc, ResourceMapping, Rules${definition.runtimeOf ? ', RuntimeOf' : ''} } from '../../resources/model.js';`,
    '',
    `export const mapping: ResourceMapping = JSON.parse(${JSON.stringify(JSON.stringify(mappingOf(definition)))});`,
    definition.rules
      ? `export const rules = async (): Promise<Rules | undefined> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).rules;`
      : 'export const rules = async (): Promise<Rules | undefined> => undefined;',
    `export const doc = (): Promise<{ doc: ResourceDoc }> => import(${JSON.stringify(`../docs/${module}.js`)});`,
    ...(definition.parse
      ? [`export const parser = async (): Promise<LineParser> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).parse;`]
      : []),
    ...(definition.runtimeOf
      ? [`export const runtimeOf = async (): Promise<RuntimeOf> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).runtimeOf;`]
      : []),
    '',
  ].join('\n');
}
