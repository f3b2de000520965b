import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { documentedRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { resolve, schemaValue, seeded, type Random, type Schema } from '../support/schema-values.js';
import { installDaemons } from '../support/daemons.js';

// A client that builds its requests from /openapi.json alone, as generated SDKs and property-based
// testers do: every request the document calls valid is served, or refused with 400 or 422 only by a
// rule the operation's description (or its path's, or the parameter's) states. Another status is the client's to
// handle (404 for an id that names nothing, 409, 412 for a stale ETag, 403 for an escalation).
const SEED = Number(process.env.WRTAPI_SEED ?? 20261126);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Operation {
  template: string;
  method: string;
  spec: Schema;
  /** What the path item states for all its operations. */
  pathDescription?: string;
  parameters: Schema[];
  /** The Request schema of the resource, for JSON Patch documents built from its fields. */
  resource?: Schema;
}

let router: Router;
let document: Schema;
let authorization: string;
test.before(async () => {
  ({ router, document, authorization } = await documentedRouter('generated_requests_admin'));
  // The daemon packages too: without them every write to their resources is 503 (test/api/snmpd.test.ts).
  installDaemons(router);
});
test.after(async () => {
  await router.cleanup();
});

function operations(): Operation[] {
  return Object.entries(document.paths as Record<string, Schema>).flatMap(([template, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      template,
      method,
      spec: item[method],
      pathDescription: item.description,
      parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map((parameter: Schema) => resolve(document, parameter)),
      resource: item.put?.requestBody?.content['application/json'].schema,
    })),
  );
}

/** Every string the router's resources hold now: zone names, addresses and ids to draw from. */
async function pool(): Promise<{ strings: string[]; ids: Map<string, string[]> }> {
  const strings = new Set<string>();
  const ids = new Map<string, string[]>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const template of Object.keys(document.paths)) {
    // A collection whose path has another parameter (a raw package) has nothing to list as such.
    if (!document.paths[`${template}/{id}`] || template.includes('{')) continue;
    const listed = await router.request({ method: 'GET', path: template, headers: { authorization } });
    assert.is(listed.status, 200, listed.body);
    collect(listed.json);
    ids.set(template, ((listed.json as { id: string }[]) ?? []).map((item) => item.id));
  }
  return { strings: [...strings], ids };
}

/** A JSON Patch of one to three operations on the resource's own fields, with values of their schemas. */
function jsonPatch(random: Random, strings: string[], resource: Schema): Schema[] {
  const fields: [string, Schema][] = [];
  for (const [name, property] of Object.entries(resolve(document, resource).properties as Record<string, Schema>)) {
    const inner = resolve(document, property).properties as Record<string, Schema> | undefined;
    if (inner) for (const [field, schema] of Object.entries(inner)) fields.push([`/${name}/${field}`, schema]);
    else if (name !== 'id') fields.push([`/${name}`, property]);
  }
  return Array.from({ length: random.int(1, 3) }, () => {
    const [path, schema] = random.pick(fields);
    const op = random.pick(['add', 'replace', 'remove', 'test']);
    return op === 'remove' ? { op, path } : { op, path, value: schemaValue(document, random, strings, schema) };
  });
}

function requestFor(random: Random, operation: Operation, known: { strings: string[]; ids: Map<string, string[]> }): RequestOptions & { jsonPatch?: boolean } {
  const value = (schema: Schema) => schemaValue(document, random, known.strings, schema);
  let path = operation.template;
  const query: Record<string, string> = {};
  const headers: Record<string, string> = { authorization };
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      const existing = parameter.name === 'id' ? known.ids.get(operation.template.replace(/\/\{id\}.*$/, '')) ?? [] : [];
      const chosen = existing.length && random.chance(0.7) ? random.pick(existing) : String(value(parameter.schema));
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(chosen));
    } else if (parameter.name === 'confirm_within') {
      // An armed change refuses every other write (423) until it is confirmed or its deadline
      // passes: a client arms one only with its confirmation to follow (test/api/openapi-confirm.test.ts).
      continue;
    } else if (parameter.required || random.chance(0.3)) {
      (parameter.in === 'query' ? query : headers)[parameter.name] = String(value(parameter.schema));
    }
  }
  const content = operation.spec.requestBody?.content as Record<string, Schema> | undefined;
  if (!content) return { method: operation.method.toUpperCase(), path, query, headers };
  const type = random.pick(Object.keys(content));
  if (type === 'application/json-patch+json') {
    headers['content-type'] = type;
    return { method: 'PATCH', path, query, headers, body: JSON.stringify(jsonPatch(random, known.strings, operation.resource!)), jsonPatch: true };
  }
  return { method: operation.method.toUpperCase(), path, query, headers, body: value(content[type].schema) };
}

/** Why a refusal breaks the document's promise, or undefined when it keeps it. */
function unstated(operation: Operation, request: RequestOptions & { jsonPatch?: boolean }, response: Response): string | undefined {
  const label = `${request.method} ${request.path}?${new URLSearchParams(request.query)} ${typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null)}`;
  if (response.status >= 500) return `${label}: ${response.status} ${response.body}`;
  if (response.status !== 400 && response.status !== 422) return undefined;
  const answer = response.json as { code: string; errors?: { field: string; code: string }[] };
  const stated = [operation.pathDescription ?? '', operation.spec.description ?? '', ...operation.parameters.filter((parameter) => request.query?.[parameter.name] !== undefined).map((parameter) => parameter.description ?? '')].join('\n');
  if (response.status === 400) return answer.code === 'invalid_cursor' && stated.includes('`invalid_cursor`') ? undefined : `${label}: ${response.body}`;
  // A JSON Patch may remove a field the resource's schema requires: the schema states that one.
  const required: string[] = operation.resource ? resolve(document, operation.resource).required ?? [] : [];
  const unexplained = (answer.errors ?? []).filter(({ field, code }) => {
    if (request.jsonPatch && field === '' && code === 'conflict') return !stated.includes('names nothing answers 422 `conflict`');
    if (request.jsonPatch && code === 'required' && required.includes(field)) return false;
    return !stated.includes(`\`${field.replace(/\[\d+\]/g, '')}\``);
  });
  return unexplained.length ? `${label}: ${response.body}` : undefined;
}

test('requests generated from /openapi.json are served, or refused only by a rule the document states', async () => {
  const random = seeded(SEED);
  const rounds = router.engine === 'native' ? 6 : 2;
  const failures: string[] = [];
  const served = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    const known = await pool();
    for (const operation of operations()) {
      const request = requestFor(random, operation, known);
      const response = await router.request(request);
      const failure = unstated(operation, request, response);
      if (failure) failures.push(failure);
      if (response.status < 300) served.set(request.method, (served.get(request.method) ?? 0) + 1);
    }
  }
  assert.equal(failures, [], `seed ${SEED}`);
  // Not only refusals: the generated writes reach the router too (the slow engine repeats too few
  // requests to be sure of one of each).
  if (router.engine === 'native') for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) assert.ok((served.get(method) ?? 0) > 0, `no ${method} was served: ${JSON.stringify([...served])}`);
});

test.run();
