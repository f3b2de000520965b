import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { docOf } from '../../build/generators/docs.js';
import { requestSchema } from '../../src/openapi/request-schemas.js';
import { schemaCheck } from '../../src/engine/schema-check.js';
import { FIREWALL4_BOOLEAN, firewall4Family, flagOrText } from '../../src/resources/codecs.js';
import { readOption, writeOption } from '../../src/resources/options.js';
import { isGroup, type Field, type Json, type JsonObject, type ResourceDefinition, type RuleContext } from '../../src/resources/model.js';
import { type UciPackage, type UciSection } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import defaults from '../../src/resources/firewall/defaults.js';
import forwardings from '../../src/resources/firewall/forwardings.js';
import nat from '../../src/resources/firewall/nat.js';
import redirects from '../../src/resources/firewall/redirects.js';
import rules from '../../src/resources/firewall/rules.js';
import zones from '../../src/resources/firewall/zones.js';

const DEFINITIONS = [zones, rules, redirects, nat, forwardings, defaults];

// Compiled to dist/node/test/unit: the seed stays in the source tree.
const seeds = new URL('../../../../shims/emu/seed/etc/config/', import.meta.url);
const STOCK = readFileSync(new URL('firewall', seeds), 'utf8');

// The body check the engine runs, on schemas with their patterns spelled out: none is an index.
const INDEXED = (index: number): string => {
  throw new Error(`pattern ${index} given by index`);
};
const bodySchemas = new Map(DEFINITIONS.map((definition) => [definition, requestSchema(docOf(definition), 'full')]));
const bodyErrors = (definition: ResourceDefinition, body: JsonObject) => schemaCheck(bodySchemas.get(definition)!, body, INDEXED);

/** The resource body of a section: every field through its codec, groups always as objects. */
function read(definition: ResourceDefinition, section: UciSection): JsonObject {
  const body: JsonObject = {};
  const readInto = (target: JsonObject, fields: Record<string, Field>) => {
    for (const [name, field] of Object.entries(fields)) {
      const value = readOption(field.codec, section.options.get(field.option ?? name));
      if (value !== undefined) target[name] = value;
    }
  };
  for (const [name, member] of Object.entries(definition.members)) {
    if (!isGroup(member)) readInto(body, { [name]: member });
    else readInto((body[name] = {}), member.fields);
  }
  return body;
}

/** `id`: the section the rules check, which a rule comparing it with its siblings skips. */
function contextOf(text = STOCK, id?: string): RuleContext {
  const pkg: UciPackage = parseUci(text);
  return {
    id,
    file: () => undefined,
    read(name) {
      assert.is(name, 'firewall');
      return pkg;
    },
  };
}

/** Paths of the null values in a body. */
function nulls(value: Json, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => nulls(child, path ? `${path}.${key}` : key));
}

function fieldOf(definition: ResourceDefinition, path: string): Field {
  const [name, inner] = path.split('.');
  const member = definition.members[name];
  const field = isGroup(member) ? member.fields[inner] : member;
  assert.ok(field, `${definition.path} has ${path}`);
  return field;
}

/** Whether the field's schema accepts the value. */
function accepts(definition: ResourceDefinition, path: string, value: Json): boolean {
  return !schemaCheck(fieldOf(definition, path).schema, value, INDEXED).length;
}

function shape(definition: ResourceDefinition, path: string, good: Json[], bad: Json[]): void {
  for (const value of good) assert.ok(accepts(definition, path, value), `${definition.path} ${path} accepts ${JSON.stringify(value)}`);
  for (const value of bad) assert.not.ok(accepts(definition, path, value), `${definition.path} ${path} refuses ${JSON.stringify(value)}`);
}

function valid(definition: ResourceDefinition, body: JsonObject): boolean {
  return !bodyErrors(definition, body).length;
}

/** The definition's rule errors as sorted `field:code`. */
function ruleErrors(definition: ResourceDefinition, body: JsonObject, context = contextOf()): string[] {
  return definition.rules!(body, context).map((error) => `${error.field}:${error.code}`).sort();
}

