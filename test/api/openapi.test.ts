import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { textPattern } from '../../build/generators/patterns.js';
import { docOf } from '../../build/generators/docs.js';
import { loadResources } from '../../build/generators/inventory.js';
import { fixedDocument } from '../../build/generators/openapi-fixed.js';
import { TEXT } from '../../build/generators/openapi-text.js';
import { openapiDocument } from '../../src/openapi/document.js';
import { schemaProperties } from '../../src/openapi/members.js';
import { sayer } from '../../src/handlers/document.js';
import { allResources } from '../../src/engine/tables.js';
import { newRouter, type Response, type Router } from '../support/router.js';
import { resolve } from '../support/schema-values.js';

const RESOURCES = await allResources();

type Body = Record<string, any>;

const { version } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };

// `router` has wrtapi-doc installed and serves the described `document`; `bare` has wrtapi alone.
let router: Router;
let document: Body;
let bare: Router;
let bareDocument: Body;
test.before(async () => {
  router = await newRouter({ doc: true });
  const response = await router.request({ method: 'GET', path: '/openapi.json' });
  assert.is(response.status, 200, response.body);
  document = response.json as Body;
  bare = await newRouter();
  const bareResponse = await bare.request({ method: 'GET', path: '/openapi.json' });
  assert.is(bareResponse.status, 200, bareResponse.body);
  bareDocument = bareResponse.json as Body;
});
test.after(async () => {
  await router.cleanup();
  await bare.cleanup();
});

/** Checks a live answer against a schema whose references point into the served document. */
function conforms(response: Response, schema: Body): void {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/')));
  assert.ok(validate(response.json), `${response.body}\n${JSON.stringify(validate.errors)}`);
}

test('GET /openapi.json: a valid OpenAPI 3.1 document, served without a token and without security headers', async () => {
  const response = await router.request({ method: 'GET', path: '/openapi.json' });
  assert.is(response.status, 200);
  // The first fetch assembled the document and kept it in /tmp; this one wrote that copy's bytes out.
  const kept = readdirSync(router.path('/tmp')).filter((name) => /^wrtapi-openapi\.[0-9a-f]+\.json$/.test(name));
  assert.is(kept.length, 1);
  assert.is(response.body, readFileSync(router.path(`/tmp/${kept[0]}`), 'utf8'));
  assert.equal(response.json, document);
  assert.is(response.headers['content-type'], 'application/json');
  assert.is(response.headers['strict-transport-security'], undefined);
  // ASCII only, which QuickJS holds at a byte a character (src/handlers/openapi.ts).
  assert.ok(/^[\x20-\x7e]*$/.test(response.body), `not ASCII: ${/[^\x20-\x7e]/.exec(response.body)?.[0]}`);
  const validator = new Validator();
  const result = await validator.validate(document);
  assert.ok(result.valid, JSON.stringify(result.errors));
  assert.is(validator.version, '3.1');
  assert.is(document.info.version, version);
  assert.equal(document.security, [{ bearer: [] }]);
  assert.equal(document.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', description: document.components.securitySchemes.bearer.description });
});

test('every component schema is JSON Schema 2020-12 whose references resolve, with wrtapi-doc or without', () => {
  for (const served of [document, bareDocument]) {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(served, 'openapi.json');
    for (const name of Object.keys(served.components.schemas)) {
      assert.ok(ajv.validateSchema(served.components.schemas[name]), `${name}: ${JSON.stringify(ajv.errors)}`);
      ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
    }
  }
});

/** The value without its prose: every description and summary gone, but a response's, which is required: ''. */
function withoutProse(value: unknown, response = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutProse(item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, member]) => !((key === 'description' || key === 'summary') && typeof member === 'string') || (response && key === 'description'))
      .map(([key, member]) => [
        key,
        key === 'description' && typeof member === 'string' ? '' : key === 'responses' ? Object.fromEntries(Object.entries(member as Body).map(([status, answer]) => [status, withoutProse(answer, true)])) : withoutProse(member),
      ]),
  );
}

/** The rules the core states without wrtapi-doc: a field's `when`, and a resource write's checks, references and undeletable ids. */
const RULE = /^Only while |^Beyond the schema, |^Refused with 409 `conflict` /;

/** Every description (not empty) and summary a value states, with the keys that lead to it. */
function statedProse(value: unknown, at: string[] = []): [string[], string][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) =>
    (key === 'description' || key === 'summary') && typeof member === 'string' ? (member ? [[[...at, key], member] as [string[], string]] : []) : statedProse(member, [...at, key]),
  );
}

