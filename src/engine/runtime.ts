// `runtime`: live state a read adds to each item, from one `ubus call` per request (and the further
// calls a source makes for each section read, runtime-each.ts), or computed by the definition from
// the router's files (its `runtimeOf`). It is not configuration: outside the
// ETag, tolerated and ignored in a request body, null when the bus does not answer, so that a read
// still answers when netifd or ubusd is down. Its members are named in snake_case, as the
// Terraform provider reads them.
import { callBus } from '../platform/bus.js';
import type { Ports } from '../platform/ports.js';
import { readPackage } from '../config/store.js';
import type { Json, JsonObject, ResourceModule, RuntimeSource } from '../resources/model.js';

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The items the path leads to, each with the name it has where it lies (a member name or an index). */
function itemsAt(value: unknown, path: string[]): [string, unknown][] {
  let found: [string, unknown][] = [['', value]];
  for (const step of path) {
    found = found.flatMap(([, item]): [string, unknown][] => {
      if (!isObject(item)) return [];
      if (step === '*') return Object.keys(item).map((name) => [name, item[name]]);
      const next = item[step];
      return Array.isArray(next) ? next.map((entry, index) => [String(index), entry]) : next === undefined ? [] : [[step, next]];
    });
  }
  return found;
}

/** Renames a bus answer's members in place to snake_case, at every level (ubus's `ipv4-address` is `ipv4_address`). */
function snakeCase(value: object): void {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) snakeCase(item);
    return;
  }
  const object = value as JsonObject;
  for (const name in object) {
    const inner = object[name];
    if (typeof inner === 'object' && inner !== null) snakeCase(inner);
    if (name.includes('-')) {
      object[name.replace(/-/g, '_')] = inner;
      delete object[name];
    }
  }
}

/** The item's members `fields` names (all when omitted), as `names` names them. */
function picked(item: JsonObject, fields: string[] | undefined, names: string[]): JsonObject {
  if (!fields) {
    snakeCase(item);
    return item;
  }
  const kept: JsonObject = {};
  for (let i = 0; i < fields.length; i++) {
    const value = item[fields[i]];
    if (value === undefined) continue;
    if (typeof value === 'object' && value !== null) snakeCase(value);
    kept[names[i]] = value;
  }
  return kept;
}

/** Each section's runtime by id, from one call; undefined when the bus did not answer. */
export function runtimeById(ports: Ports, { object, method, items, key, fields }: RuntimeSource): Map<string, Json> | undefined {
  const { answer } = callBus(ports, object, method);
  if (answer === undefined) return undefined;
  const byId = new Map<string, Json>();
  const names = (fields ?? []).map((field) => field.replace(/-/g, '_'));
  for (const [name, item] of itemsAt(answer, items)) {
    if (!isObject(item)) continue;
    const id = key === '*' ? name : item[key];
    if (typeof id === 'string') byId.set(id, picked(item, fields, names));
  }
  return byId;
}

/**
 * Adds `runtime` to read bodies of a resource that has live state: the section's item, `{}` for a
 * section the daemon does not know (a disabled interface), null for all when the bus did not answer.
 */
export async function withRuntime(ports: Ports, module: ResourceModule, bodies: JsonObject[], idOf: (body: JsonObject) => string): Promise<JsonObject[]> {
  const { runtime } = module.mapping;
  const computed = module.runtimeOf && (await module.runtimeOf());
  const byId = computed
    ? await computed(bodies, { read: (pkg) => readPackage(ports, pkg), file: (path) => ports.readFile(path), now: Math.floor(ports.now() / 1000) })
    : runtime && runtimeById(ports, runtime);
  // Loaded only for a source that asks again about each section read.
  if (runtime?.each && byId) (await import('./runtime-each.js')).askEach(ports, runtime.each, bodies.map(idOf), byId);
  return bodies.map((body) => ({ ...body, runtime: byId === undefined ? null : (byId.get(idOf(body)) ?? {}) }));
}