const BY_TYPE = new Map(DEFINITIONS.map((definition) => [definition.type, definition]));

test('every stock firewall section reads without nulls, passes the schema and the rules, and names existing zones', () => {
  const stock = parseUci(STOCK);
  const zoneNames = stock.sections.filter((section) => section.type === 'zone').map((section) => section.options.get('name'));
  assert.equal(zoneNames, ['lan', 'wan']);
  for (const section of stock.sections) {
    const definition = BY_TYPE.get(section.type);
    assert.ok(definition, `a definition reads ${section.type}`);
    const body = read(definition, section);
    assert.equal(nulls(body), [], `${section.name}: ${JSON.stringify(body)}`);
    assert.ok(valid(definition, body), `${section.name}: ${JSON.stringify(bodyErrors(definition, body))}`);
    assert.equal(ruleErrors(definition, body, contextOf(STOCK, section.name)), [], section.name);
    for (const reference of (definition.references ?? []).filter((candidate) => candidate.package === 'firewall')) {
      const [name, inner] = reference.field.split('.');
      const value = inner ? (body[name] as JsonObject)[inner] : body[name];
      for (const zone of [value ?? []].flat()) {
        assert.ok(reference.except?.includes(zone as string) || zoneNames.includes(zone as string), `${section.name} ${reference.field} ${zone}`);
      }
    }
  }
});

test('the stock sections read as firewall4 reads them', () => {
  const stock = parseUci(STOCK).sections;
  const [defaultsBody, lan, wan, forwarding] = stock.slice(0, 4).map((section) => read(BY_TYPE.get(section.type)!, section));
  assert.equal(defaultsBody, { input: 'REJECT', output_policy: 'ACCEPT', forward: 'REJECT', syn_flood: true });
  assert.equal(lan, { name: 'lan', input: 'ACCEPT', output_policy: 'ACCEPT', forward: 'ACCEPT', network: ['lan'], devices: [], subnets: [], masq_src: [], masq_dest: [], helpers: [] });
  assert.equal(wan.network, ['wan', 'wan6']);
  assert.is(wan.masq, true);
  assert.is(wan.mtu_fix, true);
  assert.equal(forwarding, { src: 'lan', dest: 'wan' });
  const byName = new Map(stock.filter((section) => section.type === 'rule').map((section) => [section.options.get('name'), read(rules, section)]));
  assert.equal(byName.get('Allow-DHCP-Renew'), {
    name: 'Allow-DHCP-Renew',
    target: 'ACCEPT',
    match: { src_zone: 'wan', family: 'ipv4', proto: ['udp'], src_ip: [], src_mac: [], src_port: [], dest_ip: [], dest_port: ['68'], icmp_type: [] },
  });
  const mld = byName.get('Allow-MLD')!.match as JsonObject;
  assert.equal(mld.icmp_type, ['130/0', '131/0', '132/0', '143/0']);
  assert.equal(mld.src_ip, ['fe80::/10']);
  const icmp = byName.get('Allow-ICMPv6-Forward')!.match as JsonObject;
  assert.is(icmp.dest_zone, '*');
  assert.is(icmp.limit, '1000/sec');
  assert.is(icmp.family, 'ipv6');
});

