// The wireless definitions against the stock configuration and the 24.10 scripts: how options read,
// the value shapes the body check takes, and the rules, without the CGI path.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { docOf } from '../../build/generators/docs.js';
import { requestSchema } from '../../src/openapi/request-schemas.js';
import { schemaCheck } from '../../src/engine/schema-check.js';
import { readOption } from '../../src/resources/options.js';
import { mappingOf } from '../../build/generators/mappings.js';
import { completed } from '../../src/engine/write.js';
import type { Field, Json, JsonObject, ResourceDefinition, RuleContext } from '../../src/resources/model.js';
import type { UciPackage, UciSection } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import devices from '../../src/resources/wireless/devices.js';
import interfaces from '../../src/resources/wireless/interfaces.js';

// Compiled to dist/node/test/unit: the seed stays in the source tree.
const seeds = new URL('../../../../shims/emu/seed/etc/config/', import.meta.url);
const WIRELESS = readFileSync(new URL('wireless', seeds), 'utf8');
const NETWORK = readFileSync(new URL('network', seeds), 'utf8');

const INDEXED = (index: number): string => {
  throw new Error(`pattern ${index} given by index`);
};
const bodySchemas = new Map([devices, interfaces].map((definition) => [definition, requestSchema(docOf(definition), 'full')]));
const bodyErrors = (definition: ResourceDefinition, body: JsonObject) => schemaCheck(bodySchemas.get(definition)!, body, INDEXED);

/** A section as a read gives it, `has_<secret>` included. */
function read(definition: ResourceDefinition, section: UciSection): JsonObject {
  const body: JsonObject = {};
  for (const [name, member] of Object.entries(definition.members) as [string, Field][]) {
    const stored = section.options.get(member.option ?? name);
    if (member.secret) body[`has_${name}`] = stored !== undefined;
    else if (readOption(member.codec, stored) !== undefined) body[name] = readOption(member.codec, stored)!;
  }
  return body;
}

function contextOf(wireless = WIRELESS, id?: string): RuleContext {
  const packages: Record<string, UciPackage> = { wireless: parseUci(wireless), network: parseUci(NETWORK) };
  return { read: (name) => packages[name], file: () => undefined, id };
}

const fieldOf = (definition: ResourceDefinition, name: string) => definition.members[name] as Field;
const accepts = (definition: ResourceDefinition, name: string, value: Json) => !schemaCheck(fieldOf(definition, name).schema, value, INDEXED).length;

function shape(definition: ResourceDefinition, name: string, good: Json[], bad: Json[]): void {
  for (const value of good) assert.ok(accepts(definition, name, value), `${definition.path} ${name} accepts ${JSON.stringify(value)}`);
  for (const value of bad) assert.not.ok(accepts(definition, name, value), `${definition.path} ${name} refuses ${JSON.stringify(value)}`);
}

const ruleErrors = (definition: ResourceDefinition, body: JsonObject, context = contextOf()) =>
  definition.rules!(body, context).map((error) => `${error.field}:${error.code}`).sort();

const AP = { device: 'radio1', network: 'lan', mode: 'ap', ssid: 'OpenWrt' };
const RADIO = { type: 'mac80211', path: 'platform/soc/18000000.wifi', band: '5g', channel: 36, htmode: 'HE80' };
/** The stock file with default_radio1 on both radios, as netifd's `list device`. */
const LISTED = WIRELESS.replace("option device 'radio1'", "list device 'radio0'\n\tlist device 'radio1'");

test('the stock sections read without nulls and pass the schema and the rules', () => {
  for (const section of parseUci(WIRELESS).sections) {
    const definition = section.type === 'wifi-device' ? devices : interfaces;
    const body = read(definition, section);
    assert.not.ok(Object.values(body).includes(null), `${section.name}: ${JSON.stringify(body)}`);
    assert.equal(bodyErrors(definition, body), [], section.name);
    assert.equal(ruleErrors(definition, body, contextOf(WIRELESS, section.name)), [], section.name);
  }
});

