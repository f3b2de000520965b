// The wireless round trip: every radio and SSID of the stock file and of realistic extra ones (in
// spellings netifd accepts, anonymous and named) is read, adopted when anonymous and PUT back
// unchanged, and the file must still mean the same to netifd: options compared as uci's blob.c hands
// them to the scripts (uci_to_blob by the types they declare), not byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UciSection, UciValue } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { strtol } from '../support/uci-blob.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/wireless', import.meta.url), 'utf8');

const EXTRA = `
config wifi-device 'radio2'
\toption type 'mac80211'
\toption phy 'phy2'
\toption radio '0x1'
\toption band '6g'
\toption channel '37'
\toption htmode 'EHT160'
\toption country 'US'
\toption txpower '020'
\toption cell_density '2'
\toption legacy_rates 'false'
\toption noscan '1'
\toption num_global_macaddr '4'
\toption disabled 'true'

config wifi-iface
\toption device 'radio2'
\toption network 'lan'
\toption mode 'ap'
\toption ssid 'Six'
\toption encryption 'sae'
\toption key 'correct horse'
\toption ieee80211w '2'
\toption isolate 'yes'
\toption wmm 'true'
\toption maxassoc '0x40'
\toption disabled '0'

config wifi-iface 'guest'
\toption device 'radio0'
\toption network 'lan wan'
\toption mode 'ap'
\toption ssid 'Gäste'
\toption encryption 'psk-mixed+tkip+ccmp'
\toption key 'guest-pass'
\toption hidden '1'
\toption macfilter 'deny'
\toption maclist '02:00:00:00:00:01 02:00:00:00:00:02'
\toption ifname 'guest0'
\toption macaddr 'random'
\toption ieee80211k '1'
\toption bss_transition 'true'
\toption ieee80211r '1'
\toption mobility_domain 'beef'
\toption ft_over_ds '0'
\toption ft_psk_generate_local '1'

config wifi-iface 'uplink'
\toption device 'radio1'
\toption network 'wan'
\toption mode 'sta'
\toption ssid 'Upstream'
\toption bssid '02:11:22:33:44:55'
\toption encryption 'psk2+ccmp'
\toption key '${'0123456789abcdef'.repeat(4)}'
\toption wds '1'

config wifi-iface
\toption device 'radio1'
\toption mode 'mesh'
\toption mesh_id 'backhaul'
\toption mesh_fwding 'no'
\toption encryption 'sae'
\toption key 'm'
\tlist network 'lan'

config wifi-iface 'corp'
\toption device 'radio1'
\toption network 'lan'
\toption mode 'ap'
\toption ssid 'Corp'
\toption encryption 'wpa3-mixed+ccmp'
\toption auth_server '192.168.1.5'
\toption auth_port '0x714'
\toption auth_secret 'radius secret'
\tlist acct_server '192.168.1.5'
\tlist acct_server 'fd00::5'
\toption acct_port '1813'
\toption acct_secret 'accounting secret'
\toption acct_interval '600'
\toption nasid 'ap-corp'
\toption ownip '192.168.1.1'
\toption ieee80211r '1'
\toption ieee80211w '1'

config wifi-iface 'eduroam'
\toption device 'radio0'
\toption network 'wan'
\toption mode 'sta'
\toption ssid 'eduroam'
\toption encryption 'wpa2'
\toption eap_type 'ttls'
\toption auth 'PAP'
\toption identity 'user@example.org'
\toption anonymous_identity 'anonymous@example.org'
\toption password 'eap secret'
\toption ca_cert '/etc/ssl/certs/ca.pem'
\toption subject_match '/CN=radius.example.org'
\toption altsubject_match 'DNS:radius.example.org DNS:radius2.example.org'
\tlist domain_match 'example.org'

config wifi-iface 'both'
\tlist device 'radio0'
\tlist device 'radio1'
\toption network 'lan'
\toption mode 'ap'
\toption ssid 'Both'
\toption encryption 'psk3-mixed'
\toption key 'both radios'

config wifi-iface 'legacy'
\toption device 'radio0'
\toption mode 'ap'
\toption ssid 'Old'
\toption encryption 'wep-open'
\toption key '1'
\toption key1 's:abcde'

config wifi-iface 'tuned'
\toption device 'radio1'
\toption network 'lan'
\toption mode 'ap'
\toption ssid 'Tuned'
\toption encryption 'wpa2'
\toption auth_server '192.168.1.5'
\toption auth_secret 'radius secret'
\toption dtim_period '3'
\toption short_preamble '0'
\toption uapsd 'no'
\toption utf8_ssid '1'
\toption multicast_to_unicast 'false'
\toption bridge_isolate '1'
\toption wpa_group_rekey '0x100'
\toption dae_client '192.168.1.5'
\toption dae_secret 'dae secret'
\toption dynamic_vlan '1'
\toption vlan_tagged_interface 'eth0'
\toption multi_ap '3'
\toption ieee80211r '1'
\tlist r0kh '02:00:00:00:00:01,ap1,000102030405060708090a0b0c0d0e0f'
\toption r0_key_lifetime '600'

config wifi-iface 'meshed'
\toption device 'radio1'
\toption mode 'mesh'
\toption mesh_id 'backhaul2'
\toption mesh_rssi_threshold '-70'
\toption mesh_auto_open_plinks '0'
\toption mesh_power_mode '3'
`;

