import Ajv from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mappingOf } from '../../build/generators/mappings.js';
import { docOf } from '../../build/generators/docs.js';
import { loadResources } from '../../build/generators/inventory.js';
import { halfSchema, requestRequired } from '../../src/openapi/document.js';
import { schemaProperties, withPatterns } from '../../src/openapi/members.js';
import { resourceDoc } from '../../src/openapi/resource-doc.js';
import { described, sayer } from '../../src/handlers/document.js';
import { TEXT } from '../../build/generators/openapi-text.js';
import { readFileSync } from 'node:fs';
import { docDir } from '../../shims/emu/project.js';
import { requestSchema } from '../../src/openapi/request-schemas.js';
import { schemaCheck } from '../../src/engine/schema-check.js';
import { schemaErrors } from '../../src/engine/validate.js';
import { pattern } from '../../src/generated/patterns.js';
import { allResources } from '../../src/engine/tables.js';
import { boolean, choice, field, integer, list, text } from '../../src/resources/codecs.js';
import defaults from '../../src/resources/firewall/defaults.js';
import forwardings from '../../src/resources/firewall/forwardings.js';
import nat from '../../src/resources/firewall/nat.js';
import redirects from '../../src/resources/firewall/redirects.js';
import rules from '../../src/resources/firewall/rules.js';
import zones from '../../src/resources/firewall/zones.js';
import { isGroup, type Json, type JsonSchema, type ResourceDefinition, type SchemaError } from '../../src/resources/model.js';

const RESOURCES = await allResources();

// The options the engine's checks were held to when they were ajv's: every error, no messages.
const AJV_OPTIONS = { strict: true, allErrors: true, messages: false } as const;

type Check = (body: unknown) => SchemaError[];
const checkOf = (schema: JsonSchema): Check => (body) => schemaCheck(schema, body, pattern);

function errorsOf(check: Check, body: unknown): SchemaError[] {
  const errors = check(body);
  assert.ok(errors.length, `expected ${JSON.stringify(body)} to be refused`);
  return errors;
}

function accepts(check: Check, body: unknown): void {
  assert.equal(check(body), [], JSON.stringify(body));
}

const forwardingFull = requestSchema(docOf(forwardings), 'full');
const validateFull = checkOf(forwardingFull);
const validatePatch = checkOf(requestSchema(docOf(forwardings), 'patch'));

test('forwardings, full body: required fields present, optional ones may be null', () => {
  accepts(validateFull, { src: 'lan', dest: 'wan' });
  accepts(validateFull, { src: '*', dest: 'wan', name: 'LAN out', family: 'ipv4', enabled: true });
  accepts(validateFull, { src: 'lan', dest: 'wan', name: null, family: null, enabled: null });
});

test('forwardings, full body: every missing required field at once, as `required` at the object', () => {
  assert.equal(errorsOf(validateFull, { name: 'x' }), [
    { instancePath: '', keyword: 'required', params: { missingProperty: 'src' } },
    { instancePath: '', keyword: 'required', params: { missingProperty: 'dest' } },
  ]);
});

test('forwardings, full body: null on a required field is a type error at the field', () => {
  assert.equal(errorsOf(validateFull, { src: null, dest: 'wan' }), [{ instancePath: '/src', keyword: 'type', params: { type: 'string' } }]);
});

test('forwardings: unknown top-level fields are refused, a read sent back is not', () => {
  assert.equal(errorsOf(validateFull, { src: 'lan', dest: 'wan', bogus: 1 }), [
    { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'bogus' } },
  ]);
  accepts(validateFull, { id: 'cfg0a1b2c', managed: false, runtime: { anything: [1] }, src: 'lan', dest: 'wan', enabled: true });
  accepts(validatePatch, { id: 'f_1', managed: true, runtime: null, enabled: false });
  assert.equal(errorsOf(validateFull, { id: 7, src: 'lan', dest: 'wan' }), [{ instancePath: '/id', keyword: 'type', params: { type: 'string' } }]);
});

test('forwardings: value rules carry the keyword the engine maps to a field code', () => {
  const errors = errorsOf(validateFull, { src: 'bad zone', dest: 'wan', family: 'ipx', enabled: 'yes', name: 'n'.repeat(101) });
  assert.equal(
    errors.map(({ instancePath, keyword }) => `${instancePath} ${keyword}`),
    ['/name maxLength', '/src pattern', '/family enum', '/enabled type'],
  );
  // maxLength counts code points, as ajv's ucs2length helper (inlined as ESM) does.
  accepts(validateFull, { src: 'lan', dest: 'wan', name: '\u{1F600}'.repeat(100) });
});