test('booleans and integers read as netifd converts them: 1/true, 0/false, strtol base 0', () => {
  const disabled = fieldOf(devices, 'disabled').codec;
  assert.equal(['1', 'true', 'yes', 'on', '0'].map((value) => readOption(disabled, value)), [true, true, false, false, false], 'blob.c drops yes and on: enabled');
  const wmm = fieldOf(interfaces, 'wmm').codec;
  assert.equal(['0', 'false', 'no', '1'].map((value) => readOption(wmm, value)), [false, false, true, true], 'no is dropped, so the default (on) applies');
  assert.is(readOption(fieldOf(interfaces, 'ft_psk_generate_local').codec, 'no'), null, 'its default depends on the encryption');
  const txpower = fieldOf(devices, 'txpower').codec;
  assert.equal(['20', '0x14', '024', '20dBm'].map((value) => readOption(txpower, value)), [20, 20, 20, null]);
});

test('value shapes', () => {
  shape(devices, 'channel', ['auto', 0, 1, 36, 233], ['036', '36', 'AUTO', '', 234, -1, 1.5, 'a']);
  const channel = fieldOf(devices, 'channel').codec;
  assert.equal(['36', 'auto', '0'].map((value) => readOption(channel, value)), [36, 'auto', 0], 'a number reads as an integer, auto as itself');
  shape(devices, 'country', ['DE', 'US', '00'], ['de', 'DEU', 'D']);
  shape(
    interfaces,
    'encryption',
    ['none', 'psk2', 'psk2+ccmp', 'sae-mixed', 'psk-mixed+tkip+ccmp', 'owe', 'psk3', 'psk3-mixed+ccmp', 'wpa', 'wpa2+aes', 'wpa-mixed+tkip+ccmp', 'wpa3', 'wpa3-mixed', 'wpa3-192', 'wep-open'],
    ['psk+psk2', 'none+ccmp', 'PSK2', 'psk2-mixed', 'wpa2-psk', 'wpa2-mixed', '8021x', 'osen', 'wep+ccmp', 'wpa3-192+'],
  );
  shape(interfaces, 'device', ['radio0'], [['radio0'], 'radio 0', '']);
  shape(interfaces, 'network', ['lan', 'lan wan', ' lan  wan ', ''], [['lan'], 'lan,wan']);
  shape(interfaces, 'mode', ['ap', 'sta', 'adhoc', 'mesh', 'monitor'], ['wds', 'AP']);
  shape(interfaces, 'auth_server', [['192.168.1.5'], ['fd00::5', '10.0.0.1']], [['radius.lan'], ['1.2.3']]);
  shape(interfaces, 'ifname', ['phy0-ap0', 'wlan0', 'a.b'], ['.x', 'a/b', 'wl%d', 'x'.repeat(16), 'a b']);
  shape(interfaces, 'macaddr', ['random', '02:00:00:00:00:01', 'a8:5e:45:11:22:33'], ['01:00:5e:00:00:01', '02-00-00-00-00-01', 'RANDOM']);
  shape(interfaces, 'ssid', ['OpenWrt', 'Café'], ['two\nlines', '']);
});

