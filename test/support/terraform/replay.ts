// What uapi's Terraform provider does for a resource, as requests against an emulated router: the
// lifecycle `terraform apply`, `plan`, `import` and `destroy` drive, with the provider's encoding of
// writes (internal/provider/helpers.go put*: known non-null attributes only, integers as numbers,
// lists as arrays, `match` always sent) and its decoding of reads (*Val: a member of another JSON type
// reads as null or as its %v text, so it is drift). Each step throws with what Terraform would report.
import { readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import type { Json, JsonObject } from '../../../src/resources/model.js';
import type { Response, Router } from '../router.js';
import type { ReplayCase } from './case.js';
import { provider3, runtimes, type Attribute, type ProviderResource } from './provider3.js';

type State = Record<string, Json>;

export function providerResource(name: string): ProviderResource {
  const found = provider3.find((resource) => resource.resource === name);
  if (!found) throw new Error(`${name} is no resource of provider 3.0`);
  return found;
}

/** Why a read member would not decode to the provider's type, or undefined when it does. */
function typeProblem(attribute: Attribute, value: Json | undefined, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const ok =
    attribute.type === 'string' ? typeof value === 'string'
    : attribute.type === 'boolean' ? typeof value === 'boolean'
    : attribute.type === 'integer' ? Number.isInteger(value)
    : attribute.type === 'list' ? Array.isArray(value) && value.every((item) => typeof item === 'string')
    : attribute.type === 'object' ? typeof value === 'object' && !Array.isArray(value)
    : true;
  return ok ? undefined : `${where} reads ${JSON.stringify(value)}, where the provider decodes a ${attribute.type}`;
}

/**
 * The data source's `runtime`, for the two resources whose data source reads one: every member it
 * decodes must have its type. `expected` names members that must be there (an interface that is up).
 */
export function runtimeProblems(resource: string, body: JsonObject, expected: string[] = []): string[] {
  const members = runtimes[resource];
  if (!members) return [];
  const runtime = body.runtime;
  if (runtime === null || typeof runtime !== 'object' || Array.isArray(runtime)) return [`runtime reads ${JSON.stringify(runtime)}, where the data source decodes an object`];
  const problems = expected.filter((name) => runtime[name] === undefined || runtime[name] === null).map((name) => `runtime.${name} is missing`);
  for (const [name, member] of Object.entries(members)) {
    const value = runtime[name];
    if (typeof member === 'string') {
      const problem = typeProblem({ type: member, use: 'computed' }, value, `runtime.${name}`);
      if (problem) problems.push(problem);
      continue;
    }
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      problems.push(`runtime.${name} reads ${JSON.stringify(value)}, where the data source decodes a list`);
      continue;
    }
    value.forEach((item, index) => {
      for (const [inner, type] of Object.entries(member.items)) {
        const problem = typeProblem({ type, use: 'computed' }, (item as JsonObject)?.[inner], `runtime.${name}.${index}.${inner}`);
        if (problem) problems.push(problem);
      }
    });
  }
  return problems;
}

/** The state the provider keeps from a read: its attributes only; a list read as null is [], as listVal makes it. */
export function decode(attributes: Record<string, Attribute>, body: JsonObject, where = ''): State {
  const state: State = {};
  const problems: string[] = [];
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.use === 'secret') continue;
    const value = body[name];
    const problem = typeProblem(attribute, value, where + name);
    if (problem) problems.push(problem);
    if (attribute.type === 'object') state[name] = decode(attribute.attributes ?? {}, (value as JsonObject | undefined) ?? {}, `${where}${name}.`);
    else if (attribute.type === 'list') state[name] = (value as Json[] | null | undefined) ?? [];
    else state[name] = value ?? null;
  }
  if (problems.length) throw new Error(problems.join('; '));
  return state;
}

/** What the provider sends for a planned model: known, non-null, writable attributes; `id` on create only. */
export function encode(attributes: Record<string, Attribute>, plan: State, create: boolean): JsonObject {
  const body: JsonObject = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.use === 'computed' || ((name === 'id' || attribute.createOnly) && !create)) continue;
    const value = plan[name];
    if (attribute.type === 'object') body[name] = encode(attribute.attributes ?? {}, (value as State | undefined) ?? {}, create);
    else if (value !== undefined && value !== null) body[name] = value;
  }
  return body;
}