test('every definition is described, collections carry their id prefix, and every zone field is a checked reference', () => {
  const prefixes = { 'firewall/zones': 'z_', 'firewall/rules': 'r_', 'firewall/redirects': 'd_', 'firewall/nat': 'n_', 'firewall/forwardings': 'f_' };
  for (const definition of DEFINITIONS) {
    assert.is(definition.package, 'firewall');
    assert.equal(definition.reload, ['firewall']);
    assert.is(definition.idPrefix, prefixes[definition.path as keyof typeof prefixes]);
    assert.is(definition.kind, definition === defaults ? 'singleton' : 'collection');
    assert.ok(definition.description.length > 20, definition.path);
    for (const [name, member] of Object.entries(definition.members)) {
      assert.ok(member.description, `${definition.path} ${name}`);
      if (isGroup(member)) for (const [inner, field] of Object.entries(member.fields)) assert.ok(field.description, `${definition.path} ${name}.${inner}`);
    }
  }
  const referenced = (definition: ResourceDefinition) => (definition.references ?? []).map((reference) => `${reference.field}:${reference.by}:${reference.except ?? ''}`);
  assert.equal(referenced(rules), ['match.src_zone:name:*', 'match.dest_zone:name:*']);
  assert.equal(referenced(redirects), ['match.src_zone:name:*', 'match.dest_zone:name:*', 'reflection_zone:name:']);
  assert.equal(referenced(nat), ['match.src_zone:name:*']);
  assert.equal(referenced(forwardings), ['src:name:*', 'dest:name:*']);
  assert.equal(fieldOf(rules, 'match.src_zone').option, 'src');
  assert.is(fieldOf(zones, 'network').option, undefined);
  assert.is(fieldOf(zones, 'output_policy').option, 'output');
  assert.is(fieldOf(defaults, 'output_policy').option, 'output');
  assert.equal(fieldOf(redirects, 'match.dest_ip').option, undefined);
  assert.equal(zones.references, [{ field: 'network', package: 'network', type: 'interface', negation: '!' }]);
});

test('family reads firewall4 spellings into any, ipv4 or ipv6', () => {
  const family = firewall4Family().codec;
  const cases: [string, Json][] = [
    ['ipv4', 'ipv4'], ['IPv4', 'ipv4'], ['4', 'ipv4'], ['inet', 'ipv4'], ['ipv6', 'ipv6'], ['IPv6', 'ipv6'], ['6', 'ipv6'],
    ['any', 'any'], ['all', 'any'], ['*', 'any'], ['both', null], ['', null],
  ];
  for (const [stored, json] of cases) assert.is(readOption(family, stored), json, stored);
  assert.is(readOption(family, undefined), undefined);
  assert.is(writeOption(family, 'ipv6'), 'ipv6');
  assert.is(writeOption(family, null), undefined);
});

test('log reads a flag or a prefix', () => {
  const log = flagOrText(FIREWALL4_BOOLEAN).codec;
  assert.is(readOption(log, '1'), true);
  assert.is(readOption(log, 'yes'), true);
  assert.is(readOption(log, 'off'), false);
  assert.is(readOption(log, 'SSH: '), 'SSH: ');
  assert.is(writeOption(log, true), '1');
  assert.is(writeOption(log, false), '0');
  assert.is(writeOption(log, 'SSH: '), 'SSH: ');
  shape(rules, 'log', [true, false, 'SSH: '], ['say "hi"', 'x'.repeat(128), 1]);
});

test('enums read firewall4 any-case prefixes and write canonical values', () => {
  const target = fieldOf(rules, 'target').codec;
  const cases: [string, Json][] = [['ACCEPT', 'ACCEPT'], ['accept', 'ACCEPT'], ['acc', 'ACCEPT'], ['d', 'DROP'], ['m', 'MARK'], ['notrack', 'NOTRACK'], ['dnat', null], ['masquerade', null]];
  for (const [stored, json] of cases) assert.is(readOption(target, stored), json, stored);
  assert.is(readOption(fieldOf(redirects, 'target').codec, 'snat'), 'SNAT');
  assert.is(readOption(fieldOf(nat, 'target').codec, 'masq'), 'MASQUERADE');
  assert.is(readOption(fieldOf(zones, 'input').codec, 'reject'), 'REJECT');
  assert.is(readOption(fieldOf(defaults, 'tcp_reject_code').codec, 'admin'), 'admin-prohibited');
  assert.is(readOption(fieldOf(redirects, 'reflection_src').codec, 'ext'), 'external');
  assert.equal(readOption(fieldOf(rules, 'match.proto').codec, 'tcp udp'), ['tcp', 'udp']);
  assert.equal(readOption(fieldOf(rules, 'match.proto').codec, undefined), []);
});

