// The stock-configuration round trip: every firewall section is read, adopted when unmanaged and
// written back unchanged with PUT, and the file must still mean the same to firewall4. Meaning is
// compared the way fw4.uc's parse_options reads a section, not byte for byte.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type UciSection, type UciValue } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { parseCanonical } from '../../src/uci/read.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/firewall', import.meta.url), 'utf8');
// The same configuration as firewall4's package ships it, before any `uci commit` rewrote it.
const SHIPPED = readFileSync(new URL('../../../../test/fixtures/uci/upstream/firewall', import.meta.url), 'utf8');

// Realistic sections beyond the stock ones: many options in the lenient spellings fw4 accepts, one
// named section (managed from the start) and an ipset, which no resource covers and no write may touch.
const EXTRA = `
config zone
\toption name 'vpn'
\toption network 'vpn0 vpn1'
\toption device 'tun0 tun+'
\tlist subnet '10.8.0.0/24'
\tlist subnet 'fd00:8::/64'
\toption family 'any'
\toption input 'reject'
\toption output 'accept'
\toption forward 'drop'
\toption masq 'true'
\toption masq6 'off'
\tlist masq_src '10.8.0.0/24'
\tlist masq_src '!10.8.0.1'
\toption masq_dest '!192.168.0.0/16'
\toption mtu_fix 'yes'
\toption log '1'
\toption log_limit '10/minute'

config forwarding
\toption src 'vpn'
\toption dest 'wan'
\toption enabled 'on'

config forwarding
\toption src 'lan'
\toption dest 'vpn'
\toption family 'IPv4'

config ipset
\toption name 'blocklist'
\toption family 'ipv4'
\tlist match 'src_net'
\tlist entry '198.51.100.0/24'

config rule
\toption name 'Drop-Blocklist'
\toption src 'wan'
\toption ipset 'blocklist src'
\toption proto 'all'
\toption target 'DROP'

config rule
\toption name 'Mark-VoIP'
\toption src 'lan'
\toption dest 'wan'
\toption proto 'udp'
\toption dest_port '5060 10000-20000'
\toption target 'MARK'
\toption set_mark '0x10/0xff'

config rule
\toption name 'DSCP-Gaming'
\toption src 'lan'
\toption dest '*'
\toption proto 'udp'
\toption src_port '3074'
\toption target 'DSCP'
\toption set_dscp 'CS4'

config rule
\toption name 'Kids-Bedtime'
\toption src 'lan'
\toption dest 'wan'
\tlist src_mac '00:11:22:33:44:55'
\toption proto 'tcp udp'
\toption start_date '2024-01-01'
\toption stop_date '2030-12-31'
\toption start_time '21:30'
\toption stop_time '23:59:59'
\toption weekdays 'Mon Tue Wed Thu Sun'
\toption family '4'
\toption target 'reject'
\toption enabled 'yes'

config rule 'limit_ssh'
\toption name 'Limit-SSH'
\toption src 'wan'
\toption proto 'tcp'
\toption dest_port '22'
\toption limit '10/minute'
\toption limit_burst '5'
\toption log 'true'
\toption log_limit '1/second'
\toption target 'accept'

config rule
\toption name 'Disabled-Telnet'
\toption src 'wan'
\toption proto '6'
\toption dest_port '23'
\toption target 'DROP'
\toption enabled 'no'

config redirect
\toption name 'Web-Server'
\toption target 'dnat'
\toption src 'wan'
\toption src_dport '8080'
\toption dest 'lan'
\toption dest_ip '192.168.1.10'
\toption dest_port '80'
\toption proto 'tcp udp'
\tlist src_mac '00:11:22:33:44:55'
\tlist src_mac '!00:11:22:33:44:66'
\toption reflection '1'
\toption reflection_src 'external'
\tlist reflection_zone 'lan'
\tlist reflection_zone 'vpn'
\toption family '4'
\toption enabled 'yes'

config redirect
\toption name 'SSH-to-NAS'
\toption src 'wan'
\toption src_dport '2222'
\toption dest_ip '192.168.1.20'
\toption dest_port '22'
\toption proto 'tcp'

config redirect
\toption name 'Legacy-SNAT'
\toption target 'SNAT'
\toption src 'lan'
\toption dest 'wan'
\toption src_ip '192.168.1.0/24'
\toption src_dip '203.0.113.5'
\toption dest_ip '198.51.100.7'
\toption dest_port '443'
\toption proto 'tcp'

config nat
\toption name 'Masquerade-VPN-clients'
\toption src 'wan'
\toption src_ip '10.8.0.0/24'
\toption proto 'all'
\toption target 'MASQUERADE'

config nat
\toption name 'SNAT-mail-server'
\toption src 'wan'
\toption src_ip '192.168.1.25'
\toption snat_ip '203.0.113.25'
\toption proto 'tcp'
\toption dest_port '25'
\toption family 'ipv4'
\toption target 'snat'
`;