test('forwardings, merge-patch delta: nothing required, optional fields may be null, required ones not', () => {
  accepts(validatePatch, {});
  accepts(validatePatch, { enabled: false });
  accepts(validatePatch, { name: null, family: null, enabled: null });
  assert.equal(errorsOf(validatePatch, { src: null }), [{ instancePath: '/src', keyword: 'type', params: { type: 'string' } }]);
  assert.equal(errorsOf(validatePatch, { family: 'ipx', other: 1 }), [
    { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'other' } },
    { instancePath: '/family', keyword: 'enum', params: { allowedValues: ['any', 'ipv4', 'ipv6', null] } },
  ]);
});

const things: ResourceDefinition = {
  path: 'test/things',
  package: 'test',
  type: 'thing',
  kind: 'collection',
  reload: [],
  description: 'A definition with a group, a secret, a list and read-nullable fields.',
  members: {
    label: field(text(), { required: true }),
    port: field(integer({ minimum: 1, maximum: 65535 })),
    key: field(text(), { secret: true }),
    tags: field(list({}, { acceptsString: true })),
    match: {
      fields: {
        zone: field(text(), { required: true }),
        proto: field(choice(['tcp', 'udp'])),
        invert: field(boolean({ truthy: ['1'] })),
      },
    },
  },
};

function compiled(definition: ResourceDefinition) {
  const doc = docOf(definition);
  return { full: checkOf(requestSchema(doc, 'full')), patch: checkOf(requestSchema(doc, 'patch')) };
}

test('a group is a closed object: its required fields are required, unknown members refused', () => {
  const { full } = compiled(things);
  accepts(full, { label: 'a', match: { zone: 'lan', proto: null } });
  assert.equal(errorsOf(full, { label: 'a' }), [{ instancePath: '', keyword: 'required', params: { missingProperty: 'match' } }]);
  assert.equal(errorsOf(full, { label: 'a', match: { zone: 'lan', src_zone: 'x' } }), [
    { instancePath: '/match', keyword: 'additionalProperties', params: { additionalProperty: 'src_zone' } },
  ]);
  assert.equal(errorsOf(full, { label: 'a', match: { proto: 'tcp' } }), [{ instancePath: '/match', keyword: 'required', params: { missingProperty: 'zone' } }]);
});

test('a merge-patch delta may carry a partial group, but never clears a required field', () => {
  const { patch } = compiled(things);
  accepts(patch, { match: { proto: 'udp' } });
  accepts(patch, { port: null, match: { proto: null } });
  assert.equal(errorsOf(patch, { label: null }).map((error) => error.keyword), ['type']);
  assert.equal(errorsOf(patch, { match: null }).map((error) => error.keyword), ['type']);
  assert.equal(errorsOf(patch, { match: { bogus: 1 } }), [{ instancePath: '/match', keyword: 'additionalProperties', params: { additionalProperty: 'bogus' } }]);
});

test('a secret is accepted on write, and its presence flag from a read is tolerated', () => {
  const { full } = compiled(things);
  accepts(full, { label: 'a', key: 's3cret', has_key: true, match: { zone: 'lan' } });
  accepts(full, { label: 'a', tags: 'x y', match: { zone: 'lan' } });
  accepts(full, { label: 'a', tags: null, match: { zone: 'lan' } });
});

test('schema properties: one set, framework and read-only members marked, read-nullable fields flagged', () => {
  const properties = schemaProperties(docOf(things), sayer(TEXT)) as Record<string, Record<string, unknown>>;
  assert.equal(Object.keys(properties), ['id', 'managed', 'runtime', 'label', 'port', 'key', 'has_key', 'tags', 'match']);
  assert.is(properties.managed.readOnly, true);
  assert.is(properties.runtime.readOnly, true);
  assert.is(properties.has_key.readOnly, true);
  assert.is(properties.key.writeOnly, true);
  assert.is(properties.port['x-uapi-read-nullable'], true);
  assert.is(properties.label['x-uapi-read-nullable'], true, 'a UCI list where an option belongs reads as null');
  assert.is(properties.tags['x-uapi-read-nullable'], undefined);
  const match = properties.match.properties as Record<string, Record<string, unknown>>;
  assert.is(match.proto['x-uapi-read-nullable'], true);
  assert.is(match.invert['x-uapi-read-nullable'], true, 'even a boolean read as true only for 1 reads a UCI list as null');
});