test('addresses: literal, prefix, mask or range; no interface names, prefix lengths within the family', () => {
  shape(
    rules,
    'match.src_ip',
    [['192.168.1.1', '10.0.0.0/8', '!10.0.0.0/8', '10.0.0.0/255.0.0.0', '0.0.0.0/0.255.0.255', '10.0.0.1-10.0.0.9']],
    [['lan'], ['1.2.3.4/33'], ['256.1.1.1'], ['1.2.3'], ['01.2.3.4'], ['10.0.0.0/-8'], ['10.0.0.1-fe80::1'], '10.0.0.1'],
  );
  shape(
    rules,
    'match.dest_ip',
    [['fe80::/10', '::1', '::', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '2001:db8::1-2001:db8::ff', 'fe80::/::ffff:ffff:ffff:ffff']],
    [['fe80::/129'], ['1:2:3:4:5:6:7:8:9'], ['1::2::3'], ['fe80::/255.0.0.0'], ['fe80::1%eth0'], ['12345::1']],
  );
  shape(
    rules,
    'match.dest_ip',
    [['::ffff:1.2.3.4', '64:ff9b::192.0.2.1', '::1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5::1.2.3.4']],
    [['1:2:3:4:5:6:7::1.2.3.4'], ['1:2:3:4:5:6::1.2.3.4'], ['::ffff:1.2.3.04'], ['1:2:3:4:5:6:7:1.2.3.4']],
  );
  shape(nat, 'snat_ip', ['192.0.2.1', '192.0.2.1-192.0.2.9', '2001:db8::1'], ['192.0.2.0/24', '!192.0.2.1', 'wan']);
  shape(zones, 'subnets', [['192.168.1.0/24', '!192.168.1.128/25']], [['lan']]);
  shape(redirects, 'match.src_ip', ['203.0.113.7'], [['203.0.113.7']]);
});

test('ports, protocols, MACs and ICMP types follow fw4 minus what nft refuses', () => {
  shape(rules, 'match.dest_port', [['22', '1024-65535', '!22', '1000:2000', '0']], [['65536'], ['http'], ['22,80'], ['22 80'], ['022'], ['-1'], '22']);
  shape(redirects, 'match.dest_port', ['80', '8000-8080'], [['80'], '65536']);
  shape(nat, 'snat_port', ['1024-2048'], ['!1024']);
  shape(
    rules,
    'match.proto',
    [['tcp', 'TCP', 'udp', 'icmp', 'ICMP', 'icmpv6', 'ipv6-icmp', 'esp', 'gre', 'sctp', 'all', 'any', '*', 'tcpudp', '47', '0', '255']],
    [['!tcp'], ['tcp udp'], ['vrrp'], ['l2tp'], ['256'], ['017'], ['ip'], ['foo'], 'tcp'],
  );
  shape(rules, 'match.src_mac', [['00:11:22:33:44:55', '0:1:2:3:4:5', '00-11-22-33-44-55', '!AA:BB:CC:DD:EE:FF']], [['00:11:22:33:44'], ['001122334455']]);
  // A redirect's is one string (the spec: every match field but proto is a scalar), read from a UCI list joined.
  shape(redirects, 'match.src_mac', ['00:11:22:33:44:55', '00:11:22:33:44:55 !AA:BB:CC:DD:EE:FF', ''], [['00:11:22:33:44:55'], '00:11:22:33:44', '00:11:22:33:44:55,00:11:22:33:44:56']);
  assert.is(readOption(fieldOf(redirects, 'match.src_mac').codec, ['00:11:22:33:44:55', '!aa:bb:cc:dd:ee:ff']), '00:11:22:33:44:55 !aa:bb:cc:dd:ee:ff');
  assert.is(writeOption(fieldOf(redirects, 'match.src_mac').codec, ' 00:11:22:33:44:55  aa:bb:cc:dd:ee:ff'), '00:11:22:33:44:55 aa:bb:cc:dd:ee:ff');
  shape(rules, 'match.icmp_type', [['echo-request', '130/0', 'TOS-host-redirect', 'neighbour-solicitation', '255/255']], [['Echo-Request'], ['256'], ['1/256'], ['!echo-request']]);
});