test('without wrtapi-doc: a valid OpenAPI 3.1 document, the described one without its prose but for the rules the definitions declare', async () => {
  const result = await new Validator().validate(bareDocument);
  assert.ok(result.valid, JSON.stringify(result.errors));
  assert.equal(withoutProse(bareDocument), withoutProse(document));
  const stated = statedProse(bareDocument);
  assert.equal(stated.filter(([, text]) => !RULE.test(text)), []);
  assert.ok(stated.some(([, text]) => text.startsWith('Beyond the schema, ')) && stated.some(([, text]) => text.startsWith('Only while ')));
  // Each rule is stated where the described document states it, with the prose around it there.
  assert.equal(stated.filter(([keys, text]) => !String(keys.reduce((inner: any, key) => inner?.[key], document)).includes(text)), []);
});

const inventory = (await loadResources()).map(({ definition }) => definition);
const sourceDocs = inventory.map((definition) => docOf(definition, inventory));

test('with wrtapi-doc: the document assembled straight from the sources with all their prose, byte for byte, and every description they hold', async () => {
  const response = await router.request({ method: 'GET', path: '/openapi.json' });
  const fixed = fixedDocument(version);
  assert.is(response.body, JSON.stringify(openapiDocument(sourceDocs, fixed, sayer(TEXT))));
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (value !== null && typeof value === 'object') for (const [key, member] of Object.entries(value)) if (key === 'description' || key === 'summary' || typeof member === 'object') collect(member);
  };
  collect(sourceDocs.map(({ description, members }) => ({ description, members })));
  collect(fixed);
  // An operation of the fixed part is kept as operation()'s arguments, its summary first.
  for (const item of Object.values(fixed.paths)) for (const value of Object.values(item)) if (Array.isArray(value)) texts.push(value[0]);
  texts.push(...Object.values(TEXT).flatMap((text) => text.split('%s')));
  const missing = texts.filter((text) => text && !response.body.includes(JSON.stringify(text).slice(1, -1)));
  assert.equal(missing, []);
});

test('/schema/<key> states the same descriptions with wrtapi-doc, and none without', async () => {
  for (const [index, entry] of RESOURCES.entries()) {
    const key = entry.path.includes('/') ? entry.path : `${entry.path}/${entry.type}`;
    const described = await router.request({ method: 'GET', path: `/schema/${key}` });
    assert.is(described.body, JSON.stringify({ key, schema_properties: schemaProperties(sourceDocs[index], sayer(TEXT)) }), key);
    const alone = await bare.request({ method: 'GET', path: `/schema/${key}` });
    const properties = (alone.json as Body).schema_properties;
    assert.equal(withoutProse(properties), withoutProse((described.json as Body).schema_properties), key);
    assert.equal(statedProse(properties).filter(([, text]) => !RULE.test(text)), [], key);
  }
  const keys = await bare.request({ method: 'GET', path: '/schema/system/authorized_keys' });
  assert.equal(statedProse(keys.json), []);
  assert.match((await router.request({ method: 'GET', path: '/schema/system/authorized_keys' })).body, `"description":"${TEXT.keyId}"`);
});