// The types the 24.10 scripts declare these options with; every other one is a STRING.
const INT32 = ['radio', 'txpower', 'cell_density', 'num_global_macaddr', 'maxassoc', 'ieee80211w', 'auth_port', 'acct_port', 'acct_interval', 'dtim_period', 'wpa_group_rekey', 'dynamic_vlan', 'multi_ap', 'r0_key_lifetime', 'mesh_rssi_threshold'];
const ARRAYS = ['network', 'maclist', 'auth_server', 'acct_server', 'altsubject_match', 'domain_match', 'r0kh'];
const OFF = ['disabled', 'legacy_rates', 'noscan', 'isolate', 'hidden', 'wds', 'ieee80211r', 'ieee80211k', 'bss_transition', 'ft_over_ds', 'bridge_isolate'];
const ON = ['wmm', 'mesh_fwding', 'short_preamble', 'uapsd', 'utf8_ssid', 'mesh_auto_open_plinks'];
const BOOLS = [...OFF, ...ON, 'ft_psk_generate_local', 'multicast_to_unicast'];

/** One option as the scripts receive it; undefined when it means what no option means. */
function scriptValue(option: string, value: UciValue): string | number | string[] | undefined {
  if (ARRAYS.includes(option)) return typeof value === 'string' ? value.split(/[ \t]+/).filter(Boolean) : value;
  if (typeof value !== 'string') return undefined;
  if (INT32.includes(option)) return strtol(value);
  if (!BOOLS.includes(option)) return value;
  const bool = value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : undefined;
  if (OFF.includes(option)) return bool ? 'true' : undefined;
  return ON.includes(option) ? (bool === false ? 'false' : undefined) : bool === undefined ? undefined : String(bool);
}

function meaning(section: UciSection) {
  const options = [...section.options].map(([option, value]) => [option, scriptValue(option, value)] as const).filter(([, value]) => value !== undefined);
  return { type: section.type, options: Object.fromEntries(options.sort(([a], [b]) => (a < b ? -1 : 1))) };
}

let router: Router;
let auth: Record<string, string>;
let responseSchemas: Map<string, ValidateFunction> | undefined;
const wireless = () => readFileSync(router.path('/etc/config/wireless'), 'utf8');
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });

async function conforming(resource: string, response: Response): Promise<Body> {
  assert.is(response.status, 200, response.body);
  if (!responseSchemas) {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema((await call({ method: 'GET', path: '/openapi.json' })).json as Body, 'openapi.json');
    const compile = (name: string) => ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
    responseSchemas = new Map([['wireless/devices', compile('WirelessDevices')], ['wireless/interfaces', compile('WirelessInterfaces')]]);
  }
  const validate = responseSchemas.get(resource)!;
  assert.ok(validate(response.json), `${resource}: ${response.body}\n${JSON.stringify(validate.errors)}`);
  return response.json as Body;
}

/** Reads every section of a resource, adopts the anonymous ones and PUTs each read back. */
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
      id = (await conforming(resource, await call({ method: 'POST', path: `/${resource}/${item.id}/adopt` }))).id;
      adopted.set(item.id, id);
    }
    const { runtime: _runtime, ...configured } = read;
    const put = await conforming(resource, await call({ method: 'PUT', path: `/${resource}/${id}`, body: read }));
    assert.equal(put, { ...configured, id, managed: true });
  }
}

function assertSameMeaning(before: string, after: string, adopted: Map<string, string>) {
  const [old, now] = [parseUci(before).sections, parseUci(after).sections];
  assert.equal(now.map((section) => section.name), old.map((section) => adopted.get(section.name) ?? section.name), 'names and order');
  old.forEach((section, index) => {
    assert.equal(meaning(now[index]), meaning(section), section.name);
    // A PUT of a read writes every option back in its place, the secrets it keeps among them.
    assert.equal([...now[index].options.keys()], [...section.options.keys()], `${section.name}: the options' order`);
  });
}

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
  responseSchemas = undefined;
});
test.after.each(async () => {
  await router.cleanup();
});