test('marks, DSCP, limits, dates, times and weekdays', () => {
  shape(rules, 'match.mark', ['0x10', '0x10/0xff', '!1', '4294967295', '0xFFFFFFFF'], ['4294967296', '0x100000000', 'ff', '!', '010']);
  shape(rules, 'set_mark', ['0x1/0x1'], ['!1']);
  shape(rules, 'match.dscp', ['CS1', 'cs1', 'af41', 'EF', 'LE', '63', '0x3f', '!BE'], ['64', 'AF44', 'CS8', '0x40']);
  shape(rules, 'set_dscp', ['AF21'], ['!AF21']);
  shape(rules, 'match.limit', ['10/second', '1000/sec', '5/m', '1/d', '3', '100/hour'], ['0/second', '10/Second', '!10/second', '10/week', '0x10/s', '10/seconds']);
  shape(rules, 'match.limit_burst', [0, 5, 4294967295], [-1, 1.5, 4294967296, '5']);
  // firewall4's parse_limit: a plain number is per second, and reads back as the integer uapi's provider sends.
  shape(defaults, 'synflood_rate', [25, 1, 9007199254740991, '25/second', '100/m', '5/d'], [0, -1, 2.5, '25', '0/second', '25/Second', '25/week', '!25/s']);
  const rate = fieldOf(defaults, 'synflood_rate').codec;
  assert.equal(['25', '25/sec', '1000/minute'].map((stored) => readOption(rate, stored)), [25, '25/sec', '1000/minute']);
  assert.equal([writeOption(rate, 30), writeOption(rate, '30/hour')], ['30', '30/hour']);
  shape(rules, 'match.start_date', ['2024-08-15', '2024', '2024-8', '2024-08-15T08:30', '2038-12-31T23:59:59'], ['1969-01-01', '2039', '2024-13', '2024-01-32', '2024-01-01 08:00']);
  shape(nat, 'match.start_time', ['08:30', '8', '23:59:59'], ['24:00', '12:60']);
  shape(redirects, 'match.weekdays', ['Mon Tue', 'sat', 'M', '!Sun', 'monday friday'], ['Mo,Tu', 'Funday', '']);
});

test('names, zones, devices, networks, helpers and sets', () => {
  shape(zones, 'name', ['lan', 'wan_6', '_x', 'a.b/c-d', 'x'.repeat(47)], ['123_example', '*', 'a b', 'x'.repeat(48), '']);
  shape(rules, 'match.src_zone', ['*', 'lan'], ['**', 'lan wan']);
  shape(rules, 'name', ['Allow-SSH', 'Règle'], ['say "hi"', 'a\\b', 'x'.repeat(101), 'line\nbreak']);
  shape(zones, 'devices', [['eth0', 'eth+', '+', '!eth1', 'br-lan', 'wlan0-1']], [['*'], ['eth 0'], ['averyveryverylongname0']]);
  shape(zones, 'network', [['lan', '!wan6']], [['lan wan'], ['br-lan'], 'lan']);
  shape(zones, 'helpers', [['ftp', 'Q.931']], [['!ftp']]);
  shape(rules, 'device', ['eth0', 'eth*'], ['*', '!eth0']);
  shape(rules, 'match.ipset', ['blocked', 'blocked src', '!blocked src,dst'], ['blocked sideways', 'my set x']);
  shape(redirects, 'match.helper', ['ftp'], ['!ftp']);
  shape(redirects, 'reflection_zone', [['lan']], [['*']]);
});