test('each curated resource has its operations, and its request, patch and response schemas', () => {
  const paths = document.paths as Body;
  const schemas = document.components.schemas as Body;
  for (const resource of RESOURCES) {
    const path = `/${resource.path}`;
    const title = resource.path
      .split(/[/_-]/)
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join('');
    if (resource.kind === 'view') {
      // Read-only: GET only, no request schemas, no adopt route, the skipped lines declared.
      assert.ok(schemas[title], title);
      assert.is(schemas[`${title}Request`], undefined);
      assert.is(schemas[`${title}Patch`], undefined);
      assert.equal(Object.keys(paths[path]).filter((key) => key !== 'description'), ['get']);
      assert.equal(Object.keys(paths[`${path}/{id}`]).filter((key) => key !== 'parameters'), ['get']);
      assert.is(paths[`${path}/{id}/adopt`], undefined);
      assert.equal(Object.keys(paths[path].get.responses[200].headers), ['X-Request-Id', 'Link', 'X-Next-Cursor', 'X-Skipped-Lines']);
      assert.ok(document.components.headers.XSkippedLines, 'X-Skipped-Lines');
      assert.ok(Object.values(schemas[title].properties).every((property: any) => property.readOnly), `${title}: every member read-only`);
      assert.equal(schemas[title].required, ['id', ...Object.keys(schemas[title].properties).filter((name) => name !== 'id')]);
      continue;
    }
    assert.ok(schemas[title] && schemas[`${title}Request`] && schemas[`${title}Patch`], title);
    const item = resource.kind === 'collection' ? paths[`${path}/{id}`] : paths[path];
    assert.equal(Object.keys(item.patch.requestBody.content), ['application/json', 'application/json-patch+json']);
    if (resource.kind === 'collection') {
      assert.equal(Object.keys(paths[path]).filter((key) => key !== 'description'), ['get', 'post']);
      assert.equal(Object.keys(item).filter((key) => key !== 'parameters'), ['get', 'put', 'patch', 'delete']);
      assert.ok(paths[`${path}/{id}/adopt`].post, `${path} adopt`);
    } else {
      assert.equal(Object.keys(item).filter((key) => key !== 'description'), ['get', 'put', 'patch']);
    }
    for (const member of ['managed', 'runtime']) {
      assert.is(resolve(document, schemas[`${title}Request`]).properties[member], undefined, `${title}Request.${member}`);
      assert.is(schemas[`${title}Patch`].properties[member], undefined, `${title}Patch.${member}`);
    }
    const readOnly = resource.kind === 'collection' ? ['managed', 'runtime'] : ['runtime'];
    for (const member of readOnly) assert.is(schemas[title].properties[member].readOnly, true, `${title}.${member}`);
  }
});

test('forwardings: read-nullable fields admit null in both halves, required ones stay required on write', () => {
  const { FirewallForwardings: response } = document.components.schemas as Body;
  const request = resolve(document, document.components.schemas.FirewallForwardingsRequest);
  assert.equal(response.properties.family.type, ['string', 'null']);
  assert.equal(response.properties.family.enum, ['any', 'ipv4', 'ipv6', null]);
  assert.equal(request.properties.family.enum, ['any', 'ipv4', 'ipv6', null]);
  assert.equal(response.properties.enabled.type, ['boolean', 'null']);
  assert.equal(response.properties.src.type, ['string', 'null'], 'a UCI list where an option belongs reads as null');
  assert.is(request.properties.src.type, 'string');
  assert.equal(request.required, ['src', 'dest']);
  assert.equal(response.required, ['id', 'managed']);
});

test('a DELETE the engine refuses for a section is stated: uhttpd\'s main instance', () => {
  assert.match(document.paths['/uhttpd/instances/{id}'].delete.description, 'Refused with 409 `conflict` for `main`: uhttpd serves this API through instance main.');
  assert.is(document.paths['/uhttpd/certs/{id}'].delete.description, undefined);
});

test('query fallbacks, response headers and the error envelope are declared', () => {
  const parameters = document.components.parameters as Body;
  const names = (refs: Body[]) => refs.map((ref) => parameters[ref.$ref.split('/').pop()]).map((parameter) => `${parameter.in}:${parameter.name}`);
  const item = document.paths['/firewall/forwardings/{id}'];
  const write = ['query:dry_run', 'query:confirm_within', 'query:confirm_id', 'header:X-Request-Id', 'query:request_id'];
  assert.equal(names(item.put.parameters), ['header:If-Match', 'query:if_match', 'header:If-None-Match', 'query:if_none_match', ...write]);
  assert.equal(names(document.paths['/firewall/forwardings'].post.parameters), ['header:Idempotency-Key', 'query:idempotency_key', ...write]);
  assert.equal(names(document.paths['/firewall/forwardings'].get.parameters).slice(0, 3), ['query:managed', 'query:cursor', 'query:limit']);
  assert.equal(Object.keys(item.put.responses), ['200', '400', '401', '403', '404', '409', '412', '422', '423', '429', '500', '503']);
  assert.equal(Object.keys(item.get.responses), ['200', '304', '400', '401', '403', '404', '429', '500', '503']);
  assert.equal(Object.keys(item.put.responses[200].headers), [
    'X-Request-Id', 'ETag', 'X-Reload-Status', 'X-Reload-Services', 'X-Kernel-Status', 'X-Kernel-Applied', 'X-Confirm-Id', 'X-Confirm-Deadline', 'X-Dry-Run',
  ]);
  assert.equal(Object.keys(document.paths['/firewall/forwardings'].get.responses[200].headers), ['X-Request-Id', 'Link', 'X-Next-Cursor']);
  const error = document.components.schemas.Error;
  assert.equal(error.required, ['code', 'message', 'request_id']);
  assert.ok(error.properties.code.enum.includes('unsupported_media_type'));
  assert.is(error.properties.code.enum.length, 23);
  assert.equal(Object.keys(error.properties), ['code', 'message', 'request_id', 'errors', 'reload_error', 'restore_error', 'aborted_at_index', 'error', 'reverted', 'confirm_id', 'expires_at']);
  assert.equal(document.components.schemas.FieldError.required, ['field', 'code', 'message']);
  for (const path of ['/healthz', '/auth/whoami', '/metrics', '/diagnostics', '/tokens', '/tokens/{name}', '/openapi.json', '/schema', '/schema/{package}/{resource}']) {
    assert.ok(document.paths[path], path);
  }
  assert.equal(document.paths['/healthz'].get.security, []);
  // The pipeline honours an Idempotency-Key on every POST, so every POST declares it.
  const posts = Object.entries(document.paths as Record<string, Body>).filter(([, item]) => item.post);
  const undeclared = posts.filter(([, item]) => !(item.post.parameters ?? []).some((parameter: Body) => parameter.$ref === '#/components/parameters/IdempotencyKeyQuery')).map(([path]) => path);
  assert.equal(undeclared, []);
});