test('OpenAPI halves: requests without read-only members, responses without secrets, null where a read may give it', () => {
  type Schema = { properties: Record<string, { type?: unknown; enum?: unknown[]; properties?: Record<string, { type?: unknown; enum?: unknown[] }> }>; required?: string[] };
  const request = halfSchema(docOf(things), 'request') as Schema;
  const patch = halfSchema(docOf(things), 'patch') as Schema;
  const response = halfSchema(docOf(things), 'response') as Schema;
  assert.equal(Object.keys(request.properties), ['id', 'label', 'port', 'key', 'tags', 'match']);
  assert.equal(request.required, ['label', 'match']);
  assert.is(request.properties.label.type, 'string');
  assert.equal(request.properties.port.type, ['integer', 'null']);
  assert.equal(request.properties.match.properties!.proto.enum, ['tcp', 'udp', null]);
  assert.is(patch.required, undefined);
  assert.is(patch.properties.label.type, 'string');
  assert.equal(patch.properties.port.type, ['integer', 'null']);
  assert.is(patch.properties.match.type, 'object');
  assert.equal(Object.keys(response.properties), ['id', 'managed', 'runtime', 'label', 'port', 'has_key', 'tags', 'match']);
  assert.equal(response.required, ['id', 'managed', 'has_key', 'tags', 'match']);
  assert.equal(response.properties.label.type, ['string', 'null']);
  assert.equal(response.properties.port.type, ['integer', 'null']);
  assert.equal(response.properties.match.properties!.proto, { type: ['string', 'null'], enum: ['tcp', 'udp', null] });
});

const DEFINITIONS = [defaults, forwardings, nat, redirects, rules, zones];

const SAMPLES: Json[] = [
  null, true, 0, 1, -1, 65536, 4294967296, 1.5, '', 'x', '*', 'lan', 'bad zone', 'acc', 'tcp', 'TCP', '!1.2.3.4', '192.168.1.0/24',
  '10.0.0.1-10.0.0.9', 'fe80::1/64', '::ffff:1.2.3.4', '22', '1000-2000', '!80:90', '0x10/0xff', 'Mon Tue', '2024-01-02T03:04', '12:30',
  'eth*', '"quoted"', 'n'.repeat(128), [], ['tcp', 'udp'], ['1.2.3.4', 5], [null], {}, { bogus: 1 },
];

function enumValues(schema: unknown): Json[] {
  if (schema === null || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([key, value]) => (key === 'enum' ? (value as Json[]) : enumValues(value)));
}

/** Bodies that set one member at a time to each sample, and to each value its schema enumerates. */
function bodies(definition: ResourceDefinition): Json[] {
  const values = (schema: unknown) => [...SAMPLES, ...enumValues(schema)];
  const all: Json[] = [{}, { bogus: 1 }, null, [], 'x', { id: 'a', managed: true, runtime: {} }];
  for (const [name, member] of Object.entries(definition.members)) {
    if (!isGroup(member)) {
      all.push(...values(member.schema).map((value) => ({ [name]: value })));
      continue;
    }
    all.push(...SAMPLES.map((value) => ({ [name]: value })));
    for (const [inner, field] of Object.entries(member.fields)) all.push(...values(field.schema).map((value) => ({ [name]: { [inner]: value } })));
  }
  return all;
}

test('the body check decides as ajv does on the same schemas, and each error it gives is one of ajv\'s', async () => {
  const ajv = new Ajv({ ...AJV_OPTIONS });
  for (const definition of DEFINITIONS) {
    // What the engine checks: the schemas of the generated doc, its patterns by index.
    const index = RESOURCES.findIndex((entry) => entry.path === definition.path);
    const shipped = resourceDoc(await RESOURCES[index].module());
    for (const which of ['full', 'patch'] as const) {
      const reference = ajv.compile(requestSchema(docOf(definition), which));
      const checked = requestSchema(shipped, which);
      for (const body of bodies(definition)) {
        const found = schemaCheck(checked, body, pattern);
        const where = `${definition.path} ${which} ${JSON.stringify(body)}`;
        assert.is(found.length === 0, reference(body), where);
        const expected = (reference.errors ?? []).map(({ instancePath, keyword }) => `${instancePath} ${keyword}`);
        for (const error of found) assert.ok(expected.includes(`${error.instancePath} ${error.keyword}`), `${where}: ${error.instancePath} ${error.keyword} not among ${expected.join(', ')}`);
      }
    }
  }
});