test('band, channel and htmode agree as mac80211.sh applies them', () => {
  assert.equal(ruleErrors(devices, RADIO), []);
  assert.equal(ruleErrors(devices, { ...RADIO, band: '2g', channel: 36, htmode: 'HE20' }), ['channel:conflict']);
  assert.equal(ruleErrors(devices, { ...RADIO, band: '2g', channel: 6, htmode: 'VHT40' }), ['htmode:conflict']);
  assert.equal(ruleErrors(devices, { ...RADIO, band: '2g', channel: 6, htmode: 'HE80' }), ['htmode:conflict']);
  assert.equal(ruleErrors(devices, { ...RADIO, htmode: 'HT40+' }), ['htmode:conflict']);
  assert.equal(ruleErrors(devices, { ...RADIO, band: '6g', channel: 37, htmode: 'HE80' }), []);
  assert.equal(ruleErrors(devices, { ...RADIO, band: '6g', channel: 38, htmode: 'VHT80' }), ['channel:conflict', 'htmode:conflict']);
  assert.equal(ruleErrors(devices, { ...RADIO, channel: 140, htmode: 'VHT160' }), ['channel:conflict']);
  assert.equal(ruleErrors(devices, { ...RADIO, channel: 'auto', htmode: 'VHT160' }), []);
  assert.equal(ruleErrors(devices, { ...RADIO, channel: 0, htmode: 'VHT160' }), []);
  // No PHY named, as uapi's provider creates a radio: kept (find_phy then fails the setup).
  assert.equal(ruleErrors(devices, { type: 'mac80211', band: '2g' }), []);
  // No band: the channel's, as _wdev_prepare_channel derives it (above 14 5g, else 2g, auto included).
  const bandless = (body: JsonObject, context?: RuleContext) => ruleErrors(devices, { type: 'mac80211', ...body }, context);
  assert.equal(bandless({ channel: 36, htmode: 'VHT80' }), []);
  assert.equal(bandless({ channel: 200, htmode: 'VHT80' }), ['channel:conflict']);
  assert.equal(bandless({ channel: 6, htmode: 'VHT80' }), ['htmode:conflict']);
  assert.equal(bandless({ channel: 'auto', htmode: 'VHT80' }), ['htmode:conflict']);
  assert.equal(bandless({ htmode: 'HE40' }), []);
  const hwmode = contextOf(WIRELESS.replace("option band '5g'", "option hwmode '11a'"), 'radio1');
  assert.equal(bandless({ channel: 'auto', htmode: 'VHT80' }, hwmode), [], 'a stored hwmode, which a PATCH keeps, decides: not checked');
});

test('key by encryption and mode; a stored key counts for the section it belongs to', () => {
  const ap = (body: JsonObject) => ruleErrors(interfaces, { ...AP, ...body });
  assert.equal(ap({ encryption: 'psk2', key: 'secret12' }), []);
  assert.equal(ap({ encryption: 'psk2', key: 'short' }), ['key:out_of_range']);
  assert.equal(ap({ encryption: 'psk2', key: 'a'.repeat(64) }), []);
  assert.equal(ap({ encryption: 'psk2', key: 'g'.repeat(64) }), ['key:out_of_range']);
  assert.equal(ap({ encryption: 'sae', key: 'a'.repeat(64) }), ['key:out_of_range'], 'SAE has no raw PSK');
  assert.equal(ap({ encryption: 'psk2', key: 'é'.repeat(32) }), ['key:out_of_range'], '32 two-byte characters are 64 bytes');
  assert.equal(ap({ encryption: 'psk2' }), ['key:required']);
  assert.equal(ap({ encryption: 'none', key: 'secret12' }), ['key:conflict']);
  assert.equal(ap({ encryption: 'owe', key: 'secret12' }), ['key:conflict']);
  const keyed = WIRELESS.replace("option encryption 'none'", "option encryption 'psk2'\n\toption key 'secret12'");
  assert.equal(ruleErrors(interfaces, { ...AP, device: 'radio0', encryption: 'psk2' }, contextOf(keyed, 'default_radio0')), [], 'a body without key keeps the stored one');
  assert.equal(ruleErrors(interfaces, { ...AP, device: 'radio0', encryption: 'psk2', key: null }, contextOf(keyed, 'default_radio0')), ['key:required'], 'null removes it');
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk2' }, contextOf(keyed, 'default_radio1')), ['key:required'], 'another section\'s key is not this one\'s');
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk2' }, contextOf(`${WIRELESS}\nconfig wifi-station\n\toption key 'k1234567'\n`)), [], 'wifi-station keys');
  const sta = (body: JsonObject) => ruleErrors(interfaces, { device: 'radio1', network: 'wan', mode: 'sta', ssid: 'Uplink', ...body });
  assert.equal(sta({ encryption: 'sae', key: 'x' }), [], 'wpa_supplicant takes an SAE password of any length');
  assert.equal(sta({ encryption: 'sae-mixed', key: 'x' }), ['key:out_of_range']);
});