/** Terraform's "inconsistent result after apply": a configured value that reads back otherwise. */
function assertApplied(attributes: Record<string, Attribute>, config: JsonObject, state: State, what: string, where = ''): void {
  for (const [name, value] of Object.entries(config)) {
    const attribute = attributes[name];
    if (!attribute) throw new Error(`${what}: ${where}${name} is no attribute of the provider's resource`);
    if (attribute.use === 'secret' || value === null) continue;
    if (attribute.type === 'object') assertApplied(attribute.attributes ?? {}, value as JsonObject, state[name] as State, what, `${where}${name}.`);
    else assert.equal(state[name], value, `${what}: ${where}${name} was set to ${JSON.stringify(value)} and reads back ${JSON.stringify(state[name])}`);
  }
}

/** The plan of an edit: the prior state, the configuration's secrets, the edit; null leaves an optional+computed value as it was. */
function planOf(attributes: Record<string, Attribute>, state: State, config: JsonObject, edit: JsonObject): State {
  const plan: State = { ...state };
  for (const [name, value] of Object.entries({ ...config, ...edit })) {
    const attribute = attributes[name];
    if (attribute?.type === 'object' && value !== null) plan[name] = planOf(attribute.attributes ?? {}, (state[name] as State) ?? {}, (config[name] as JsonObject) ?? {}, (edit[name] as JsonObject) ?? {});
    else if (value !== null) plan[name] = value;
    else if (attribute?.use === 'clear' || attribute?.use === 'secret') delete plan[name];
  }
  return plan;
}