test('rules: targets need their zone and set_* option, and set_* needs its target', () => {
  const wan = { src_zone: 'wan' };
  assert.equal(ruleErrors(rules, { target: 'NOTRACK', match: {} }), ['match.src_zone:required']);
  assert.equal(ruleErrors(rules, { target: 'NOTRACK', match: { src_zone: '*' } }), ['match.src_zone:conflict']);
  assert.equal(ruleErrors(rules, { target: 'HELPER', match: {} }), ['match.src_zone:required', 'set_helper:required']);
  assert.equal(ruleErrors(rules, { target: 'HELPER', set_helper: 'ftp', match: wan }), []);
  assert.equal(ruleErrors(rules, { target: 'MARK', match: wan }), ['set_mark:required']);
  assert.equal(ruleErrors(rules, { target: 'MARK', set_xmark: '0x1', match: wan }), []);
  assert.equal(ruleErrors(rules, { target: 'MARK', set_mark: '0x1', set_xmark: '0x1', match: wan }), ['set_xmark:conflict']);
  assert.equal(ruleErrors(rules, { target: 'DSCP', match: {} }), ['set_dscp:required']);
  assert.equal(ruleErrors(rules, { target: 'ACCEPT', set_mark: '0x1', set_dscp: 'EF', match: wan }), ['set_dscp:conflict', 'set_mark:conflict']);
  assert.equal(ruleErrors(rules, { set_helper: 'ftp', match: wan }), ['set_helper:conflict']);
});

test('rules: ports only with tcp and udp, ICMP types only with ICMP of their family', () => {
  const rule = (match: JsonObject) => ruleErrors(rules, { target: 'ACCEPT', match: { src_zone: 'wan', ...match } });
  assert.equal(rule({ dest_port: ['22'] }), []);
  assert.equal(rule({ proto: ['TCP', 'udp'], dest_port: ['22'] }), []);
  assert.equal(rule({ proto: ['6', 'tcpudp'], src_port: ['1024-65535'] }), []);
  assert.equal(rule({ proto: ['all'], dest_port: ['22'] }), ['match.dest_port:conflict']);
  assert.equal(rule({ proto: ['tcp', 'icmp'], src_port: ['22'], dest_port: ['22'] }), ['match.dest_port:conflict', 'match.src_port:conflict']);
  assert.equal(rule({ icmp_type: ['echo-request'] }), ['match.icmp_type:conflict']);
  assert.equal(rule({ proto: ['icmp'], icmp_type: ['echo-request', '3/4'] }), []);
  assert.equal(rule({ proto: ['icmp'], family: 'ipv4', icmp_type: ['echo-request', 'neighbour-solicitation'] }), ['match.icmp_type[1]:conflict']);
  assert.equal(rule({ proto: ['icmpv6'], icmp_type: ['ip-header-bad'] }), ['match.icmp_type[0]:conflict']);
  assert.equal(rule({ proto: ['icmp'], family: 'ipv6', icmp_type: ['bad-header', '130/0'] }), []);
  // A body the schema refuses still gets its rule errors (the engine reports both at once).
  assert.equal(ruleErrors(rules, { name: 'x', target: 'BOGUS', match: { src_zone: 'nosuch', proto: ['icmp'], dest_port: '22' } }), ['match.dest_port:conflict']);
});

test('rules: descending ranges, date order, family agreement, disabled zones and undeclared sets', () => {
  const rule = (match: JsonObject, text?: string) => ruleErrors(rules, { target: 'DROP', match: { src_zone: 'wan', ...match } }, contextOf(text));
  assert.equal(rule({ dest_port: ['2000-1000', '1000-2000', '!3:2'] }), ['match.dest_port[0]:invalid_format', 'match.dest_port[2]:invalid_format']);
  assert.equal(rule({ src_ip: ['10.0.0.9-10.0.0.1', '10.0.0.1-10.0.0.9', '::2-::1', '2001:db8::ff-2001:db8::1:0'] }), ['match.src_ip[0]:invalid_format', 'match.src_ip[2]:invalid_format']);
  assert.equal(rule({ start_date: '2024-06-01', stop_date: '2024-05-31T23:00' }), ['match.stop_date:conflict']);
  assert.equal(rule({ start_date: '2024-06-01', stop_date: '2024-06-01' }), []);
  assert.equal(rule({ family: 'ipv4', src_ip: ['fe80::/10'] }), ['match.src_ip:conflict']);
  assert.equal(rule({ src_ip: ['10.0.0.1'], dest_ip: ['fe80::1'] }), ['match.dest_ip:conflict']);
  assert.equal(rule({ family: 'ipv6', src_ip: ['10.0.0.1', 'fe80::1'] }), []);
  const guest = `${STOCK}\nconfig zone\n\toption name 'guest'\n\toption enabled 'off'\n\nconfig ipset\n\toption name 'blocked'\n`;
  assert.equal(rule({ dest_zone: 'guest' }, guest), ['match.dest_zone:conflict']);
  assert.equal(rule({ ipset: 'blocked src' }, guest), []);
  assert.equal(rule({ ipset: '!nosuch' }, guest), ['match.ipset:conflict']);
});

