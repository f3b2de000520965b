// The network round trip: every route, rule, device and bridge-vlan section of the stock file and of
// realistic extra ones is read, adopted when anonymous and PUT back unchanged, and the file must
// still mean the same to netifd. Meaning is compared as uci's blob.c hands options to netifd
// (uci_to_blob), not byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type UciSection, type UciValue } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { resolvedSchemas } from '../support/schema-values.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { strtol } from '../support/uci-blob.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/network', import.meta.url), 'utf8');

// Sections beyond the stock ones, in spellings netifd accepts: options where netifd takes arrays,
// `true`/`false` booleans, words its BOOL attributes drop (`yes`, `on`), a hex INT32 and named
// sections (managed from the start).
const EXTRA = `
config device
\toption name 'eth1.100'
\toption type '8021q'
\toption ifname 'eth1'
\toption vid '100'
\tlist ingress_qos_mapping '0:1'
\tlist ingress_qos_mapping '1:2'
\toption egress_qos_mapping '1:0 2:3'

config device
\toption name 'lan1'
\toption mtu '9000'
\toption macaddr '02:11:22:33:44:55'
\toption ipv6 'false'
\toption learning '0'
\toption enabled 'true'
\toption rpfilter 'loose'
\toption txqueuelen '0x400'
\toption gro 'yes'

config device
\toption name 'mv0'
\toption type 'macvlan'
\toption ifname 'eth1'
\toption mode 'bridge'
\toption macaddr '02:aa:bb:cc:dd:ee'

config device
\toption name 'veth0'
\toption type 'veth'
\toption peer_name 'veth1'
\toption peer_macaddr '02:00:00:00:00:01'

config device 'guest_dev'
\toption name 'br-guest'
\toption type 'bridge'
\toption ports 'eth2 eth3'
\toption bridge_empty '1'
\toption stp 'yes'
\toption forward_delay '4'
\toption igmp_snooping 'true'
\toption multicast_querier '0'
\toption vlan_filtering '1'

config device
\toption name 'tun0'
\toption mtu '1400'

config bridge-vlan
\toption device 'br-lan'
\toption vlan '1'
\toption ports 'lan1:u* lan2'
\tlist alias 'office'

config bridge-vlan
\toption device 'br-lan'
\toption vlan '2'
\tlist ports 'lan2:t'
\tlist ports 'lan3:*'
\toption local 'false'

config bridge-vlan 'guest_vlan'
\toption device 'br-guest'
\toption vlan '10'
\toption ports 'eth2:t'

config route
\toption interface 'lan'
\toption target '10.10.0.0'
\toption netmask '255.255.0.0'
\toption gateway '192.168.1.254'
\toption metric '10'

config route
\toption interface 'wan'
\toption target '0.0.0.0/0'
\toption type 'blackhole'
\toption table '100'
\toption metric '200'
\toption disabled 'true'

config route6
\toption interface 'lan'
\toption target 'fd00:10::/64'
\toption gateway 'fd4c:7e19:a3b2::10'
\toption mtu '1400'
\toption onlink '1'
\toption source 'fd4c:7e19:a3b2::/64'

config route 'named_route'
\toption target '198.51.100.0/24'
\toption type 'unreachable'
\toption proto 'bird'

config rule
\toption in 'lan'
\toption src '192.168.1.0/24'
\toption lookup '100'
\toption priority '1000'

config rule
\toption mark '0x10/0xff'
\toption lookup 'main'
\toption invert 'on'

config rule6
\toption out 'wan6'
\toption dest 'fd00::/8'
\toption action 'unreachable'
\toption disabled '1'

config rule
\toption priority '10'
\toption goto '20'
\toption uidrange '1000-2000'
\toption ipproto 'tcp'
\toption tos '16'
`;