test('mode: a write without one stores ap, what uapi 2.x took for none and mac80211.sh needs', () => {
  const mapping = mappingOf(interfaces);
  assert.equal(completed(mapping, { device: 'radio1' }), { device: 'radio1', mode: 'ap' }, 'a create');
  assert.equal(completed(mapping, { device: 'radio1', mode: null }, { mode: 'sta' }), { device: 'radio1', mode: 'ap' }, 'a write clearing it');
  assert.equal(completed(mapping, { device: 'radio1' }, { device: 'radio1' }), { device: 'radio1' }, 'a section stored without one');
  assert.equal(completed(mapping, { device: 'radio1', mode: 'sta' }), { device: 'radio1', mode: 'sta' });
  assert.is((docOf(interfaces).members.mode as { schema: JsonObject }).schema.default, 'ap');
});

test('modes refuse what they do not set up; ifname, ssid and 802.11r/w', () => {
  assert.equal(ruleErrors(interfaces, { ...AP, hidden: true, mesh_id: 'm' }), ['mesh_id:conflict']);
  assert.equal(ruleErrors(interfaces, { device: 'radio1', mode: 'sta', ssid: 'x', hidden: true, wmm: false }), ['hidden:conflict'], 'false is what the mode does anyway');
  assert.equal(ruleErrors(interfaces, { device: 'radio1', mode: 'mesh', mesh_id: 'm', encryption: 'psk2', key: 'secret12' }), ['encryption:conflict']);
  assert.equal(ruleErrors(interfaces, { device: 'radio1', mode: 'mesh', mesh_id: 'm', encryption: 'sae', key: 's' }), []);
  assert.equal(ruleErrors(interfaces, { device: 'radio1', mode: 'adhoc', ssid: 'cell', encryption: 'sae', key: 'secret12' }), ['encryption:conflict']);
  assert.equal(ruleErrors(interfaces, { device: 'radio1', mode: 'monitor' }), []);
  assert.equal(ruleErrors(interfaces, { device: 'radio1', mode: 'sta' }), ['ssid:required']);
  assert.equal(ruleErrors(interfaces, { ...AP, ssid: 'x'.repeat(33) }), ['ssid:out_of_range']);
  assert.equal(ruleErrors(interfaces, { ...AP, ieee80211r: true }), ['ieee80211r:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk2', key: 'secret12', ieee80211r: true, mobility_domain: 'a1b2' }), []);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk2', key: 'secret12', mobility_domain: 'a1b2', maclist: ['02:00:00:00:00:01'] }), ['maclist:conflict', 'mobility_domain:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk', key: 'secret12', ieee80211w: 1 }), ['ieee80211w:conflict']);
  const named = WIRELESS.replace("option mode 'ap'", "option mode 'ap'\n\toption ifname 'wlan0'");
  assert.equal(ruleErrors(interfaces, { ...AP, ifname: 'wlan0' }, contextOf(named, 'new')), ['ifname:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, ifname: 'wlan0' }, contextOf(named, 'default_radio0')), [], 'its own name');
});

test('what hostapd refuses or turns off for the radio', () => {
  const six = contextOf(WIRELESS.replace("option band '5g'", "option band '6g'").replace("option channel '36'", "option channel '37'"));
  const on6 = (body: JsonObject) => ruleErrors(interfaces, { ...AP, ...body }, six);
  assert.equal(on6({ encryption: 'sae', key: 'secret12' }), []);
  assert.equal(on6({ encryption: 'owe' }), []);
  assert.equal(on6({ encryption: 'sae-mixed', key: 'secret12' }), ['encryption:conflict']);
  assert.equal(on6({ encryption: 'psk3', key: 'secret12' }), [], 'psk3 is sae');
  assert.equal(on6({ encryption: 'wpa3', auth_server: ['192.168.1.5'] }), [], 'wpa3 defaults to ieee80211w 2, as sae');
  assert.equal(on6({ encryption: 'wpa3-mixed', auth_server: ['192.168.1.5'] }), ['ieee80211w:conflict'], 'its default is 1');
  assert.equal(on6({ encryption: 'wpa2', auth_server: ['192.168.1.5'] }), ['ieee80211w:conflict']);
  assert.equal(on6({ encryption: 'wpa2', auth_server: ['192.168.1.5'], ieee80211w: 2 }), []);
  assert.equal(on6({ encryption: 'wpa-mixed', auth_server: ['192.168.1.5'], ieee80211w: 2 }), ['encryption:conflict']);
  const listedSix = contextOf(LISTED.replace("option band '5g'", "option band '6g'").replace("option channel '36'", "option channel '37'"), 'default_radio1');
  assert.equal(ruleErrors(interfaces, { ...AP, device: null, encryption: 'psk2', key: 'secret12' }, listedSix), ['encryption:conflict'], 'every radio of a list it keeps');
  assert.equal(on6({ encryption: 'none' }), ['encryption:conflict']);
  assert.equal(on6({ encryption: 'sae+tkip', key: 'secret12' }), ['encryption:conflict']);
  assert.equal(on6({ encryption: 'sae', key: 'secret12', ieee80211w: 1 }), ['ieee80211w:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk2+tkip', key: 'secret12' }), ['encryption:conflict'], 'HE80 with TKIP alone');
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk-mixed+tkip+ccmp', key: 'secret12' }), []);
  const legacy = contextOf(WIRELESS.replace("option htmode 'HE80'", "option htmode 'NOHT'"));
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'psk2+tkip', key: 'secret12' }, legacy), []);
});