test('redirects: DNAT needs a real source zone and a plain rewrite target', () => {
  const dnat = { match: { src_zone: 'wan', dest_zone: 'lan', proto: ['tcp'], src_dport: '8080', dest_ip: '192.168.1.10', dest_port: '80' } };
  assert.ok(valid(redirects, dnat));
  assert.equal(ruleErrors(redirects, dnat), []);
  assert.equal(ruleErrors(redirects, { match: {} }), ['match.src_zone:required']);
  assert.equal(ruleErrors(redirects, { target: 'DNAT', match: { src_zone: '*' } }), ['match.src_zone:conflict']);
  assert.equal(ruleErrors(redirects, { match: { ...dnat.match, dest_ip: '192.168.1.0/24', dest_port: '!80' } }), ['match.dest_ip:conflict', 'match.dest_port:conflict']);
  assert.equal(ruleErrors(redirects, { match: { ...dnat.match, proto: ['all'], src_port: '1024' } }), ['match.dest_port:conflict', 'match.src_dport:conflict', 'match.src_port:conflict']);
  assert.equal(ruleErrors(redirects, { match: { ...dnat.match, src_dip: '!203.0.113.1', src_mac: '00:11:22:33:44:55' } }), []);
  assert.equal(ruleErrors(redirects, { match: { ...dnat.match, family: 'ipv6' } }), ['match.dest_ip:conflict']);
  assert.not.ok(valid(redirects, { match: { ...dnat.match, src_ip: ['10.0.0.1'] } }), 'every match field but proto is a scalar');
  assert.not.ok(valid(redirects, { match: { ...dnat.match, dest_ip: ['192.168.1.10'] } }));
  assert.not.ok(valid(redirects, { ...dnat, dest_ip: '192.168.1.10' }), 'dest_ip is no top-level field');
});

test('redirects: SNAT needs a named destination zone and a plain src_dip, and takes no DNAT-only fields', () => {
  const snat = { target: 'SNAT', match: { dest_zone: 'wan', src_dip: '203.0.113.1', src_ip: '192.168.1.0/24' } };
  assert.equal(ruleErrors(redirects, snat), []);
  assert.equal(ruleErrors(redirects, { target: 'SNAT', match: {} }), ['match.dest_zone:required', 'match.src_dip:required']);
  assert.equal(ruleErrors(redirects, { target: 'SNAT', match: { dest_zone: '*', src_dip: '!203.0.113.1', src_dport: '!1024' } }), ['match.dest_zone:conflict', 'match.src_dip:conflict', 'match.src_dport:conflict']);
  assert.equal(
    ruleErrors(redirects, { ...snat, reflection: false, reflection_src: 'external', reflection_zone: ['lan'], match: { ...snat.match, src_mac: '00:11:22:33:44:55', helper: 'ftp' } }),
    ['match.helper:conflict', 'match.src_mac:conflict', 'reflection:conflict', 'reflection_src:conflict', 'reflection_zone:conflict'],
  );
  assert.equal(ruleErrors(redirects, { ...snat, match: { ...snat.match, dest_ip: '!10.0.0.1', dest_port: '!22' } }), []);
  const disabled = `${STOCK}\nconfig zone\n\toption name 'dmz'\n\toption enabled '0'\n`;
  assert.equal(ruleErrors(redirects, { ...snat, match: { ...snat.match, dest_zone: 'dmz' } }, contextOf(disabled)), ['match.dest_zone:conflict']);
});