// The attribute types netifd parses these sections with (config.c route_attr, rule_attr,
// vlan_attrs; device.c dev_attrs; bridge.c, vlandev.c, macvlan.c, veth.c); every other option is a STRING.
const INT32 = [
  'metric', 'mtu', 'valid', 'priority', 'tos', 'goto', 'suppress_prefixlength', 'mtu6', 'txqueuelen', 'speed', 'multicast_router',
  'forward_delay', 'hello_time', 'max_age', 'ageing_time', 'query_interval', 'query_response_interval', 'vlan',
];
const ARRAYS = ['ports', 'alias', 'ingress_qos_mapping', 'egress_qos_mapping'];
const BOOLS = [
  'disabled', 'onlink', 'invert', 'enabled', 'ipv6', 'promisc', 'learning', 'unicast_flood', 'isolate', 'multicast_to_unicast', 'duplex',
  'autoneg', 'gro', 'bridge_empty', 'vlan_filtering', 'stp', 'igmp_snooping', 'multicast_querier', 'local',
];
// BOOLs whose default is false: a dropped spelling and false mean the same as no option.
const OFF_BY_DEFAULT = ['disabled', 'onlink', 'invert', 'bridge_empty', 'stp', 'igmp_snooping'];

/** One option as netifd receives it; undefined when uci_to_blob drops it. */
function netifdValue(option: string, value: UciValue): string | number | string[] | undefined {
  if (ARRAYS.includes(option)) return typeof value === 'string' ? value.split(/[ \t]+/).filter(Boolean) : value;
  if (typeof value !== 'string') return undefined;
  if (INT32.includes(option)) return strtol(value);
  if (BOOLS.includes(option)) {
    const bool = value === '1' || value === 'true' ? 'true' : value === '0' || value === 'false' ? 'false' : undefined;
    return OFF_BY_DEFAULT.includes(option) && (bool ?? 'false') === 'false' ? undefined : bool;
  }
  return value;
}