test('every configuration write declares dry_run and its answer, and no other operation does; a live dry run conforms', async () => {
  const DRY_RUN = '#/components/parameters/DryRun';
  const declared: string[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Body>)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (!item[method]) continue;
      if (!(item[method].parameters ?? []).some((parameter: Body) => parameter.$ref === DRY_RUN)) continue;
      declared.push(`${method} ${path}`);
      const answer = item[method].responses[200];
      assert.ok(answer.$ref === '#/components/responses/DryRun' || answer.content['application/json'].schema.anyOf[1].$ref === '#/components/schemas/DryRun', `${method} ${path}`);
    }
  }
  const writes = RESOURCES.filter((entry) => entry.kind !== 'view').flatMap(({ path, kind }) =>
    kind === 'singleton' ? [`put /${path}`, `patch /${path}`] : [`post /${path}`, `put /${path}/{id}`, `patch /${path}/{id}`, `delete /${path}/{id}`, `post /${path}/{id}/adopt`],
  );
  const others = ['post /batch', 'post /raw/{package}', 'put /raw/{package}/{id}', 'patch /raw/{package}/{id}', 'delete /raw/{package}/{id}'];
  assert.equal(declared.sort(), [...writes, ...others].sort());
  const authorization = `Bearer ${await router.mint('dry', ['firewall:rw'])}`;
  const tried = await router.request({ method: 'POST', path: '/firewall/forwardings?dry_run=true', headers: { authorization }, body: { src: 'lan', dest: 'wan' } });
  assert.is(tried.status, 200, tried.body);
  conforms(tried, document.paths['/firewall/forwardings'].post.responses[200].content['application/json'].schema);
  conforms(tried, { $ref: '#/components/schemas/DryRun' });
});

test('GET /schema lists every resource key; /schema/firewall/forwardings answers its properties as one set', async () => {
  const index = await router.request({ method: 'GET', path: '/schema' });
  assert.is(index.status, 200);
  assert.match(index.headers['strict-transport-security'], /max-age/);
  const keys = RESOURCES.map(({ path, type }) => (path.includes('/') ? path : `${path}/${type}`));
  // system/authorized_keys is no UCI resource: its schema is written in src/openapi/authorized-keys.ts.
  assert.equal((index.json as Body).resources, [...keys, 'system/authorized_keys']);
  conforms(index, { $ref: '#/components/schemas/SchemaIndex' });

  const one = await router.request({ method: 'GET', path: '/schema/firewall/forwardings' });
  assert.is(one.status, 200);
  conforms(one, { $ref: '#/components/schemas/ResourceSchema' });
  const { key, schema_properties: properties } = one.json as Body;
  assert.is(key, 'firewall/forwardings');
  assert.equal(Object.keys(properties), ['id', 'managed', 'runtime', 'name', 'src', 'dest', 'family', 'enabled']);
  assert.is(properties.managed.readOnly, true);
  assert.is(properties.runtime.readOnly, true);
  assert.is(properties.family['x-uapi-read-nullable'], true);
  assert.is(properties.src['x-uapi-read-nullable'], true);

  const missing = await router.request({ method: 'GET', path: '/schema/firewall/nothing' });
  assert.is(missing.status, 404);
  conforms(missing, { $ref: '#/components/responses/NotFound/content/application~1json/schema' });
});