test('the stock file round-trips byte for byte', async () => {
  await roundTrip('wireless/devices', 2, new Map());
  await roundTrip('wireless/interfaces', 2, new Map());
  assert.is(wireless(), STOCK);
});

test('stock and extra sections (enterprise ap and sta, two radios, WEP) round-trip; the scripts read the same file, secrets included', async () => {
  writeFileSync(router.path('/etc/config/wireless'), STOCK + EXTRA);
  const before = wireless();
  const adopted = new Map<string, string>();
  await roundTrip('wireless/devices', 3, adopted);
  await roundTrip('wireless/interfaces', 12, adopted);
  assert.is(adopted.size, 2);
  assertSameMeaning(before, wireless(), adopted);
});

test('the extra sections read as the scripts read them', async () => {
  writeFileSync(router.path('/etc/config/wireless'), STOCK + EXTRA);
  const radio = (await call({ method: 'GET', path: '/wireless/devices/radio2' })).json as Body;
  assert.equal([radio.radio, radio.channel, radio.txpower, radio.legacy_rates, radio.noscan, radio.disabled], [1, 37, 16, false, true, true]);
  const [, , six, guest, uplink, mesh] = (await call({ method: 'GET', path: '/wireless/interfaces' })).json as Body[];
  assert.equal([six.isolate, six.wmm, six.maxassoc, six.disabled, six.has_key], [false, true, 64, false, true]);
  assert.equal([guest.network, guest.maclist, guest.ft_psk_generate_local], ['lan wan', ['02:00:00:00:00:01', '02:00:00:00:00:02'], true]);
  assert.equal([uplink.mode, uplink.wds, uplink.has_key], ['sta', true, true]);
  assert.equal([mesh.mesh_fwding, mesh.network], [true, 'lan'], "blob.c drops 'no': the default applies");
  const [corp, eduroam, both, legacy] = ((await call({ method: 'GET', path: '/wireless/interfaces' })).json as Body[]).slice(6);
  assert.equal([corp.auth_port, corp.auth_server, corp.acct_server, corp.has_auth_secret, corp.has_acct_secret, corp.ieee80211w], [1812, ['192.168.1.5'], ['192.168.1.5', 'fd00::5'], true, true, 1]);
  assert.equal([eduroam.auth, eduroam.altsubject_match, eduroam.domain_match, eduroam.has_password], ['PAP', ['DNS:radius.example.org', 'DNS:radius2.example.org'], ['example.org'], true]);
  assert.equal([both.device, both.encryption, legacy.encryption, legacy.has_key, legacy.has_key1], [null, 'psk3-mixed', 'wep-open', true, true]);
  const [tuned, meshed] = ((await call({ method: 'GET', path: '/wireless/interfaces' })).json as Body[]).slice(10);
  assert.equal([tuned.dtim_period, tuned.short_preamble, tuned.uapsd, tuned.multicast_to_unicast, tuned.wpa_group_rekey, tuned.has_dae_secret, tuned.r0kh], [3, false, true, false, 256, true, ['02:00:00:00:00:01,ap1,000102030405060708090a0b0c0d0e0f']]);
  assert.equal([meshed.mesh_rssi_threshold, meshed.mesh_auto_open_plinks, meshed.mesh_power_mode], [-70, false, 3]);
  const shown = JSON.stringify([six, guest, uplink, mesh, corp, eduroam, both, legacy, tuned, meshed]);
  for (const secret of ['correct horse', 'radius secret', 'accounting secret', 'eap secret', 'both radios', 's:abcde', 'dae secret']) assert.not.ok(shown.includes(secret), secret);
});

test('the comparison sees what the scripts see', () => {
  const of = (text: string) => meaning(parseUci(text).sections[0]);
  assert.equal(of("config wifi-iface\n\toption network 'lan  wan'\n\toption isolate 'yes'\n\toption wmm 'on'\n\toption maxassoc '0x10'\n"), of("config wifi-iface\n\tlist network 'lan'\n\tlist network 'wan'\n\toption wmm '1'\n\toption maxassoc '16'\n"));
  assert.not.equal(of("config wifi-iface\n\toption maxassoc '010'\n"), of("config wifi-iface\n\toption maxassoc '10'\n"));
  assert.not.equal(of("config wifi-iface\n\toption wmm '0'\n"), of('config wifi-iface\n'));
  assert.not.equal(of("config wifi-iface\n\toption hidden 'true'\n"), of('config wifi-iface\n'));
});

test.run();
