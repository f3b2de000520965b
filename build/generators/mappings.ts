// What a read loads: the resource table of its domain, and per resource its mapping (the
// definition without schemas, descriptions and rules) as JSON text.
import { isGroup, type Codec, type Field, type MappedField, type MappedMember, type ResourceDefinition, type ResourceMapping, type When } from '../../src/resources/model.js';
import type { SharedMapping } from '../../src/resources/shared-mapping.js';
import type { FixedRoute } from '../../src/routes.js';
import { HEADER, type Resource } from './inventory.js';

// The route tables, one per first path segment: routing imports the table of the path's first
// segment by its name (engine/tables.ts), so a request pays nothing for the other domains'
// resources nor for the other fixed routes. A table holds the fixed routes of its segment
// (src/routes.ts) and the resources of the domain of that name, each as JSON text, with the names
// of the modules that serve them; the index lists the domains, for what walks every resource.
export function tableModules(resources: Resource[], fixedRoutes: FixedRoute[]): { index: string; tables: Map<string, string> } {
  const byDomain = new Map<string, Resource[]>();
  for (const resource of resources) {
    const [domain] = resource.definition.path.split('/');
    if (domain !== resource.domain) throw new Error(`${resource.domain}/${resource.name}: its path ${resource.definition.path} must begin with its folder's name`);
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), resource]);
  }
  // allResources() concatenates the tables: that must be the inventory's order, the OpenAPI document's.
  if ([...byDomain.values()].flat().some((resource, i) => resource !== resources[i])) throw new Error('a domain\'s paths do not sort together');
  const routesBySegment = new Map<string, FixedRoute[]>();
  for (const route of fixedRoutes) {
    const name = route.template.split('/')[1].replace(/\./g, '_');
    if (resources.some(({ definition }) => `/${definition.path}` === route.template.split('/:')[0])) throw new Error(`${route.template} is a curated resource's path`);
    routesBySegment.set(name, [...(routesBySegment.get(name) ?? []), route]);
  }
  const names = [...new Set([...byDomain.keys(), ...routesBySegment.keys()])].sort();
  const tables = new Map(names.map((name) => [name, tableModule(routesBySegment.get(name) ?? [], byDomain.get(name) ?? [], resources)]));
  const index = `${HEADER}\nexport const DOMAINS: string[] = ${JSON.stringify([...byDomain.keys()])};\n`;
  return { index, tables };
}

function tableModule(routes: FixedRoute[], members: Resource[], resources: Resource[]): string {
  const rows = members.map(({ definition, module }) => {
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
      mapping: module,
    };
  });
  return [
    HEADER,
    ...(routes.length ? [`export const ROUTES = JSON.parse(${JSON.stringify(JSON.stringify(routes))});`] : []),
    ...(rows.length ? [`export const RESOURCES = JSON.parse(${JSON.stringify(JSON.stringify(rows))});`] : []),
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

/** The mapping as a module writes it, each distinct codec and `when` once (resources/shared-mapping.ts). */
function sharedMapping({ members, ...mapping }: ResourceMapping): SharedMapping {
  const shared: (Codec | When)[] = [];
  const indexes = new Map<string, number>();
  const share = (value: Codec | When) => {
    const key = JSON.stringify(value);
    if (!indexes.has(key)) indexes.set(key, shared.push(value) - 1);
    return indexes.get(key)!;
  };
  const indexed = <T extends { codec?: Codec; when?: When }>(member: T) => ({
    ...member,
    ...(member.codec ? { codec: share(member.codec) } : {}),
    ...(member.when ? { when: share(member.when) } : {}),
  });
  const written: SharedMapping['members'] = {};
  for (const [name, member] of Object.entries(members)) {
    if (!isGroup(member)) written[name] = indexed(member) as SharedMapping['members'][string];
    else written[name] = { ...indexed(member), fields: Object.fromEntries(Object.entries(member.fields).map(([inner, field]) => [inner, indexed(field)])) } as SharedMapping['members'][string];
  }
  return { ...mapping, members: written, shared };
}

// unshared() costs QuickJS about 2,500 instructions a field, and JSON.parse 150-250 a byte: the
// shared form pays where it is shorter by 16 bytes a field or more (network/interfaces by 43, a
// firewall rule's by 12, which stays plain).
const SHARED_BYTES_A_FIELD = 16;

function mappingExpression(mapping: ResourceMapping): string {
  const plain = JSON.stringify(mapping);
  const shared = JSON.stringify(sharedMapping(mapping));
  const fields = Object.values(mapping.members).reduce((count, member) => count + 1 + (isGroup(member) ? Object.keys(member.fields).length : 0), 0);
  return plain.length - shared.length >= SHARED_BYTES_A_FIELD * fields ? `unshared(JSON.parse(${JSON.stringify(shared)}))` : `JSON.parse(${JSON.stringify(plain)})`;
}

// JSON text in a string literal: QuickJS scans a string and JSON.parse builds the object for a
// fraction of what compiling the same object literal costs, and every read pays that. The doc's text
// rides along unparsed: a read pays only for carrying its bytes (30-60K instructions from the bytecode
// cache), a write is spared a module of its own, and the package a file per resource (its tar header,
// and the .apk's SHA-256, which does not compress).
export function mappingModule({ definition, domain, name }: Resource, docText: string): string {
  const expression = mappingExpression(mappingOf(definition));
  return [
    `${HEADER}import type { GeneratedDoc, ${definition.parse ? 'LineParser, ' : ''}ResourceMapping, Rules${definition.runtimeOf ? ', RuntimeOf' : ''} } from '../../resources/model.js';`,
    ...(expression.startsWith('unshared') ? ["import { unshared } from '../../resources/shared-mapping.js';"] : []),
    '',
    `export const mapping: ResourceMapping = ${expression};`,
    definition.rules
      ? `export const rules = async (): Promise<Rules | undefined> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).rules;`
      : 'export const rules = async (): Promise<Rules | undefined> => undefined;',
    `const DOC = ${JSON.stringify(docText)};`,
    'export const doc = (): GeneratedDoc => JSON.parse(DOC);',
    ...(definition.parse
      ? [`export const parser = async (): Promise<LineParser> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).parse;`]
      : []),
    ...(definition.runtimeOf
      ? [`export const runtimeOf = async (): Promise<RuntimeOf> => (await import(${JSON.stringify(`../../resources/${domain}/${name}.js`)})).runtimeOf;`]
      : []),
    '',
  ].join('\n');
}
