// The stock-configuration round trip of the dhcp and system packages: every section is read, adopted
// when unmanaged and written back unchanged with PUT. The stock files keep the same UCI content; with
// the sections LuCI and users add, the files keep what dnsmasq.init, odhcpd, sysntpd and the system
// init scripts read from them (list or space-separated option, boolean spellings).
import { readFileSync, writeFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type UciSection, type UciValue } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { parseCanonical } from '../../src/uci/read.js';
import { resolvedSchemas } from '../support/schema-values.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

const seed = (name: string) => readFileSync(new URL(`../../../../shims/emu/seed/etc/config/${name}`, import.meta.url), 'utf8');
const STOCK = { dhcp: seed('dhcp'), system: seed('system'), network: seed('network') };
// The dhcp file as the dnsmasq package ships it, before any `uci commit` rewrote it.
const SHIPPED_DHCP = readFileSync(new URL('../../../../test/fixtures/uci/upstream/dhcp', import.meta.url), 'utf8');

// Sections a router commonly has beyond the stock ones: static leases as LuCI writes them (anonymous,
// one MAC as an option, tags as a string), a second dnsmasq instance with a guest pool, lenient
// boolean spellings, and a `domain` section no resource covers and no write may touch.
const EXTRA_DHCP = `
config dnsmasq 'guest_dns'
\toption domain 'guest'
\tlist interface 'guest'
\toption localuse '0'

config dhcp 'guest'
\toption interface 'guest'
\toption start '10'
\toption limit '50'
\toption leasetime '1h'
\toption dynamicdhcp 'true'
\toption force 'yes'
\toption ra 'server'
\toption ra_flags 'none'
\toption dhcp_option '6,192.168.2.1 42,192.168.2.1'
\toption instance 'guest_dns'

config host
\toption name 'laptop'
\toption mac '52:54:00:AA:BB:01'
\toption ip '192.168.1.100'
\toption dns '1'
\toption leasetime '7d'

config host
\toption name 'tv'
\tlist mac '52:54:00:aa:bb:10'
\tlist mac '52:54:00:aa:bb:11'
\toption ip '192.168.1.50'
\toption tag 'media known'
\toption duid '000100012e5c1a2b525400aabb10'
\toption hostid '50'

config host 'printer'
\toption name 'printer'
\toption mac '52:54:00:aa:bb:20'
\toption ip '192.168.1.60'
\toption enable 'no'
\toption broadcast 'on'
\toption networkid 'printers'
\tlist dhcp_option 'option:router,192.168.1.2'

config host
\toption name 'ipcam'
\toption mac '52:54:00:aa:bb:30'
\toption ip '192.168.2.30'
\toption instance 'guest_dns'
\tlist match_tag 'known'

config domain
\toption name 'nas.lan'
\toption ip '192.168.1.10'
`;
// Appended in uci commit's form. (A dhcp/servers write stages network for its `interface` reference
// and commits it whenever its text differs from that form, though nothing in it changed: a network
// file with comments loses them. That is the engine's transaction, not tested here.)
const EXTRA_NETWORK = "config interface 'guest'\n\toption proto 'static'\n\toption ipaddr '192.168.2.1'\n\toption netmask '255.255.255.0'\n\n";
// What LuCI's System page writes on its first save.
const LUCI_SYSTEM = STOCK.system
  .replace("\toption urandom_seed '0'\n", "\toption urandom_seed '0'\n\toption zonename 'UTC'\n\toption log_proto 'udp'\n\toption conloglevel '8'\n\toption cronloglevel '7'\n")
  .replace("\toption enable_server '0'\n", "\toption enable_server '0'\n\toption use_dhcp 'off'\n");

// How the readers take the options above (REPORT.md §2-7): `shell` is get_bool (and validate_data's
// bool), `blob` libuci's uci_to_blob boolean (odhcpd, and options dnsmasq.init reads too), `split` an
// option whose words are its items (config_get, uci_to_blob arrays, validate_data lists). Every other
// option compares as written: the list-only ones (config_list_foreach ignores a plain option), host
// `mac` (odhcpd reads an option only), numbers and text.
const SHELL_BOOLEANS = ['1', 'on', 'true', 'yes', 'enabled', '0', 'off', 'false', 'no', 'disabled'];
const BLOB_BOOLEANS = ['1', 'true', '0', 'false'];
const DNSMASQ_FLAGS = [
  'domainneeded', 'boguspriv', 'filterwin2k', 'localise_queries', 'rebind_protection', 'rebind_localhost', 'expandhosts', 'nonegcache',
  'authoritative', 'readethers', 'nonwildcard', 'localservice', 'filter_aaaa', 'filter_a', 'noresolv',
];
const READERS: Record<string, Record<string, 'shell' | 'blob' | 'split'>> = {
  dnsmasq: Object.fromEntries(DNSMASQ_FLAGS.map((option) => [option, 'shell'])),
  dhcp: { ignore: 'shell', force: 'shell', dynamicdhcp: 'blob', ra_slaac: 'blob', ra_flags: 'split', dhcp_option: 'split' },
  host: { dns: 'shell', enable: 'shell', broadcast: 'shell', tag: 'split', dhcp_option: 'split' },
  odhcpd: { legacy: 'blob' },
  system: { log_remote: 'shell' },
  timeserver: { enabled: 'shell', enable_server: 'shell', use_dhcp: 'shell', server: 'split', dhcp_interface: 'split' },
};