/** The provider takes any 2xx as success (internal/client/client.go); `status` is what wrtapi answers. */
function expectStatus(response: Response, status: number, what: string): JsonObject {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.body}`);
  return response.json as JsonObject;
}

/** A provider write with a known ETag sends it twice: as If-Match and as `?if_match=` (uhttpd drops the header). */
function conditional(etag: string | undefined): { headers?: Record<string, string>; query?: Record<string, string> } {
  return etag ? { headers: { 'If-Match': etag }, query: { if_match: etag } } : {};
}

export interface ReplayClient {
  router: Router;
  authorization: string;
}

async function send(client: ReplayClient, method: string, path: string, extra: { body?: JsonObject; headers?: Record<string, string>; query?: Record<string, string> } = {}): Promise<Response> {
  return client.router.request({ method, path: `/${path.replace(/^\//, '')}`, body: extra.body, query: extra.query, headers: { Authorization: client.authorization, ...extra.headers } });
}

/** The configuration file of a collection's package, which every collection's domain names. */
function packageText(client: ReplayClient, resource: ProviderResource): string {
  return readFileSync(client.router.path(`/etc/config/${resource.path.split('/')[0]}`), 'utf8');
}

/** The state after create, for a configuration that refers to it (the README's), and the id. */
export interface Applied {
  state: State;
  etag?: string;
  path: string;
}

/** create: POST a collection or PATCH a singleton; the answer must hold what the configuration set. */
export async function create(client: ReplayClient, resource: ProviderResource, config: JsonObject, what: string): Promise<Applied> {
  const body = encode(resource.attributes, config, true);
  const collection = resource.kind === 'collection';
  const response = await send(client, collection ? 'POST' : 'PATCH', resource.path, { body, headers: { 'Idempotency-Key': randomKey() } });
  const state = decode(resource.attributes, expectStatus(response, 200, `${what}: create`), `${what}: create: `);
  assertApplied(resource.attributes, config, state, `${what}: create`);
  if (collection) assert.match(packageText(client, resource), new RegExp(`^config \\S+ '${String(state.id)}'$`, 'm'), `${what}: the created section is on disk`);
  const path = collection ? `${resource.path}/${String(state.id)}` : resource.path;
  return { state, etag: response.headers.etag, path };
}

function randomKey(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** refresh: the read must decode to the state Terraform holds, or the next plan shows a diff. */
async function refresh(client: ReplayClient, resource: ProviderResource, applied: Applied, what: string): Promise<Applied> {
  const response = await send(client, 'GET', applied.path);
  const state = decode(resource.attributes, expectStatus(response, 200, `${what}: refresh`), `${what}: refresh: `);
  assert.equal(state, applied.state, `${what}: a refresh reads otherwise than the apply did, so the plan shows a diff`);
  return { ...applied, etag: response.headers.etag };
}

/** `terraform plan` after an apply: the refresh reads what the state holds, and the configuration asks for nothing else. */
export async function plan(client: ReplayClient, resource: ProviderResource, applied: Applied, config: JsonObject, what: string): Promise<void> {
  const refreshed = await refresh(client, resource, applied, what);
  assertApplied(resource.attributes, config, refreshed.state, `${what}: plan`);
}

/** The whole lifecycle of one case; resolves when every step held. */
export async function replay(client: ReplayClient, test: ReplayCase): Promise<void> {
  const resource = providerResource(test.resource);
  const what = `${test.resource}${test.title ? ` (${test.title})` : ''}`;
  const undo: string[] = [];
  try {
    for (const step of test.setup ?? []) {
      const response = await send(client, step.method, step.path, { body: step.body });
      if (response.status >= 300) throw new Error(`${what}: setup ${step.method} ${step.path}: ${response.status} ${response.body}`);
      const id = (response.json as JsonObject | undefined)?.id;
      if (step.method === 'POST' && typeof id === 'string') undo.unshift(`${step.path}/${id}`);
    }
    let applied = await create(client, resource, test.create, what);
    applied = await refresh(client, resource, applied, what);

    // update: the plan is the prior state with the edit applied; a collection PUTs it whole with If-Match.
    const plan = planOf(resource.attributes, applied.state, test.create, test.update);
    const collection = resource.kind === 'collection';
    const response = await send(client, collection ? 'PUT' : 'PATCH', applied.path, { body: encode(resource.attributes, plan, false), ...conditional(applied.etag) });
    const state = decode(resource.attributes, expectStatus(response, 200, `${what}: update`), `${what}: update: `);
    assertApplied(resource.attributes, Object.fromEntries(Object.entries(plan).filter(([name]) => resource.attributes[name]?.use !== 'computed')), state, `${what}: update`);
    applied = await refresh(client, resource, { ...applied, state, etag: response.headers.etag }, what);

    if (collection) {
      // import of what it created: a GET; the section is managed already, so no adopt.
      const imported = expectStatus(await send(client, 'GET', applied.path), 200, `${what}: import`);
      assert.is(imported.managed, true, `${what}: a section created through the API reads managed`);
      const removed = await send(client, 'DELETE', applied.path, conditional(applied.etag));
      expectStatus(removed, 204, `${what}: destroy`);
      assert.is((await send(client, 'GET', applied.path)).status, 404, `${what}: a destroyed resource reads 404, which drops it from state`);
      const id = String(applied.state.id);
      assert.not.ok(new RegExp(`^config \\S+ '${id}'$`, 'm').test(packageText(client, resource)), `${what}: the destroyed section ${id} is gone from the file`);
    }
    if (test.imports) await importStock(client, resource, test.imports, what);
  } finally {
    for (const path of undo) await send(client, 'DELETE', path);
  }
}

/** `terraform import` of a stock section: GET, adopt when unmanaged, then the read the provider keeps. */
async function importStock(client: ReplayClient, resource: ProviderResource, id: string, what: string): Promise<void> {
  const path = `${resource.path}/${id}`;
  const found = expectStatus(await send(client, 'GET', path), 200, `${what}: import ${id}`);
  decode(resource.attributes, found, `${what}: import ${id}: `);
  const problems = runtimeProblems(resource.resource, found);
  if (problems.length) throw new Error(`${what}: data source ${id}: ${problems.join('; ')}`);
  if (found.managed !== false) return;
  const adopted = expectStatus(await send(client, 'POST', `${path}/adopt`), 200, `${what}: adopt ${id}`);
  assert.is(adopted.managed, true, `${what}: adopted`);
  const state = decode(resource.attributes, adopted, `${what}: adopt: `);
  const again = decode(resource.attributes, expectStatus(await send(client, 'GET', `${resource.path}/${String(adopted.id)}`), 200, `${what}: read after import`), `${what}: read after import: `);
  assert.equal(again, state, `${what}: the read after import differs from the adopt's answer`);
}
