// What raw passthrough needs of the curated definitions, per package: the init scripts a change
// reloads (every resource's of the package, in order) and the package that installs them, and per
// curated section type the resource's path (its curated scope) and the options it never returns
// (the definitions' secrets). Compact JSON text, loaded only by /raw requests.
import { isGroup, type RawPackage, type ResourceDefinition } from '../../src/resources/model.js';
import { HEADER, type Resource } from './inventory.js';

function secretOptions(definition: ResourceDefinition): string[] {
  const options: string[] = [];
  for (const [name, member] of Object.entries(definition.members)) {
    const fields = isGroup(member) ? Object.entries(member.fields) : [[name, member] as const];
    for (const [field, value] of fields) if (value.secret) options.push(value.option ?? field);
  }
  return options;
}

export function rawPackages(resources: Resource[]): Record<string, RawPackage> {
  const packages: Record<string, RawPackage> = {};
  for (const { definition } of resources) {
    // A view shares its source's package and type: the sections are the configuration resource's.
    if (definition.kind === 'view') continue;
    const pkg = (packages[definition.package] ??= { reload: [], types: {} });
    pkg.reload = [...new Set([...pkg.reload, ...definition.reload])];
    if (definition.daemonPackage) pkg.provider = definition.daemonPackage;
    const secrets = secretOptions(definition);
    const served = secrets.length ? [definition.path, ...secrets] : definition.path;
    const typeBy = definition.typeBy;
    const types = typeBy?.prefix ? [`${typeBy.prefix}*`] : [definition.type, ...Object.values(typeBy?.types ?? {})];
    for (const type of types) pkg.types[type] = served;
  }
  return packages;
}

export function rawModule(resources: Resource[]): string {
  return [
    `${HEADER}import type { RawPackage } from '../resources/model.js';`,
    '',
    `export const RAW_PACKAGES: Record<string, RawPackage> = JSON.parse(${JSON.stringify(JSON.stringify(rawPackages(resources)))});`,
    '',
  ].join('\n');
}

/**
 * The packages a request may keep parsed between requests (config/store.ts): those of curated
 * definitions none of which declares a secret, since a secret never leaves its configuration file.
 */
export function keptPackagesModule(resources: Resource[]): string {
  const packages = rawPackages(resources);
  const kept = Object.keys(packages).filter((pkg) => Object.values(packages[pkg].types).every((served) => typeof served === 'string'));
  return `${HEADER}\nexport const KEPT_PACKAGES: string[] = ${JSON.stringify(kept.sort())};\n`;
}