test('live answers conform to the document: /healthz and a forwardings list', async () => {
  conforms(await router.request({ method: 'GET', path: '/healthz' }), { $ref: '#/components/schemas/Health' });
  const authorization = `Bearer ${await router.mint('reader', ['*:ro'])}`;
  const list = await router.request({ method: 'GET', path: '/firewall/forwardings', headers: { authorization } });
  assert.is(list.status, 200, list.body);
  assert.ok((list.json as Body[]).length > 0);
  conforms(list, document.paths['/firewall/forwardings'].get.responses[200].content['application/json'].schema);
});

test('live answers conform to the document: /diagnostics with recent errors and a sweep that finds invalid sections', async () => {
  const firewall = router.path('/etc/config/firewall');
  const stock = readFileSync(firewall, 'utf8');
  writeFileSync(firewall, `${stock}\nconfig rule\n\toption src 'nowhere'\n\toption target 'MAYBE'\n`);
  try {
    const authorization = `Bearer ${await router.mint('diagnostics', ['*:ro'])}`;
    await router.request({ method: 'GET', path: '/firewall/rules/none', headers: { authorization } });
    const response = await router.request({ method: 'GET', path: '/diagnostics?validate=1', headers: { authorization } });
    assert.is(response.status, 200, response.body);
    const body = response.json as Body;
    assert.ok(body.recent_errors.length > 0 && body.invalid_sections.length > 0, response.body);
    conforms(response, document.paths['/diagnostics'].get.responses[200].content['application/json'].schema);
  } finally {
    writeFileSync(firewall, stock);
  }
});

/**
 * Where `served` holds everything `before` did: objects may gain members, a description may say
 * more, every other value (arrays included) is as it was. The places that differ, by their paths.
 */
/**
 * The document as it would be without issue 32: the parameters of the dry runs and of commit-confirm,
 * the dry runs' answers, and the 200's choice of one.
 */
function withoutIssue32(served: Body): Body {
  const copy = JSON.parse(JSON.stringify(served)) as Body;
  const added = ['DryRun', 'ConfirmWithin', 'ConfirmId'].map((name) => `#/components/parameters/${name}`);
  for (const item of Object.values(copy.paths as Record<string, Body>)) {
    for (const operation of Object.values(item) as Body[]) {
      if (!Array.isArray(operation?.parameters) || !operation.parameters.some((parameter: Body) => parameter.$ref === added[0])) continue;
      operation.parameters = operation.parameters.filter((parameter: Body) => !added.includes(parameter.$ref));
      const ok = operation.responses[200];
      if (ok.$ref === '#/components/responses/DryRun') delete operation.responses[200];
      else {
        ok.content['application/json'].schema = ok.content['application/json'].schema.anyOf[0];
        delete ok.headers['X-Dry-Run'];
      }
    }
  }
  return copy;
}

function losses(before: unknown, served: unknown, at = ''): string[] {
  if (served !== null && typeof served === 'object' && '$ref' in served && !(before !== null && typeof before === 'object' && '$ref' in before)) {
    return losses(before, resolve(document, served as Body), at);
  }
  if (at.endsWith('/description') && typeof before === 'string' && typeof served === 'string') return served.includes(before.replace(/\.$/, '')) ? [] : [at];
  // Every pattern now also refuses what a configuration file cannot hold (src/http/text.ts).
  if (at.endsWith('/pattern') && typeof before === 'string' && served === textPattern(before)) return [];
  if (before === null || typeof before !== 'object' || served === null || typeof served !== 'object' || Array.isArray(before) !== Array.isArray(served)) {
    return JSON.stringify(before) === JSON.stringify(served) ? [] : [at];
  }
  if (Array.isArray(before) && before.length !== (served as unknown[]).length) return [at];
  return Object.keys(before).flatMap((key) => losses((before as Body)[key], (served as Body)[key], `${at}/${key}`));
}