test('a generated doc made whole from its mapping, with wrtapi-doc\'s descriptions, is the definition\'s doc, nothing lost', async () => {
  const inventory = (await loadResources()).map(({ definition }) => definition);
  assert.is(RESOURCES.length, inventory.length);
  for (const [index, entry] of RESOURCES.entries()) {
    const module = await entry.module();
    // Listed without their names, but for a view's, whose mapping has no members.
    assert.is(Array.isArray(module.doc().members), entry.kind !== 'view', entry.path);
    assert.equal(withPatterns(described(resourceDoc(module), JSON.parse(readFileSync(`${docDir}/docs/${entry.path}.json`, 'utf8'))), pattern), docOf(inventory[index], inventory), entry.path);
  }
});

test('every resource\'s request half is its patch half and a required list, as the document states it by reference', async () => {
  for (const entry of RESOURCES) {
    const doc = resourceDoc(await entry.module());
    if (doc.kind === 'view') continue;
    const required = requestRequired(doc);
    assert.equal(halfSchema(doc, 'request'), { ...halfSchema(doc, 'patch'), ...(required.length ? { required } : {}) }, entry.path);
  }
});

test('field errors say what is wrong from the keyword and params alone', () => {
  const body = { bogus: 1, name: 'n'.repeat(101), target: 'NOPE', match: { src_port: ['99999'], limit_burst: -1 } };
  assert.equal(schemaErrors(requestSchema(docOf(rules), 'full'), body), [
    { field: 'bogus', code: 'unknown_field', message: 'bogus is not a known field' },
    { field: 'name', code: 'out_of_range', message: 'name must be at most 100 characters' },
    { field: 'target', code: 'not_in_enum', message: 'target must be one of: ACCEPT, REJECT, DROP, NOTRACK, HELPER, MARK, DSCP, null' },
    { field: 'match.src_port[0]', code: 'invalid_format', message: 'match.src_port[0] must match the expected format' },
    { field: 'match.limit_burst', code: 'out_of_range', message: 'match.limit_burst must be >= 0' },
  ]);
  assert.equal(schemaErrors(forwardingFull, { src: null, enabled: 'yes' }), [
    { field: 'dest', code: 'required', message: 'dest is required' },
    { field: 'src', code: 'required', message: 'src must be string' },
    { field: 'enabled', code: 'invalid_type', message: 'enabled must be boolean or null' },
  ]);
});

test('a mapping is its definition without schemas, descriptions, rules and checks, and is what the build emitted', async () => {
  for (const definition of [defaults, forwardings, nat, redirects, rules, zones]) {
    const mapping = mappingOf(definition);
    const text = JSON.stringify(mapping);
    for (const buildOnly of ['"schema"', '"description"', '"rules"', '"checks"']) assert.not.ok(text.includes(buildOnly), `${definition.path} mapping holds ${buildOnly}`);
    const { description: _description, rules: _rules, checks: _checks, members, ...routing } = definition;
    assert.equal({ ...mapping, members: {} }, { ...routing, members: {} });
    assert.equal(Object.keys(mapping.members), Object.keys(members));
    for (const [name, member] of Object.entries(members)) {
      const mapped = mapping.members[name];
      if (isGroup(member)) {
        assert.ok(isGroup(mapped));
        for (const [inner, field] of Object.entries(member.fields)) {
          assert.equal(mapped.fields[inner], { codec: field.codec, ...(field.option ? { option: field.option } : {}), ...(field.required ? { required: true } : {}), ...(field.secret ? { secret: true } : {}) });
        }
      } else {
        assert.equal(mapped, { codec: member.codec, ...(member.option ? { option: member.option } : {}), ...(member.required ? { required: true } : {}), ...(member.secret ? { secret: true } : {}) });
      }
    }
  }
  // Every module's mapping, whether written plain or in the shared form (mappings.ts mappingExpression).
  const written = new Set<string>();
  for (const { definition, module } of await loadResources()) {
    const entry = RESOURCES.find((candidate) => candidate.path === definition.path)!;
    assert.equal((await entry.module()).mapping, mappingOf(definition), definition.path);
    written.add(readFileSync(new URL(`../../src/generated/mappings/${module}.js`, import.meta.url), 'utf8').includes('unshared(') ? 'shared' : 'plain');
  }
  assert.equal([...written].sort(), ['plain', 'shared']);
});

test.run();