function netifdMeaning(section: UciSection) {
  const options = [...section.options].map(([option, value]) => [option, netifdValue(option, value)] as const).filter(([, value]) => value !== undefined);
  return { type: section.type, options: Object.fromEntries(options.sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** Same section types in the same order, each as netifd reads it; names differ only by adoption. */
function assertSameMeaning(before: string, after: string, adopted: Map<string, string>) {
  const [old, now] = [parseUci(before).sections, parseUci(after).sections];
  assert.equal(now.map((section) => section.type), old.map((section) => section.type), 'section types and order');
  old.forEach((section, index) => {
    const label = `${section.type} ${section.name} (${section.options.get('name') ?? section.options.get('target') ?? ''})`;
    assert.is(now[index].name, adopted.get(section.name) ?? section.name, `${label}: name`);
    assert.equal(netifdMeaning(now[index]), netifdMeaning(section), label);
  });
}

let router: Router;
let auth: Record<string, string>;
let document: Body | undefined;
let responseSchemas: Map<string, ValidateFunction> | undefined;
const network = () => readFileSync(router.path('/etc/config/network'), 'utf8');
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const RESOURCES = ['routes', 'rules', 'devices', 'bridge_vlans'];
const schemaName = (resource: string) => `Network${resource.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())}`;

async function openapi(): Promise<Body> {
  document ??= (await router.request({ method: 'GET', path: '/openapi.json' })).json as Body;
  return document;
}

/** The response schema the served OpenAPI document publishes for each network resource. */
async function schemas(): Promise<Map<string, ValidateFunction>> {
  if (responseSchemas) return responseSchemas;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(await openapi(), 'openapi.json');
  responseSchemas = new Map(RESOURCES.map((resource) => [`network/${resource}`, ajv.compile({ $ref: `openapi.json#/components/schemas/${schemaName(resource)}` })]));
  return responseSchemas;
}

async function conforming(resource: string, response: Response): Promise<Body> {
  assert.is(response.status, 200, response.body);
  const validate = (await schemas()).get(resource)!;
  assert.ok(validate(response.json), `${resource}: ${response.body}\n${JSON.stringify(validate.errors)}`);
  return response.json as Body;
}

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  await router.cleanup();
});

/** Reads every section of a resource, adopts the anonymous ones and PUTs each read back; the ids adopted. */
async function roundTrip(resource: string, count: number, adopted: Map<string, string>): Promise<void> {
  const list = await call({ method: 'GET', path: `/${resource}` });
  assert.is(list.status, 200, list.body);
  const items = list.json as Body[];
  assert.is(items.length, count, resource);
  for (const item of items) {
    const read = await conforming(resource, await call({ method: 'GET', path: `/${resource}/${item.id}` }));
    assert.equal(read, item);
    let id = item.id as string;
    if (!item.managed) {
      assert.match(id, /^cfg[0-9a-f]{6}$/);
      id = (await conforming(resource, await call({ method: 'POST', path: `/${resource}/${item.id}/adopt` }))).id;
      adopted.set(item.id, id);
    }
    const put = await conforming(resource, await call({ method: 'PUT', path: `/${resource}/${id}`, body: read }));
    assert.equal(put, { ...read, id, managed: true });
    assert.equal(await conforming(resource, await call({ method: 'GET', path: `/${resource}/${id}` })), put);
  }
}

test('the stock file: every section of the four resources (the br-lan device) round-trips; netifd reads the same file', async () => {
  const before = network();
  assert.is(before, STOCK);
  const adopted = new Map<string, string>();
  for (const [resource, count] of [['network/routes', 0], ['network/rules', 0], ['network/devices', 1], ['network/bridge_vlans', 0]] as const) {
    await roundTrip(resource, count, adopted);
  }
  assert.is(adopted.size, 1);
  assertSameMeaning(before, network(), adopted);
});

for (const [resource, count] of [['network/routes', 4], ['network/rules', 4], ['network/devices', 7], ['network/bridge_vlans', 3]] as const) {
  test(`${resource}: every stock and extra section round-trips; netifd reads the same file`, async () => {
    writeFileSync(router.path('/etc/config/network'), STOCK + EXTRA);
    const before = network();
    const adopted = new Map<string, string>();
    await roundTrip(resource, count, adopted);
    assertSameMeaning(before, network(), adopted);
  });
}

test('the extra sections read as netifd reads them', async () => {
  writeFileSync(router.path('/etc/config/network'), STOCK + EXTRA);
  const get = async (resource: string) => (await call({ method: 'GET', path: `/network/${resource}` })).json as Body[];
  const [vlan, port, , , guest] = (await get('devices')).slice(1);
  assert.equal([vlan.vid, vlan.ingress_qos_mapping, vlan.egress_qos_mapping, vlan.ports], [100, ['0:1', '1:2'], ['1:0', '2:3'], []]);
  // txqueuelen '0x400' reads as netifd's strtol(…, 0) does.
  assert.equal([port.ipv6, port.learning, port.enabled, port.txqueuelen, port.gro], [false, false, true, 1024, null]);
  assert.equal([guest.id, guest.managed, guest.ports, guest.stp, guest.igmp_snooping, guest.vid], ['guest_dev', true, ['eth2', 'eth3'], false, true, undefined]);
  assert.equal((await get('bridge_vlans')).map((entry) => [entry.vlan, entry.ports, entry.local ?? null]), [[1, ['lan1:u*', 'lan2'], null], [2, ['lan2:t', 'lan3:*'], false], [10, ['eth2:t'], null]]);
  assert.equal((await get('routes')).map((route) => [route.family, route.disabled ?? null, route.onlink ?? null, route.table ?? null]), [['ipv4', null, null, null], ['ipv4', true, null, 100], ['ipv6', null, true, null], ['ipv4', null, null, null]]);
  // A table by number reads as an integer, by name as the name; action lookup and goto read from the fields of those names.
  assert.equal(
    (await get('rules')).map((rule) => [rule.family, rule.invert ?? null, rule.disabled ?? null, rule.lookup ?? null, rule.action ?? null]),
    [['ipv4', null, null, 100, 'lookup'], ['ipv4', false, null, 'main', 'lookup'], ['ipv6', null, true, null, 'unreachable'], ['ipv4', null, null, null, 'goto']],
  );
});

test('GET /diagnostics?validate=1: no invalid network section in the stock file; in the extra ones only what a read cannot show', async () => {
  const invalid = async () => {
    const diagnostics = await call({ method: 'GET', path: '/diagnostics', query: { validate: '1' } });
    assert.is(diagnostics.status, 200, diagnostics.body);
    const body = diagnostics.json as Body;
    for (const resource of RESOURCES) assert.ok(body.swept_resources.includes(`network:${resource}`), resource);
    return (body.invalid_sections as Body[]).filter((entry) => entry.resource.startsWith('network:'));
  };
  assert.equal(await invalid(), []);
  writeFileSync(router.path('/etc/config/network'), STOCK + EXTRA);
  const [found, ...others] = await invalid();
  assert.equal(others, []);
  const port = ((await call({ method: 'GET', path: '/network/devices' })).json as Body[]).find((device) => device.name === 'lan1')!;
  assert.equal([found.resource, found.id, found.managed], ['network:devices', port.id, false]);
  assert.equal((found.errors as Body[]).map((error) => `${error.field}:${error.code}`).sort(), ['gro:unreadable']);
});

test('OpenAPI: the four collections, their items and adopt; family is an optional enum of routes and rules, a table an integer or a name', async () => {
  const served = await openapi();
  const { paths } = served;
  const components = { schemas: resolvedSchemas(served) as Body };
  const verbs = (item: Body) => Object.keys(item).filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key)).sort();
  for (const resource of RESOURCES) {
    assert.equal(verbs(paths[`/network/${resource}`]), ['get', 'post']);
    assert.equal(verbs(paths[`/network/${resource}/{id}`]), ['delete', 'get', 'patch', 'put']);
    assert.equal(verbs(paths[`/network/${resource}/{id}/adopt`]), ['post']);
    assert.ok(components.schemas[schemaName(resource)], schemaName(resource));
  }
  for (const resource of ['routes', 'rules']) {
    const request = components.schemas[`${schemaName(resource)}Request`];
    assert.not.ok((request.required ?? []).includes('family'), resource);
    assert.equal(request.properties.family.type, ['string', 'null']);
    assert.equal(request.properties.family.enum, ['ipv4', 'ipv6', null]);
    assert.equal(components.schemas[`${schemaName(resource)}Patch`].properties.family.enum, ['ipv4', 'ipv6', null]);
  }
  assert.equal(components.schemas.NetworkRoutesRequest.required, ['target']);
  for (const [schema, field] of [['NetworkRoutes', 'table'], ['NetworkRules', 'lookup']]) {
    assert.equal(components.schemas[schema].properties[field].anyOf.map((branch: Body) => branch.type), ['integer', 'string', 'null'], field);
  }
  assert.equal(components.schemas.NetworkRulesRequest.properties.action.enum, ['lookup', 'goto', 'prohibit', 'unreachable', 'blackhole', null]);
  assert.equal(components.schemas.NetworkDevices.properties.vid.anyOf.map((branch: Body) => branch.type), ['integer', 'string', 'null']);
  assert.equal(components.schemas.NetworkDevicesRequest.required, ['name']);
  assert.equal(components.schemas.NetworkBridgeVlansRequest.required.sort(), ['device', 'vlan']);
});