test('enterprise: RADIUS on an ap, EAP on a sta, as hostapd.sh and wpa_supplicant_add_network read them', () => {
  const ap = (body: JsonObject, context?: RuleContext) => ruleErrors(interfaces, { ...AP, ...body }, context);
  const radius = { encryption: 'wpa2', auth_server: ['192.168.1.5'] };
  assert.equal(ap(radius), []);
  assert.equal(ap({ encryption: 'wpa3-192' }), ['auth_server:required']);
  assert.equal(ap({ ...radius, auth_secret: 's', key: 'legacy secret' }), ['key:conflict'], 'auth_secret replaces the legacy key');
  assert.equal(ap({ ...radius, key: 'x' }), [], 'without auth_secret key is the RADIUS secret, of any length');
  assert.equal(ap({ encryption: 'psk2', key: 'secret12', auth_server: ['192.168.1.5'], auth_port: 1812 }), [], 'RADIUS MAC checks on a personal ap');
  assert.equal(ap({ ...radius, acct_port: 1813, ownip: '192.168.1.1', acct_interval: 600 }), ['acct_port:conflict']);
  assert.equal(ap({ encryption: 'psk2', key: 'secret12', ownip: '192.168.1.1' }), ['ownip:conflict']);
  assert.equal(ap({ ...radius, identity: 'me' }), ['identity:conflict']);
  const stored = `${WIRELESS}\nconfig wifi-iface 'corp'\n\toption auth_secret 'a'\n`;
  assert.equal(ap({ ...radius, key: 'k' }, contextOf(stored, 'corp')), ['key:conflict'], 'the stored auth_secret counts');
  assert.equal(ap({ ...radius, key: 'k', auth_secret: null }, contextOf(stored, 'corp')), [], 'and a null removes it');
  const sta = (body: JsonObject) => ruleErrors(interfaces, { device: 'radio1', network: 'wan', mode: 'sta', ssid: 'Corp', encryption: 'wpa2', ...body });
  assert.equal(sta({ eap_type: 'peap', identity: 'me', password: 'p', auth: 'EAP-MSCHAPV2', ca_cert: '/etc/ca.pem', domain_match: ['radius.example.com'] }), []);
  assert.equal(sta({}), ['eap_type:required']);
  assert.equal(sta({ eap_type: 'tls' }), ['client_cert:required', 'priv_key:required']);
  assert.equal(sta({ eap_type: 'tls', client_cert: '/c', priv_key: '/k', priv_key_pwd: 'x', password: 'p' }), ['password:conflict']);
  assert.equal(sta({ eap_type: 'ttls', auth: 'PAP', client_cert: '/c' }), ['client_cert:conflict']);
  assert.equal(sta({ eap_type: 'peap', key: 'secret12' }), ['key:conflict']);
  assert.equal(sta({ encryption: 'wpa3-mixed', eap_type: 'peap' }), ['encryption:conflict'], 'wpa_supplicant_add_network has no eap-eap2');
  assert.equal(sta({ encryption: 'psk2', key: 'secret12', eap_type: 'peap', auth_server: ['192.168.1.5'] }), ['auth_server:conflict', 'eap_type:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'wpa2', auth_server: ['192.168.1.5'], ieee80211r: true, ieee80211w: 1 }), []);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'wpa', auth_server: ['192.168.1.5'], ieee80211r: true, ieee80211w: 1 }), ['ieee80211r:conflict', 'ieee80211w:conflict'], 'WPA1 has neither');
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'owe', ieee80211r: true }), ['ieee80211r:conflict']);
});