// fw4.uc option specs: the options parsed with PARSE_LIST, per section type. Every other option is
// a scalar, where a UCI list makes fw4 skip the whole section.
const FW4_LISTS: Record<string, string[]> = {
  zone: ['network', 'device', 'subnet', 'masq_src', 'masq_dest', 'helper'],
  rule: ['proto', 'src_ip', 'src_mac', 'src_port', 'dest_ip', 'dest_port', 'icmp_type'],
  redirect: ['proto', 'src_mac', 'reflection_zone'],
  nat: ['proto'],
  ipset: ['match', 'entry'],
};
// Options read by parse_bool in any section type.
const FW4_BOOLEANS = [
  'enabled', 'masq', 'masq6', 'masq_allow_invalid', 'mtu_fix', 'auto_helper', 'counter', 'reflection', 'utc_time', 'connlimit_ports',
  'drop_invalid', 'drop_invalid_early', 'syn_flood', 'synflood_protect', 'tcp_syncookies', 'tcp_window_scaling', 'accept_redirects',
  'accept_source_route', 'custom_chains', 'disable_ipv6', 'flow_offloading', 'flow_offloading_hw', 'flow_offloading_related',
  'auto_includes', 'reload_set', 'counters',
];
// Options read by parse_enum, with their choices in fw4's order (the first prefix match wins).
const POLICIES = ['accept', 'reject', 'drop'];
const REJECT_CODES = ['tcp-reset', 'port-unreachable', 'admin-prohibited', 'host-unreachable', 'no-route'];
const FW4_ENUMS: Record<string, string[]> = {
  input: POLICIES,
  output: POLICIES,
  forward: POLICIES,
  target: ['accept', 'reject', 'drop', 'notrack', 'helper', 'mark', 'dscp', 'dnat', 'snat', 'masquerade'],
  tcp_reject_code: REJECT_CODES,
  any_reject_code: REJECT_CODES,
  reflection_src: ['internal', 'external'],
};

function fw4Bool(value: string): string | undefined {
  if (['1', 'on', 'true', 'yes'].includes(value)) return 'true';
  if (['0', 'off', 'false', 'no'].includes(value)) return 'false';
  return undefined;
}

function fw4Enum(value: string, choices: string[]): string | undefined {
  const lower = value.toLowerCase();
  return choices.find((choice) => choice.slice(0, lower.length) === lower);
}

function fw4Family(value: string): string | undefined {
  if (['any', 'all', '*'].includes(value)) return 'any';
  if (value === 'inet' || value.includes('4')) return 'ipv4';
  return value.includes('6') ? 'ipv6' : undefined;
}

/** One option as fw4 parses it; a value fw4 would refuse stays as written, so it still compares. */
function fw4Value(type: string, option: string, value: UciValue): UciValue {
  if (FW4_LISTS[type]?.includes(option)) return typeof value === 'string' ? value.trim().split(/[ \t]+/).filter(Boolean) : value;
  if (typeof value !== 'string') return value;
  if (FW4_BOOLEANS.includes(option)) return fw4Bool(value) ?? value;
  if (option === 'log' && type !== 'zone') return fw4Bool(value) ?? value;
  if (option === 'family') return fw4Family(value) ?? value;
  if (option in FW4_ENUMS) return fw4Enum(value, FW4_ENUMS[option]) ?? value;
  return value;
}

