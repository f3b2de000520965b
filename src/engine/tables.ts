import type { ResourceEntry, ResourceModule } from '../resources/model.js';

/** A resource as its table holds it: data, with the name of its generated mapping module. */
type ResourceRow = Omit<ResourceEntry, 'module'> & { mapping: string };

/** A path's first segment's table: its fixed routes (`R`, src/routes.ts) and the curated resources of the domain of that name. */
export interface RouteTable<R> {
  routes: R[];
  resources: ResourceEntry[];
}

// Tables and mappings are found by name, so no index of them is parsed per request and a new domain
// costs the others nothing. Rollup leaves a computed import() as written: the bundle keeps these
// modules at the paths they have under src/, and this module one folder below the root (rollup.config.ts).
const NAME = /^[a-z0-9_]+$/;

// Each table, and each resource's module, is imported once a process: a batch routes each of its
// operations, and an import() of a module already loaded still costs QuickJS tens of thousands of
// instructions (the batch of ten creations 1.5M).
const tables = new Map<string, Promise<RouteTable<unknown>>>();

export function routeTable<R>(segment: string): Promise<RouteTable<R>> {
  let table = tables.get(segment);
  if (!table) tables.set(segment, (table = loadTable(segment)));
  return table as Promise<RouteTable<R>>;
}

async function loadTable<R>(segment: string): Promise<RouteTable<R>> {
  const name = segment.replace(/\./g, '_');
  let table: { ROUTES?: R[]; RESOURCES?: ResourceRow[] } = {};
  if (NAME.test(name)) {
    try {
      table = await import(`../generated/tables/${name}.js`);
    } catch (error) {
      // No such table: QuickJS cannot load the file, Node finds no module.
      if (!/could not load module|ERR_MODULE_NOT_FOUND|Cannot find module/.test(`${(error as { code?: string }).code} ${(error as Error).message}`)) throw error;
    }
  }
  const resources = (table.RESOURCES ?? []).map(({ mapping, ...row }) => {
    let module: Promise<ResourceModule> | undefined;
    return { ...row, module: () => (module ??= import(`../generated/mappings/${mapping}.js`)) };
  });
  return { routes: table.ROUTES ?? [], resources };
}

/** The curated resource at a path. */
export async function resourceAt(path: string): Promise<ResourceEntry | undefined> {
  return (await routeTable(path.split('/')[0])).resources.find((entry) => entry.path === path);
}

/** Every curated resource, in the inventory's order: for the diagnostics, /schema, the OpenAPI document and the sweep, never per write. */
export async function allResources(): Promise<ResourceEntry[]> {
  const { DOMAINS } = await import('../generated/resources.js');
  return (await Promise.all(DOMAINS.map(async (domain) => (await routeTable(domain)).resources))).flat();
}
