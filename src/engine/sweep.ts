import { decide, targetName } from '../auth/scopes.js';
import { readPackage } from '../config/store.js';
import { ApiError, type FieldError, type SweepErrorCode } from '../http/errors.js';
import { allResources } from './tables.js';
import type { ResourceEntry } from '../resources/model.js';
import type { Ports } from '../platform/ports.js';
import type { UciPackage } from '../uci/index.js';
import { sectionsOf, viewOf } from './read.js';
import { checkBody, loadChecks, schemaErrors } from './validate.js';
import { forEachField, packagesOf, withoutFrameworkMembers } from './write.js';

export interface SweepError {
  field: string;
  code: FieldError['code'] | SweepErrorCode;
  message: string;
}

export interface InvalidSection {
  resource: string;
  /** null only for a resource whose sweep failed as a whole. */
  id: string | null;
  managed: boolean | null;
  errors: SweepError[];
}

/**
 * `GET /diagnostics?validate=1`: every section of every resource the scopes may read, read and then
 * checked exactly as a PUT of that read would be, so it lists what the next write of it will refuse.
 */
export async function sweep(ports: Ports, scopes: readonly string[]) {
  const invalid_sections: InvalidSection[] = [];
  const swept_resources: string[] = [];
  const skipped_for_scope: string[] = [];
  const packages = new Map<string, Promise<UciPackage>>();
  const read = (pkg: string) => packages.get(pkg) ?? packages.set(pkg, readPackage(ports, pkg)).get(pkg)!;
  for (const entry of await allResources()) {
    // A view is state a daemon wrote, not configuration a write would check: nothing to sweep.
    if (entry.kind === 'view') continue;
    const resource = targetName(entry.scope);
    if (!decide(scopes, entry.scope, false)) {
      skipped_for_scope.push(resource);
      continue;
    }
    swept_resources.push(resource);
    try {
      invalid_sections.push(...(await sweepResource(ports, entry, resource, read)));
    } catch (error) {
      invalid_sections.push({ resource, id: null, managed: null, errors: [{ field: '', code: 'sweep_failed', message: (error as Error).message }] });
    }
  }
  return { invalid_sections, swept_resources, skipped_for_scope };
}

async function sweepResource(ports: Ports, entry: ResourceEntry, resource: string, read: (pkg: string) => Promise<UciPackage>): Promise<InvalidSection[]> {
  const file = (path: string) => ports.readFile(path);
  const { mapping: definition } = await entry.module();
  const { schema, pattern, rules } = await loadChecks(ports, entry, 'full');
  const model = await read(definition.package);
  // The rules read packages synchronously, as a write stages them; these are all they may name.
  const staged = new Map<string, UciPackage>();
  for (const pkg of packagesOf(definition)) staged.set(pkg, pkg === definition.package ? model : await read(pkg));
  const found: InvalidSection[] = [];
  for (const section of sectionsOf(definition, model)) {
    const body = viewOf(definition, section);
    // A stored value the read cannot represent reads as null, which a PUT would keep as it is.
    const errors: SweepError[] = [];
    forEachField(definition, body, (path, _name, field, value) => {
      if (value === null && !field.readOnly) errors.push({ field: path, code: 'unreadable', message: `${path}: the stored value cannot be read as this field` });
    });
    try {
      checkBody(definition, rules, schemaErrors(schema, body, pattern), withoutFrameworkMembers(body), { read: (pkg) => staged.get(pkg)!, id: section.name, file });
    } catch (error) {
      if (!(error instanceof ApiError) || !error.details.errors) throw error;
      errors.push(...error.details.errors.filter(({ field }) => !errors.some((unreadable) => unreadable.field === field)));
    }
    if (errors.length) found.push({ resource, id: section.name, managed: !section.anonymous, errors });
  }
  return found;
}