test('nat: SNAT needs snat_ip or snat_port, other targets take neither; ports need tcp or udp, which all becomes', () => {
  const rule = (body: JsonObject) => ruleErrors(nat, { match: { src_zone: 'wan' }, ...body });
  assert.equal(rule({ target: 'SNAT' }), ['snat_ip:required']);
  assert.equal(rule({ target: 'SNAT', snat_port: '1024-2048', match: { proto: ['udp'] } }), []);
  assert.equal(rule({ target: 'MASQUERADE', snat_ip: '203.0.113.1' }), ['snat_ip:conflict']);
  assert.equal(rule({ snat_port: '1024' }), ['snat_port:conflict']);
  assert.equal(rule({ target: 'ACCEPT', match: { dest_port: '53' } }), []);
  assert.equal(rule({ target: 'ACCEPT', match: { proto: ['all'], dest_port: '53' } }), []);
  assert.equal(rule({ target: 'ACCEPT', match: { proto: ['all', 'icmp'], dest_port: '53' } }), ['match.dest_port:conflict']);
  assert.equal(rule({ target: 'SNAT', snat_ip: '2001:db8::1', match: { family: 'ipv4' } }), ['snat_ip:conflict']);
  assert.equal(rule({ target: 'SNAT', snat_ip: '203.0.113.9-203.0.113.1' }), ['snat_ip:invalid_format']);
  assert.ok(valid(nat, { target: 'SNAT', snat_ip: '203.0.113.1', device: 'eth1', match: { src_zone: '*', src_ip: '192.168.1.0/24' } }));
});

test('zones: the name is required and the family must admit the subnets', () => {
  assert.not.ok(valid(zones, { input: 'ACCEPT' }));
  assert.ok(valid(zones, { name: 'guest', input: 'REJECT', output_policy: 'ACCEPT', network: ['guest'], masq: true, log: 3 }));
  assert.not.ok(valid(zones, { name: 'guest', networks: ['guest'] }));
  assert.not.ok(valid(zones, { name: 'guest', output: 'ACCEPT' }));
  assert.equal(ruleErrors(zones, { name: 'v6', family: 'ipv4', subnets: ['fd00::/8'] }), ['subnets:conflict']);
  assert.equal(ruleErrors(zones, { name: 'mixed', family: 'ipv4', subnets: ['fd00::/8', '10.0.0.0/8'] }), []);
});

test('defaults: syn_flood and synflood_protect must agree when both are given', () => {
  assert.equal(ruleErrors(defaults, { syn_flood: true, synflood_protect: false }), ['syn_flood:conflict', 'synflood_protect:conflict']);
  assert.equal(ruleErrors(defaults, { syn_flood: true, synflood_protect: true }), []);
  assert.equal(ruleErrors(defaults, { synflood_protect: false }), []);
  assert.ok(valid(defaults, { input: 'DROP', output_policy: 'ACCEPT', synflood_rate: 25, synflood_burst: 50, flow_offloading: true, any_reject_code: 'tcp-reset' }));
  assert.ok(valid(defaults, { synflood_rate: '25/second' }));
  assert.not.ok(valid(defaults, { output: 'ACCEPT' }));
});

test('forwardings: a disabled zone is refused', () => {
  const disabled = `${STOCK}\nconfig zone\n\toption name 'dmz'\n\toption enabled 'no'\n`;
  assert.equal(ruleErrors(forwardings, { src: 'lan', dest: 'dmz' }, contextOf(disabled)), ['dest:conflict']);
  assert.equal(ruleErrors(forwardings, { src: '*', dest: 'wan' }), []);
});

test.run();