test('WEP: nothing sets it, a stored one may stay with its keys; a list of radios, a list of networks', () => {
  const wep = WIRELESS.replace("option encryption 'none'", "option encryption 'wep-open'\n\toption key '1'\n\toption key1 's:abcde'");
  const own = contextOf(wep, 'default_radio0');
  assert.equal(ruleErrors(interfaces, { ...AP, device: 'radio0', encryption: 'wep-open' }, own), [], 'a read sent back');
  assert.equal(ruleErrors(interfaces, { ...AP, device: 'radio0', encryption: 'wep-shared' }, own), ['encryption:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, device: 'radio0', encryption: 'wep-open', key1: 's:fghij' }, own), ['key1:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, encryption: 'wep-open' }), ['encryption:conflict']);
  const section = parseUci(wep).sections[1];
  assert.equal([read(interfaces, section).encryption, read(interfaces, section).has_key1, read(interfaces, section).has_key2], ['wep-open', true, false]);
  const device = fieldOf(interfaces, 'device').codec;
  assert.equal([readOption(device, 'radio0'), readOption(device, ['radio0', 'radio1']), readOption(device, 'radio0 radio1')], ['radio0', null, 'radio0 radio1'], 'netifd splits no option');
  const network = fieldOf(interfaces, 'network').codec;
  assert.equal([readOption(network, 'lan'), readOption(network, ['lan', 'wan']), readOption(network, 'lan  wan'), readOption(network, undefined)], ['lan', 'lan wan', 'lan wan', undefined], 'blob.c splits an option for netifd\'s array');
  const listed = contextOf(LISTED, 'default_radio1');
  assert.equal(ruleErrors(interfaces, { ...AP, device: null }, listed), [], 'a null keeps the stored list');
  assert.equal(ruleErrors(interfaces, { ...AP, device: null, ifname: 'wlan9' }, listed), ['ifname:conflict']);
  assert.equal(ruleErrors(interfaces, { ...AP, device: null }, contextOf(WIRELESS, 'default_radio1')), ['device:required'], 'one radio stored: null names none');
  assert.equal(ruleErrors(interfaces, { ...AP, device: undefined as unknown as Json }), ['device:required']);
});

test.run();