function readerValue(type: string, option: string, value: UciValue): unknown {
  const reader = READERS[type]?.[option];
  if (reader === 'split') return (typeof value === 'string' ? [value] : value).flatMap((item) => item.split(/[ \t]+/).filter(Boolean));
  if (typeof value !== 'string' || !reader) return value;
  const spellings = reader === 'shell' ? SHELL_BOOLEANS : BLOB_BOOLEANS;
  return spellings.includes(value) ? spellings.indexOf(value) < spellings.length / 2 : value;
}

function meaning(section: UciSection) {
  const options = [...section.options].map(([option, value]) => [option, readerValue(section.type, option, value)] as const);
  return { type: section.type, options: Object.fromEntries(options.sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** Same sections in the same order, names differing only by adoption, each read alike (`exact`: the same values as written). */
function assertSameContent(before: string, after: string, adopted: Map<string, string>, exact = false) {
  const [old, now] = [parseUci(before).sections, parseUci(after).sections];
  assert.equal(now.map((section) => section.type), old.map((section) => section.type), 'section types and order');
  old.forEach((section, index) => {
    const label = `${section.type} ${section.name}`;
    assert.is(now[index].name, adopted.get(section.name) ?? section.name, `${label}: name`);
    const view = exact ? (candidate: UciSection) => Object.fromEntries(candidate.options) : meaning;
    assert.equal(view(now[index]), view(section), label);
  });
}

let router: Router;
let auth: Record<string, string>;
let responseSchemas: Map<string, ValidateFunction> | undefined;
let document: Body | undefined;
const file = (name: string) => readFileSync(router.path(`/etc/config/${name}`), 'utf8');
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });

const COLLECTIONS = ['dhcp/hosts', 'dhcp/servers', 'system/timeservers'];
const SINGLETONS = ['dhcp/dnsmasq', 'dhcp/odhcpd', 'system'];
const SCHEMA_NAMES: Record<string, string> = {
  'dhcp/hosts': 'DhcpHosts', 'dhcp/servers': 'DhcpServers', 'system/timeservers': 'SystemTimeservers', 'dhcp/dnsmasq': 'DhcpDnsmasq', 'dhcp/odhcpd': 'DhcpOdhcpd', system: 'System',
};

async function openapi(): Promise<Body> {
  document ??= (await router.request({ method: 'GET', path: '/openapi.json' })).json as Body;
  return document;
}

/** A 200 whose body validates against the response schema the served OpenAPI document publishes. */
async function conforming(resource: string, response: Response): Promise<Body> {
  assert.is(response.status, 200, `${resource}: ${response.body}`);
  if (!responseSchemas) {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(await openapi(), 'openapi.json');
    responseSchemas = new Map(Object.entries(SCHEMA_NAMES).map(([path, name]) => [path, ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` })]));
  }
  const validate = responseSchemas.get(resource)!;
  assert.ok(validate(response.json), `${resource}: ${response.body}\n${JSON.stringify(validate.errors)}`);
  return response.json as Body;
}

/** A read as configuration: `runtime` is live state, which a write's answer does not carry. */
const configured = ({ runtime: _runtime, ...body }: Body) => body;

/** Every section of every resource read, adopted when unmanaged, PUT back and read again; the adoptions made. */
async function roundTrip(counts: Record<string, number>): Promise<Map<string, string>> {
  const adopted = new Map<string, string>();
  for (const resource of COLLECTIONS) {
    const list = await call({ method: 'GET', path: `/${resource}` });
    assert.is(list.status, 200, list.body);
    const items = list.json as Body[];
    assert.is(items.length, counts[resource], resource);
    for (const item of items) {
      const read = await conforming(resource, await call({ method: 'GET', path: `/${resource}/${item.id}` }));
      assert.equal(read, item);
      let id = item.id as string;
      if (!item.managed) {
        id = (await conforming(resource, await call({ method: 'POST', path: `/${resource}/${id}/adopt` }))).id;
        adopted.set(item.id, id);
      }
      const put = await conforming(resource, await call({ method: 'PUT', path: `/${resource}/${id}`, body: read }));
      assert.equal(put, { ...configured(read), id, managed: true });
      assert.equal(configured(await conforming(resource, await call({ method: 'GET', path: `/${resource}/${id}` }))), put);
    }
  }
  for (const resource of SINGLETONS) {
    const read = await call({ method: 'GET', path: `/${resource}` });
    const body = await conforming(resource, read);
    const put = await call({ method: 'PUT', path: `/${resource}`, body });
    assert.equal(await conforming(resource, put), body);
    assert.is(put.headers.etag, read.headers.etag, `${resource}: the same resource, the same ETag`);
  }
  return adopted;
}

async function invalidSections(): Promise<Body[]> {
  const sweep = await call({ method: 'GET', path: '/diagnostics?validate=1' });
  assert.is(sweep.status, 200, sweep.body);
  const body = sweep.json as Body;
  for (const resource of ['dhcp:hosts', 'dhcp:servers', 'dhcp:dnsmasq', 'dhcp:odhcpd', 'system', 'system:timeservers']) assert.ok(body.swept_resources.includes(resource), resource);
  return (body.invalid_sections as Body[]).filter((section) => /^(dhcp|system)\b/.test(section.resource));
}

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  await router.cleanup();
});

test('stock: no dhcp or system section is invalid, and each PUT back unchanged keeps the same UCI content', async () => {
  assert.equal(await invalidSections(), []);
  const before = { dhcp: file('dhcp'), system: file('system'), network: file('network') };
  assert.equal(before, STOCK);
  assert.equal(await roundTrip({ 'dhcp/hosts': 0, 'dhcp/servers': 2, 'system/timeservers': 1 }), new Map(), 'no stock section of a collection is anonymous');
  assertSameContent(before.dhcp, file('dhcp'), new Map(), true);
  assertSameContent(before.system, file('system'), new Map(), true);
  assert.is(file('network'), before.network, 'dhcp/servers read network, never wrote it');
  assert.equal(await invalidSections(), []);
});

test('with LuCI static leases, a guest instance and a LuCI-saved system: valid, and a round trip keeps what the daemons read', async () => {
  writeFileSync(router.path('/etc/config/dhcp'), STOCK.dhcp + EXTRA_DHCP);
  writeFileSync(router.path('/etc/config/network'), STOCK.network + EXTRA_NETWORK);
  writeFileSync(router.path('/etc/config/system'), LUCI_SYSTEM);
  assert.equal(await invalidSections(), []);
  const before = { dhcp: file('dhcp'), system: file('system'), network: file('network') };
  const hosts = (await call({ method: 'GET', path: '/dhcp/hosts' })).json as Body[];
  assert.equal(hosts.map((host) => [host.name, host.macs, host.tag]), [
    ['laptop', ['52:54:00:AA:BB:01'], []],
    ['tv', ['52:54:00:aa:bb:10', '52:54:00:aa:bb:11'], ['media', 'known']],
    ['printer', ['52:54:00:aa:bb:20'], []],
    ['ipcam', ['52:54:00:aa:bb:30'], []],
  ]);
  const adopted = await roundTrip({ 'dhcp/hosts': 4, 'dhcp/servers': 3, 'system/timeservers': 1 });
  assert.is(adopted.size, 3, 'the three anonymous hosts');
  assertSameContent(before.dhcp, file('dhcp'), adopted);
  assertSameContent(before.system, file('system'), new Map());
  assert.is(file('network'), before.network);
  // Not even a spelling changed: a value the stored spelling already means keeps it (a string of tags, `yes`).
  const tv = parseUci(file('dhcp')).sections.find((section) => section.options.get('name') === 'tv')!;
  assert.is(tv.options.get('tag'), 'media known');
  assert.is(parseUci(file('dhcp')).sections.find((section) => section.name === 'guest')!.options.get('force'), 'yes');
  assert.equal(await invalidSections(), []);
});

test('the comparison sees what the daemons see: spellings they read alike are equal, a list where they want an option is not', () => {
  const view = (text: string) => meaning(parseUci(text).sections[0]);
  assert.equal(view("config host\n\toption tag 'a b'\n\toption enable 'no'\n"), view("config host\n\tlist tag 'a'\n\tlist tag 'b'\n\toption enable '0'\n"));
  assert.equal(view("config dhcp\n\toption dynamicdhcp 'true'\n\toption ra_flags 'none'\n"), view("config dhcp\n\toption dynamicdhcp '1'\n\tlist ra_flags 'none'\n"));
  assert.not.equal(view("config host\n\toption mac 'a'\n"), view("config host\n\tlist mac 'a'\n"), 'odhcpd reads an option mac only');
  assert.not.equal(view("config dnsmasq\n\toption server '1.1.1.1'\n"), view("config dnsmasq\n\tlist server '1.1.1.1'\n"), 'dnsmasq.init reads a list only');
  assert.not.equal(view("config dhcp\n\toption dynamicdhcp 'yes'\n"), view("config dhcp\n\toption dynamicdhcp '1'\n"), 'odhcpd drops yes');
  assert.not.equal(view("config system\n\toption ttylogin 'yes'\n"), view("config system\n\toption ttylogin '1'\n"), 'login.sh compares with 1');
});

test('the dhcp file as the dnsmasq package ships it reads like the committed file, and a PUT of its dnsmasq section keeps its meaning', async () => {
  const committed = (await call({ method: 'GET', path: '/dhcp/dnsmasq' })).json as Body;
  const wan = (await call({ method: 'GET', path: '/dhcp/servers/wan' })).json as Body;
  // Not in uci commit's form (comments, unquoted values): the full tokenizer reads it.
  assert.is(parseCanonical(SHIPPED_DHCP), undefined);
  writeFileSync(router.path('/etc/config/dhcp'), SHIPPED_DHCP);
  const shipped = await conforming('dhcp/dnsmasq', await call({ method: 'GET', path: '/dhcp/dnsmasq' }));
  assert.equal(shipped, committed);
  assert.equal((await call({ method: 'GET', path: '/dhcp/servers/wan' })).json, wan);
  assert.is((await call({ method: 'PUT', path: '/dhcp/dnsmasq', body: shipped })).status, 200);
  assertSameContent(SHIPPED_DHCP, file('dhcp'), new Map());
});

test('the OpenAPI document describes the six resources and the two read-only views, and system/timeservers takes the id ntp only, optional on create', async () => {
  const served = await openapi();
  const paths = Object.keys(served.paths).filter((path) => /^\/(dhcp|system)\b/.test(path)).sort();
  assert.equal(paths, [
    '/dhcp/dnsmasq', '/dhcp/hosts', '/dhcp/hosts/{id}', '/dhcp/hosts/{id}/adopt',
    '/dhcp/leases', '/dhcp/leases/{id}', '/dhcp/leases6', '/dhcp/leases6/{id}', '/dhcp/odhcpd', '/dhcp/servers', '/dhcp/servers/{id}', '/dhcp/servers/{id}/adopt',
    '/system', '/system/authorized_keys', '/system/authorized_keys/{id}', '/system/password', '/system/timeservers', '/system/timeservers/{id}',
    '/system/timeservers/{id}/adopt',
  ]);
  const verbs = (path: string) => Object.keys(served.paths[path]).filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key)).sort();
  for (const singleton of ['/dhcp/dnsmasq', '/dhcp/odhcpd', '/system']) assert.equal(verbs(singleton), ['get', 'patch', 'put'], singleton);
  for (const collection of ['/dhcp/hosts', '/dhcp/servers', '/system/timeservers']) assert.equal(verbs(collection), ['get', 'post'], collection);
  assert.equal(verbs('/system/timeservers/{id}'), ['delete', 'get', 'patch', 'put']);
  for (const view of ['/dhcp/leases', '/dhcp/leases/{id}', '/dhcp/leases6', '/dhcp/leases6/{id}']) assert.equal(verbs(view), ['get'], view);
  const schemas = resolvedSchemas(served) as Body;
  for (const name of ['SystemTimeserversRequest', 'SystemTimeserversPatch', 'SystemTimeservers']) assert.equal(schemas[name].properties.id.enum, ['ntp'], name);
  assert.is(schemas.SystemTimeserversRequest.required, undefined, 'an omitted id names ntp (spec: id optional on every create)');
  assert.is(schemas.DhcpHostsRequest.properties.id.enum, undefined, 'other collections name their sections freely');
  assert.not.ok('mac' in schemas.DhcpHostsRequest.properties || 'mac_aliases' in schemas.DhcpHostsRequest.properties);
  const tag = schemas.DhcpHostsRequest.properties.tag.anyOf as Body[];
  assert.equal(tag.map((branch) => branch.type), ['array', 'string', 'null'], 'tag is written as an array, a space-separated string, or null');
  assert.is(tag[1].pattern.includes(tag[0].items.pattern.slice(1, -1)), true, 'each item of the string is held to the item pattern');
  // A read carries what it cannot represent as null (a plain `option server`), and takes it back.
  assert.ok(schemas.DhcpDnsmasq.properties.server.type.includes('null'));
});

test.run();