// Issue 29 (the Terraform dialect) took uapi's provider's shapes where the spec is silent: zones and
// defaults `network` and `output_policy` for `networks` and `output`, defaults `synflood_rate` an
// integer or `N/unit`, redirect `dest_ip` and `dest_port` inside `match`, and (the spec's scalar)
// `match.src_mac` one string. What 3.0.0 stated of them is gone by design, by resource.
const DIALECT: Record<string, RegExp> = {
  'firewall/zones': /^\/(properties\/(networks|output)|required\/\d+)$/,
  'firewall/defaults': /^\/properties\/(output|synflood_rate\/(type|pattern|description))$/,
  'firewall/redirects': /^\/(description|properties\/(dest_ip|dest_port|(target|reflection|match)\/description|match\/required|match\/properties\/src_mac\/.+))$/,
};

/** Whether a lost path is one of the dialect's changes: in the document (`key` unset) or in the /schema answer of `key`. */
function dialectChange(path: string, key?: string): boolean {
  const component = /^\/components\/schemas\/Firewall(Zones|Defaults|Redirects)(?:Request|Patch)?(\/.*)$/.exec(path);
  const [resource, rest] = key
    ? [key, path.replace(/^\/schema_properties/, '/properties')]
    : component
      ? [`firewall/${component[1].toLowerCase()}`, component[2]]
      : path === '/paths//firewall/redirects/description' ? ['firewall/redirects', '/description'] : ['', path];
  return DIALECT[resource]?.test(rest) ?? false;
}

// The documents 3.0.0 served when the build still wrote them whole; the assembled ones keep all of it
// but for what 3.0.0 stated wrongly and the codes added since.
test('the assembled /openapi.json and every /schema answer hold everything the generated 3.0.0 documents held', async () => {
  const before = JSON.parse(gunzipSync(readFileSync(new URL('../../../../test/fixtures/api/documents-3.0.0.json.gz', import.meta.url))).toString()) as Body;
  // What 3.0.0 stated wrongly: any cursor starting `c_`, one shape for every JSON Patch operation, a
  // `runtime` that is never null (it is when the bus does not answer), zone networks that may
  // name no interface (they must name one now), and a nat snat_port of 0, a rewrite to port 0
  // (1-65535 now).
  // The error codes gained `batch_partial_failure` with POST /batch. An Idempotency-Key replays
  // successes only, and lock_state names the locks held, not every lock file.
  const corrected = [
    '/components/parameters/IdempotencyKeyHeader/description',
    '/components/schemas/Diagnostics/properties/lock_state/description',
    '/components/parameters/Cursor/schema/pattern',
    // 3.0.0 held it to a pattern the server never did: an id it will not use is ignored, as the document now says.
    '/components/parameters/RequestIdHeader/description',
    '/components/parameters/RequestIdHeader/schema/pattern',
    '/components/parameters/RequestIdQuery/schema/pattern',
    '/components/schemas/JsonPatch/items/type',
    '/components/schemas/JsonPatch/items/required',
    '/components/schemas/JsonPatch/items/properties',
    '/components/schemas/Error/properties/code/enum',
    '/components/schemas/Diagnostics/properties/recent_errors/items/properties/code/enum',
    '/components/schemas/FirewallNatRequest/properties/snat_port/pattern',
    '/components/schemas/FirewallNatPatch/properties/snat_port/pattern',
    // Times are epoch seconds since issue 29, as uapi's provider reads them; 3.0.0 gave RFC 3339 strings.
    ...['Whoami/properties/expires_at', 'Whoami/properties/last_used_at', 'Token/properties/created_at', 'Token/properties/expires_at', 'Token/properties/last_used_at']
      .flatMap((at) => [`/components/schemas/${at}/type/0`, `/components/schemas/${at}/format`]),
    '/components/schemas/Diagnostics/properties/recent_errors/items/properties/ts/type',
    '/components/schemas/Diagnostics/properties/recent_errors/items/properties/ts/format',
  ];
  const runtime = /properties\/runtime\/(type|description)$|(FirewallZones\w*\/properties|^\/schema_properties)\/networks\/description$/;
  const lost = losses({ ...before.openapi, info: { ...before.openapi.info, version } }, withoutIssue32(document));
  assert.equal(lost.filter((path) => !corrected.includes(path) && !runtime.test(path) && !dialectChange(path)), []);
  for (const [key, answer] of Object.entries(before.schemas as Body)) {
    const response = await router.request({ method: 'GET', path: `/schema/${key}` });
    assert.is(response.status, 200, key);
    assert.equal(losses(answer, response.json).filter((path) => !runtime.test(path) && !dialectChange(path, key) && !(key === 'firewall/nat' && path === '/schema_properties/snat_port/pattern')), [], key);
  }
});

test.run();