test('the comparison sees what netifd sees: array options, BOOL and INT32 spellings', () => {
  const meaning = (text: string) => netifdMeaning(parseUci(text).sections[0]);
  assert.equal(
    meaning("config device\n\toption ports 'eth0  eth1'\n\toption stp 'yes'\n\toption ipv6 'true'\n\toption mtu '0x5dc'\n"),
    meaning("config device\n\tlist ports 'eth0'\n\tlist ports 'eth1'\n\toption ipv6 '1'\n\toption mtu '1500'\n"),
  );
  assert.equal(meaning("config route\n\toption disabled '0'\n\toption onlink 'on'\n"), meaning('config route\n'));
  assert.equal(meaning("config route\n\toption metric '010'\n"), meaning("config route\n\toption metric '8'\n"));
  assert.not.equal(meaning("config route\n\toption metric '010'\n"), meaning("config route\n\toption metric '10'\n"));
  assert.not.equal(meaning("config device\n\toption gro 'yes'\n"), meaning("config device\n\toption gro '0'\n"));
  assert.not.equal(meaning("config route\n\tlist target '10.0.0.0/8'\n"), meaning("config route\n\toption target '10.0.0.0/8'\n"));
  assert.not.equal(meaning("config route\n\toption disabled 'true'\n"), meaning('config route\n'));
});

test.run();