function fw4Meaning(section: UciSection) {
  const options = [...section.options].map(([option, value]) => [option, fw4Value(section.type, option, value)] as const);
  return { type: section.type, options: Object.fromEntries(options.sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** Same section types in the same order, each with the same options as fw4 reads them; names differ only by adoption. */
function assertSameMeaning(before: string, after: string, adopted: Map<string, string>) {
  const [old, now] = [parseUci(before).sections, parseUci(after).sections];
  assert.equal(now.map((section) => section.type), old.map((section) => section.type), 'section types and order');
  old.forEach((section, index) => {
    const label = `${section.type} ${section.name} (${section.options.get('name') ?? ''})`;
    assert.is(now[index].name, adopted.get(section.name) ?? section.name, `${label}: name`);
    assert.equal(fw4Meaning(now[index]), fw4Meaning(section), label);
  });
}

let router: Router;
let auth: Record<string, string>;
let responseSchemas: Map<string, ValidateFunction> | undefined;
const firewall = () => readFileSync(router.path('/etc/config/firewall'), 'utf8');
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });

/** The response schema the served OpenAPI document publishes for each firewall resource. */
async function schemas(): Promise<Map<string, ValidateFunction>> {
  if (responseSchemas) return responseSchemas;
  const document = (await router.request({ method: 'GET', path: '/openapi.json' })).json as Body;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  responseSchemas = new Map();
  for (const resource of ['zones', 'rules', 'redirects', 'nat', 'forwardings', 'defaults']) {
    const name = `Firewall${resource[0].toUpperCase()}${resource.slice(1)}`;
    assert.ok(document.components.schemas[name], name);
    responseSchemas.set(`firewall/${resource}`, ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` }));
  }
  return responseSchemas;
}

async function assertConforms(resource: string, body: unknown): Promise<void> {
  const validate = (await schemas()).get(resource)!;
  assert.ok(validate(body), `${resource}: ${JSON.stringify(body)}\n${JSON.stringify(validate.errors)}`);
}

/** A 200 whose body is the resource, valid against its published response schema. */
async function conforming(resource: string, response: Response): Promise<Body> {
  assert.is(response.status, 200, response.body);
  await assertConforms(resource, response.json);
  return response.json as Body;
}

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
  writeFileSync(router.path('/etc/config/firewall'), STOCK + EXTRA);
  // The interfaces the extra zone names: a zone naming no interface is refused.
  appendFileSync(router.path('/etc/config/network'), "\nconfig interface 'vpn0'\n\toption proto 'none'\n\nconfig interface 'vpn1'\n\toption proto 'none'\n");
});
test.after.each(async () => {
  await router.cleanup();
});

const COLLECTIONS: [resource: string, count: number][] = [
  ['firewall/zones', 3],
  ['firewall/rules', 15],
  ['firewall/redirects', 3],
  ['firewall/nat', 2],
  ['firewall/forwardings', 3],
];

for (const [resource, count] of COLLECTIONS) {
  test(`${resource}: GET, adopt and PUT back every stock and extra section; firewall4 reads the same file`, async () => {
    const before = firewall();
    const list = await call({ method: 'GET', path: `/${resource}` });
    assert.is(list.status, 200, list.body);
    const items = list.json as Body[];
    assert.is(items.length, count);
    const adopted = new Map<string, string>();
    for (const item of items) {
      await assertConforms(resource, item);
      const read = await conforming(resource, await call({ method: 'GET', path: `/${resource}/${item.id}` }));
      assert.equal(read, item);
      let id = item.id as string;
      if (!item.managed) {
        id = (await conforming(resource, await call({ method: 'POST', path: `/${resource}/${item.id}/adopt` }))).id;
        adopted.set(item.id, id);
      }
      const put = await conforming(resource, await call({ method: 'PUT', path: `/${resource}/${id}`, body: read }));
      assert.equal(put, { ...read, id, managed: true });
      assert.equal(await conforming(resource, await call({ method: 'GET', path: `/${resource}/${id}` })), put);
    }
    assertSameMeaning(before, firewall(), adopted);
  });
}

test('firewall/defaults: GET and PUT the read back; firewall4 reads the same file', async () => {
  const before = firewall();
  const read = await conforming('firewall/defaults', await call({ method: 'GET', path: '/firewall/defaults' }));
  const put = await conforming('firewall/defaults', await call({ method: 'PUT', path: '/firewall/defaults', body: read }));
  assert.equal(put, read);
  assert.equal(await conforming('firewall/defaults', await call({ method: 'GET', path: '/firewall/defaults' })), read);
  assertSameMeaning(before, firewall(), new Map());
});

test('the comparison sees what fw4 sees: lenient spellings are equal, a list on a scalar option or a changed value is not', () => {
  const meaning = (text: string) => fw4Meaning(parseUci(text).sections[0]);
  assert.equal(
    meaning("config rule\n\toption proto 'tcp udp'\n\toption enabled 'yes'\n\toption family '4'\n\toption target 'accept'\n\toption log 'on'\n"),
    meaning("config rule\n\tlist proto 'tcp'\n\tlist proto 'udp'\n\toption enabled '1'\n\toption family 'ipv4'\n\toption target 'ACCEPT'\n\toption log '1'\n"),
  );
  assert.equal(meaning("config zone\n\toption input 'rej'\n\toption masq 'off'\n"), meaning("config zone\n\toption input 'REJECT'\n\toption masq 'no'\n"));
  assert.not.equal(meaning("config rule\n\toption weekdays 'Mon Tue'\n"), meaning("config rule\n\tlist weekdays 'Mon'\n\tlist weekdays 'Tue'\n"));
  assert.not.equal(meaning("config rule\n\tlist proto 'tcp udp'\n"), meaning("config rule\n\tlist proto 'tcp'\n\tlist proto 'udp'\n"));
  assert.not.equal(meaning("config zone\n\toption log '1'\n"), meaning("config zone\n\toption log 'true'\n"));
  assert.not.equal(meaning("config rule\n\toption limit '10/minute'\n"), meaning("config rule\n\toption limit '10/second'\n"));
});

test('the file as firewall4 ships it reads exactly like the file uci commit writes', async () => {
  const reads = async () => {
    const bodies: unknown[] = [];
    for (const [resource] of COLLECTIONS) {
      const list = await call({ method: 'GET', path: `/${resource}` });
      assert.is(list.status, 200, list.body);
      for (const item of list.json as Body[]) await assertConforms(resource, item);
      bodies.push(list.json);
    }
    bodies.push(await conforming('firewall/defaults', await call({ method: 'GET', path: '/firewall/defaults' })));
    return bodies;
  };
  writeFileSync(router.path('/etc/config/firewall'), STOCK);
  const committed = await reads();
  // Not in uci commit's form, so the read goes through the full tokenizer the bundle loads on demand.
  assert.is(parseCanonical(SHIPPED), undefined);
  writeFileSync(router.path('/etc/config/firewall'), SHIPPED);
  assert.equal(await reads(), committed);
  assert.is(firewall(), SHIPPED);
});

test.run();
