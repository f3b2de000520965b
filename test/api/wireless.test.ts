// wireless/devices and wireless/interfaces through the CGI path: what lands in /etc/config/wireless,
// the reloads and headers, runtime from the ubus stand-in, the key that never comes back, the
// references to radios and network interfaces, and every refusal leaving /etc untouched.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { resolvedSchemas } from '../support/schema-values.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/wireless', import.meta.url), 'utf8');
const KEY = 'correct horse battery';
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const SECRETS = ['key', 'auth_secret', 'acct_secret', 'password', 'priv_key_pwd', 'key1', 'key2', 'key3', 'key4', 'dae_secret'];
/** A read's flags with no secret set, and the lists it always carries. */
const NO_SECRETS = Object.fromEntries(SECRETS.map((name) => [`has_${name}`, false]));
const NO_LISTS = { auth_server: [], acct_server: [], altsubject_match: [], domain_match: [], r0kh: [], r1kh: [] };

let router: Router;
let authorization: string;
const checks = writeChecks(() => ({ router, authorization }));
const { call, written, refused, initLog } = checks;
const wireless = () => readFileSync(router.path('/etc/config/wireless'), 'utf8');
const section = (name: string) => parseUci(wireless()).sections.find((candidate) => candidate.name === name);
/** Every answer the router gave in this test, headers and body. */
const answers: string[] = [];
/** radio1 enabled by hand: the status stand-in, which follows the configuration, sets up its interface as phy1-ap0. */
function radio1Up() {
  const path = router.path('/etc/config/wireless');
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf("config wifi-device 'radio1'");
  writeFileSync(path, text.slice(0, at) + text.slice(at).replace("option disabled '1'", "option disabled '0'"));
}

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
  answers.length = 0;
  const request = router.request;
  router.request = async (options: RequestOptions) => {
    const response = await request(options);
    answers.push(JSON.stringify(response.headers) + response.body);
    return response;
  };
});
test.after.each(async () => {
  await router.cleanup();
});

test('the stock radios and SSIDs read with runtime from one ubus call each; an item has an ETag', async () => {
  const devices = await call({ method: 'GET', path: '/wireless/devices' });
  assert.is(devices.status, 200, devices.body);
  const [radio0, radio1] = devices.json as Body[];
  assert.equal(radio0, {
    id: 'radio0',
    managed: true,
    type: 'mac80211',
    path: 'pci0000:00/0000:00:1c.0/0000:01:00.0',
    band: '2g',
    channel: 1,
    htmode: 'HE20',
    disabled: true,
    runtime: { up: false, pending: false, autostart: true, disabled: true, retry_setup_failed: false },
  });
  assert.equal([radio1.band, radio1.channel, radio1.htmode], ['5g', 36, 'HE80']);
  const interfaces = await call({ method: 'GET', path: '/wireless/interfaces' });
  assert.equal(interfaces.json, ['radio0', 'radio1'].map((radio) => ({
    id: `default_${radio}`,
    managed: true,
    device: radio,
    network: 'lan',
    mode: 'ap',
    ssid: 'OpenWrt',
    encryption: 'none',
    ...NO_SECRETS,
    maclist: [],
    ...NO_LISTS,
    runtime: {},
  })));
  assert.equal(readFileSync(router.path('/var/log/ubus.log'), 'utf8').split('\n').filter(Boolean), ['network.wireless status', 'network.wireless status']);
  const one = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1' });
  assert.match(one.headers.etag, /^"[0-9a-f]{16}"$/);
  const cached = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1', query: { if_none_match: one.headers.etag } });
  assert.is(cached.status, 304);
});

test('runtime: an interface set up carries its ifname and what iwinfo tells of it, never the options netifd echoes; null when the bus is down, and outside the ETag', async () => {
  radio1Up();
  const up = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1' });
  // An access point without clients: iwinfo has no signal for it (nl80211_get_signal averages the stations).
  assert.equal((up.json as Body).runtime, { ifname: 'phy1-ap0', bssid: '52:54:00:A1:00:00', channel: 36, frequency: 5180, noise: -95, txpower_actual: 20, assoclist_count: 0 });
  assert.equal(readFileSync(router.path('/var/log/ubus.log'), 'utf8').split('\n').filter(Boolean), ['network.wireless status', 'iwinfo info {"device":"phy1-ap0"}', 'iwinfo assoclist {"device":"phy1-ap0"}']);
  assert.equal(((await call({ method: 'GET', path: '/wireless/devices/radio1' })).json as Body).runtime.up, true);
  writeFileSync(router.path('/var/emu/ubus-down'), '');
  const down = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1' });
  assert.is(down.status, 200, down.body);
  assert.is((down.json as Body).runtime, null);
  assert.is(down.headers.etag, up.headers.etag);
  assert.is(((await call({ method: 'GET', path: '/wireless/devices/radio1' })).json as Body).runtime, null);
  const before = wireless();
  await written({ method: 'PUT', path: '/wireless/interfaces/default_radio1', body: up.json }, ['network']);
  assert.is(wireless(), before, 'a read sent back, runtime included, changes nothing');
});

test('runtime of a client and of an access point with stations, as iwinfo tells it; an interface not set up has only what is known; iwinfo asked of the sections read only', async () => {
  radio1Up();
  writeFileSync(router.path('/var/emu/stations'), 'phy1-ap0 02:aa:00:00:00:01 -61\nphy1-ap0 02:aa:00:00:00:02 -70\n');
  await written({ method: 'POST', path: '/wireless/interfaces', body: { id: 'uplink', device: 'radio1', network: 'wan', mode: 'sta', ssid: 'Upstream', bssid: '02:11:22:33:44:55', encryption: 'psk2', key: KEY } }, ['network']);
  await written({ method: 'PATCH', path: '/wireless/devices/radio1', body: { txpower: 17 } }, ['network']);
  const runtime = async (id: string) => ((await call({ method: 'GET', path: `/wireless/interfaces/${id}` })).json as Body).runtime;
  const radio = { channel: 36, frequency: 5180, noise: -95, txpower_actual: 17 };
  assert.equal(await runtime('default_radio1'), { ifname: 'phy1-ap0', bssid: '52:54:00:A1:00:00', ...radio, signal: -65, assoclist_count: 2 });
  assert.equal(await runtime('uplink'), { ifname: 'phy1-sta0', bssid: '02:11:22:33:44:55', ...radio, signal: -52, assoclist_count: 1 });
  assert.equal(await runtime('default_radio0'), {}, 'radio0 is disabled: netifd set nothing up');
  writeFileSync(router.path('/var/log/ubus.log'), '');
  const page = await call({ method: 'GET', path: '/wireless/interfaces', query: { limit: '2' } });
  assert.equal((page.json as Body[]).map((item) => [item.id, item.runtime.ifname]), [['default_radio0', undefined], ['default_radio1', 'phy1-ap0']]);
  assert.equal(readFileSync(router.path('/var/log/ubus.log'), 'utf8').split('\n').filter(Boolean), ['network.wireless status', 'iwinfo info {"device":"phy1-ap0"}', 'iwinfo assoclist {"device":"phy1-ap0"}']);
  // iwinfo failing for one interface (a driver gone) leaves what netifd knows.
  await written({ method: 'PATCH', path: '/wireless/interfaces/uplink', body: { ifname: 'wl-up' } }, ['network']);
  mkdirSync(router.path('/var/emu/ubus/iwinfo'), { recursive: true });
  writeFileSync(router.path('/var/emu/ubus/iwinfo/info.json'), 'not JSON');
  assert.equal(await runtime('uplink'), { ifname: 'wl-up', assoclist_count: 1 });
});

test('an access point with a key: the file, the reload, and the key in no answer, log or state file; kept by a PATCH without it and a PUT of a read', async () => {
  const created = await written(
    { method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', network: 'lan', mode: 'ap', ssid: 'Home', encryption: 'sae-mixed', key: KEY, ieee80211r: true, mobility_domain: 'a1b2' } },
    ['network'],
  );
  assert.match(created.id, new RegExp(`^w_${ULID}$`));
  assert.equal(created, {
    id: created.id, managed: true, device: 'radio1', network: 'lan', mode: 'ap', ssid: 'Home', encryption: 'sae-mixed', ...NO_SECRETS, has_key: true, ieee80211r: true, mobility_domain: 'a1b2', maclist: [], ...NO_LISTS,
  });
  assert.ok(
    wireless().endsWith(`\nconfig wifi-iface '${created.id}'\n\toption device 'radio1'\n\toption network 'lan'\n\toption mode 'ap'\n\toption ssid 'Home'\n\toption encryption 'sae-mixed'\n\toption key '${KEY}'\n\toption ieee80211r '1'\n\toption mobility_domain 'a1b2'\n\n`),
    wireless(),
  );
  await written({ method: 'PATCH', path: `/wireless/interfaces/${created.id}`, body: { ssid: 'Home2', hidden: true } }, ['network']);
  const read = await call({ method: 'GET', path: `/wireless/interfaces/${created.id}` });
  assert.equal([(read.json as Body).ssid, (read.json as Body).hidden, (read.json as Body).has_key], ['Home2', true, true]);
  await written({ method: 'PUT', path: `/wireless/interfaces/${created.id}`, body: read.json }, ['network']);
  await written({ method: 'PATCH', path: `/wireless/interfaces/${created.id}`, headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/ssid', value: 'Home3' }]) }, ['network']);
  assert.is(section(created.id)!.options.get('key'), KEY);
  const rotated = await written({ method: 'PATCH', path: `/wireless/interfaces/${created.id}`, body: { key: 'another passphrase' } }, ['network']);
  assert.is(rotated.has_key, true);
  assert.is(section(created.id)!.options.get('key'), 'another passphrase');
  await refused({ method: 'PATCH', path: `/wireless/interfaces/${created.id}`, body: { key: 'short!' } }, 422, ['key:out_of_range']);
  // Clearing the key of a network that needs one is refused; clearing it with the encryption is not.
  await refused({ method: 'PATCH', path: `/wireless/interfaces/${created.id}`, body: { key: null } }, 422, ['key:required']);
  const open = await written({ method: 'PATCH', path: `/wireless/interfaces/${created.id}`, body: { key: null, encryption: 'none', ieee80211r: null, mobility_domain: null } }, ['network']);
  assert.is(open.has_key, false);
  assert.is(section(created.id)!.options.get('key'), undefined);
  const produced = [...answers, router.texts('/var/log', '/tmp', '/var/emu', '/var/lock')].join('\n');
  assert.ok(produced.includes('Home3'), 'the answers are searched');
  for (const key of [KEY, 'another passphrase', 'short!']) assert.not.ok(produced.includes(key), `no answer, log or state file holds ${key}`);
});

test('a key by encryption and mode; options a mode ignores; refused writes change nothing', async () => {
  const ap = { device: 'radio1', network: 'lan', mode: 'ap', ssid: 'Home' };
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'psk2' } }, 422, ['key:required']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'psk2', key: 'short' } }, 422, ['key:out_of_range']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, key: KEY } }, 422, ['key:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'wpa2-psk' } }, 422, ['encryption:invalid_format']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'wpa2' } }, 422, ['auth_server:required']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, device: ['radio1'], network: ['lan'] } }, 422, ['device:invalid_type', 'network:invalid_type']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, network: 'lan  wan,guest' } }, 422, ['network:conflict', 'network:invalid_format']);
  // uapi 2.x's `wds` mode is broadcom-wl's: mac80211.sh sets up no such interface.
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, mode: 'wds' } }, 422, ['mode:not_in_enum']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, mode: 'sta', hidden: true, network: 'wan' } }, 422, ['hidden:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', mode: 'mesh', mesh_id: 'm', encryption: 'psk2', key: KEY } }, 422, ['encryption:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, ssid: 'x'.repeat(33), mode: 'ap' } }, 422, ['ssid:out_of_range']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { network: 'lan', ssid: 'x' } }, 422, ['device:required']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', network: 'lan' } }, 422, ['ssid:required']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, txpower: 20 } }, 422, ['txpower:unknown_field']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { encryption: 'psk2' } }, 422, ['key:required']);
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio0', body: { device: 'radio0', mode: 'ap', ssid: 'OpenWrt', maclist: ['02:00:00:00:00:01'] } }, 422, ['maclist:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/nosuch', body: { ssid: 'x' } }, 404, 'not_found');
  assert.is(wireless(), STOCK);
});

test('mode: a create without one writes ap, which mac80211.sh needs (it skips a section without); a write that clears it writes ap again, a section stored without one keeps none', async () => {
  const created = await written({ method: 'POST', path: '/wireless/interfaces', body: { id: 'home', device: 'radio1', network: 'lan', ssid: 'Home', encryption: 'psk2', key: KEY } }, ['network']);
  assert.is(created.mode, 'ap');
  assert.ok(wireless().endsWith(`\nconfig wifi-iface 'home'\n\toption device 'radio1'\n\toption network 'lan'\n\toption mode 'ap'\n\toption ssid 'Home'\n\toption encryption 'psk2'\n\toption key '${KEY}'\n\n`), wireless());
  // Without a mode it is an access point, so what an access point refuses is refused.
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', ssid: 'Home', bssid: '02:11:22:33:44:55' } }, 422, ['bssid:conflict']);
  const cleared = await written({ method: 'PATCH', path: '/wireless/interfaces/home', body: { mode: null, disabled: true } }, ['network']);
  assert.equal([cleared.mode, section('home')!.options.get('mode')], ['ap', 'ap']);
  const { mode: _mode, ...without } = cleared;
  await written({ method: 'PUT', path: '/wireless/interfaces/home', body: without }, ['network']);
  assert.is(section('home')!.options.get('mode'), 'ap');
  const path = router.path('/etc/config/wireless');
  writeFileSync(path, readFileSync(path, 'utf8').replace("\toption mode 'ap'\n\toption ssid 'Home'", "\toption ssid 'Home'"));
  const stored = await call({ method: 'GET', path: '/wireless/interfaces/home' });
  assert.is((stored.json as Body).mode, undefined, 'no mode is read as none');
  await written({ method: 'PATCH', path: '/wireless/interfaces/home', body: { ssid: 'Home2' } }, ['network']);
  assert.is(section('home')!.options.get('mode'), undefined, 'a PATCH that does not name it leaves the section without');
});

test('references: device names a radio, network network interfaces; a radio or an interface still named cannot be deleted', async () => {
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio9', network: 'lan guest', mode: 'ap', ssid: 'x' } }, 422, ['device:conflict', 'network:conflict']);
  const radio = await refused({ method: 'DELETE', path: '/wireless/devices/radio1' }, 409, 'conflict');
  assert.match(radio.message, /wireless\/interfaces\/default_radio1 \(device: radio1\)/);
  const lan = await refused({ method: 'DELETE', path: '/network/interfaces/lan' }, 409, 'conflict');
  assert.match(lan.message, /wireless\/interfaces\/default_radio0 \(network: lan\)/);
  await written({ method: 'DELETE', path: '/wireless/interfaces/default_radio1' }, ['network']);
  await written({ method: 'DELETE', path: '/wireless/devices/radio1' }, ['network']);
  assert.equal(parseUci(wireless()).sections.map((entry) => entry.name), ['radio0', 'default_radio0']);
  const guest = await written({ method: 'POST', path: '/network/interfaces', body: { id: 'guest', proto: 'static', ipaddrs: ['192.168.2.1/24'] } }, ['network']);
  const ssid = await written({ method: 'POST', path: '/wireless/interfaces', body: { id: 'guest_ap', device: 'radio0', network: `${guest.id}  lan`, mode: 'ap', ssid: 'Guest', isolate: true } }, ['network']);
  assert.equal([ssid.network, section('guest_ap')!.options.get('network')], ['guest lan', 'guest lan'], 'the networks are written as one option, as netifd splits it');
  await refused({ method: 'DELETE', path: '/network/interfaces/guest' }, 409, 'conflict');
  assert.equal(initLog(), ['network reload', 'network reload', 'network reload', 'network reload']);
});

test('radios: the file written, band, channel and htmode held to what the scripts apply, an interface checked against its radio', async () => {
  const radio = { type: 'mac80211', phy: 'phy2', band: '6g', channel: 37, htmode: 'HE160', country: 'DE', txpower: 20 };
  const created = await written({ method: 'POST', path: '/wireless/devices', body: { id: 'radio2', ...radio } }, ['network']);
  assert.equal(created, { id: 'radio2', managed: true, ...radio });
  assert.ok(wireless().endsWith("\nconfig wifi-device 'radio2'\n\toption type 'mac80211'\n\toption phy 'phy2'\n\toption band '6g'\n\toption channel '37'\n\toption htmode 'HE160'\n\toption country 'DE'\n\toption txpower '20'\n\n"), wireless());
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio2', mode: 'ap', ssid: 'Six', encryption: 'psk2', key: KEY } }, 422, ['encryption:conflict']);
  await written({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio2', mode: 'ap', ssid: 'Six', encryption: 'sae', key: KEY } }, ['network']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { channel: 36 } }, 422, ['channel:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { channel: '36' } }, 422, ['channel:not_in_enum']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { channel: 234 } }, 422, ['channel:conflict', 'channel:out_of_range']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { htmode: 'VHT80' } }, 422, ['htmode:conflict']);
  // Without band the channel decides, as _wdev_prepare_channel derives it: above 14 5g, else 2g.
  await refused({ method: 'PUT', path: '/wireless/devices/radio0', body: { type: 'mac80211', channel: 200, htmode: 'VHT80' } }, 422, ['channel:conflict']);
  await refused({ method: 'PUT', path: '/wireless/devices/radio0', body: { type: 'mac80211', channel: 'auto', htmode: 'VHT80' } }, 422, ['htmode:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { type: 'broadcom', country: 'de' } }, 422, ['type:not_in_enum', 'country:invalid_format']);
  const enabled = await written({ method: 'PATCH', path: '/wireless/devices/radio0', body: { disabled: false, channel: 'auto', htmode: 'HE40' } }, ['network']);
  assert.equal([enabled.disabled, enabled.channel, enabled.htmode], [false, 'auto', 'HE40']);
  assert.equal([section('radio0')!.options.get('disabled'), section('radio0')!.options.get('channel')], ['0', 'auto']);
  // As uapi's provider creates one: no band (the channel's: 5g), no PHY (kept, never set up).
  const bare = await written({ method: 'POST', path: '/wireless/devices', body: { id: 'radio3', type: 'mac80211', channel: 149, htmode: 'VHT80', country: 'US', txpower: 17, disabled: true } }, ['network']);
  assert.equal(bare, { id: 'radio3', managed: true, type: 'mac80211', channel: 149, htmode: 'VHT80', country: 'US', txpower: 17, disabled: true });
  assert.ok(wireless().endsWith("\nconfig wifi-device 'radio3'\n\toption type 'mac80211'\n\toption channel '149'\n\toption htmode 'VHT80'\n\toption country 'US'\n\toption txpower '17'\n\toption disabled '1'\n\n"), wireless());
  const zero = await written({ method: 'PATCH', path: '/wireless/devices/radio3', body: { channel: 0, htmode: 'HE20' } }, ['network']);
  assert.equal([zero.channel, section('radio3')!.options.get('channel')], [0, '0']);
});

test('spellings read as netifd reads them; a glob spelling reads as stored and a PUT refuses it, a PATCH keeps it', async () => {
  const [device0, iface0, device1, iface1] = STOCK.split('\n\n');
  writeFileSync(
    router.path('/etc/config/wireless'),
    [
      device0.replace("disabled '1'", "disabled 'yes'\n\toption txpower '0x10'"),
      iface0.replace("'OpenWrt'\n\toption encryption 'none'", "'Corp'\n\toption encryption 'wpa2-psk'\n\toption key 'k1234567'\n\toption wmm 'no'\n\toption maxassoc '010'"),
      device1,
      iface1.replace("option device 'radio1'", "option device 'radio0 radio1'"),
    ].join('\n\n') + '\n\n',
  );
  const [radio0] = (await call({ method: 'GET', path: '/wireless/devices' })).json as Body[];
  assert.equal([radio0.disabled, radio0.txpower], [false, 16], "blob.c drops 'yes' (enabled) and reads 0x10 as 16");
  const [corp, spaced] = (await call({ method: 'GET', path: '/wireless/interfaces' })).json as Body[];
  assert.equal([corp.encryption, corp.wmm, corp.maxassoc, corp.has_key], ['wpa2-psk', true, 8, true]);
  assert.equal(spaced.device, 'radio0 radio1', 'netifd looks up an option whole, as one radio');
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio0', body: corp }, 422, ['encryption:invalid_format']);
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio1', body: spaced }, 422, ['device:conflict', 'device:invalid_format']);
  await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { ssid: 'Corp2' } }, ['network']);
  assert.equal([section('default_radio0')!.options.get('encryption'), section('default_radio0')!.options.get('key')], ['wpa2-psk', 'k1234567'], 'a PATCH keeps what it does not name');
});

test('a radio is not moved to 6 GHz under an open SSID; moved by hand, the diagnostics sweep lists the SSID', async () => {
  const invalid = async () => {
    const response = await call({ method: 'GET', path: '/diagnostics', query: { validate: '1' } });
    assert.is(response.status, 200, response.body);
    return ((response.json as Body).invalid_sections as Body[]).filter((entry) => entry.resource.startsWith('wireless:'));
  };
  assert.equal(await invalid(), []);
  const refusal = await refused({ method: 'PATCH', path: '/wireless/devices/radio1', body: { band: '6g', channel: 37, htmode: 'HE80' } }, 422, ['band:conflict']);
  assert.is(refusal.errors[0].message, 'wifi-iface default_radio1 (none): 6 GHz takes sae, owe, wpa2, wpa3* without TKIP');
  const path = router.path('/etc/config/wireless');
  writeFileSync(path, readFileSync(path, 'utf8').replace("option band '5g'\n\toption channel '36'", "option band '6g'\n\toption channel '37'"));
  const message = '6 GHz takes sae, owe, wpa2, wpa3* without TKIP';
  assert.equal(await invalid(), [
    { resource: 'wireless:devices', id: 'radio1', managed: true, errors: [{ field: 'band', code: 'conflict', message: `wifi-iface default_radio1 (none): ${message}` }] },
    { resource: 'wireless:interfaces', id: 'default_radio1', managed: true, errors: [{ field: 'encryption', code: 'conflict', message }] },
  ]);
});

test('an enterprise ap and an EAP sta: the files, the secrets kept by a PATCH without them and a PUT of a read, and in no answer, log or state file', async () => {
  const RADIUS = 'radius shared secret';
  const ACCOUNTING = 'accounting secret';
  const PASSWORD = 'eap password';
  const KEY_PASSWORD = 'private key password';
  const ap = await written(
    {
      method: 'POST',
      path: '/wireless/interfaces',
      body: { id: 'corp', device: 'radio1', network: 'lan', mode: 'ap', ssid: 'Corp', encryption: 'wpa2+ccmp', ieee80211w: 1, auth_server: ['192.168.1.5'], auth_port: 1812, auth_secret: RADIUS, acct_server: ['192.168.1.5', 'fd00::5'], acct_secret: ACCOUNTING, acct_interval: 600, nasid: 'ap1' },
    },
    ['network'],
  );
  assert.equal([ap.has_auth_secret, ap.has_acct_secret, ap.has_key, ap.auth_server, ap.acct_server], [true, true, false, ['192.168.1.5'], ['192.168.1.5', 'fd00::5']]);
  const apText = `\nconfig wifi-iface 'corp'\n\toption device 'radio1'\n\toption network 'lan'\n\toption mode 'ap'\n\toption ssid 'Corp'\n\toption encryption 'wpa2+ccmp'\n\toption ieee80211w '1'\n\toption auth_server '192.168.1.5'\n\toption auth_port '1812'\n\toption auth_secret '${RADIUS}'\n\tlist acct_server '192.168.1.5'\n\tlist acct_server 'fd00::5'\n\toption acct_secret '${ACCOUNTING}'\n\toption acct_interval '600'\n\toption nasid 'ap1'\n\n`;
  assert.ok(wireless().endsWith(apText), wireless());
  const sta = await written(
    {
      method: 'POST',
      path: '/wireless/interfaces',
      body: { id: 'uplink', device: 'radio0', network: 'wan', mode: 'sta', ssid: 'Upstream', encryption: 'wpa3', eap_type: 'peap', auth: 'EAP-MSCHAPV2', identity: 'me', anonymous_identity: 'anonymous', password: PASSWORD, ca_cert: '/etc/ssl/ca.pem', domain_match: ['radius.example.com'] },
    },
    ['network'],
  );
  assert.equal([sta.has_password, sta.domain_match, sta.auth], [true, ['radius.example.com'], 'EAP-MSCHAPV2']);
  const staText = `\nconfig wifi-iface 'uplink'\n\toption device 'radio0'\n\toption network 'wan'\n\toption mode 'sta'\n\toption ssid 'Upstream'\n\toption encryption 'wpa3'\n\toption eap_type 'peap'\n\toption auth 'EAP-MSCHAPV2'\n\toption identity 'me'\n\toption anonymous_identity 'anonymous'\n\toption password '${PASSWORD}'\n\toption ca_cert '/etc/ssl/ca.pem'\n\tlist domain_match 'radius.example.com'\n\n`;
  assert.ok(wireless().endsWith(apText + staText.slice(1)), wireless());
  // Kept: a PATCH that names other fields, a PUT of each read, a JSON Patch.
  await written({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { nasid: 'ap2' } }, ['network']);
  for (const id of ['corp', 'uplink']) {
    const read = await call({ method: 'GET', path: `/wireless/interfaces/${id}` });
    await written({ method: 'PUT', path: `/wireless/interfaces/${id}`, body: read.json }, ['network']);
  }
  // The engine keeps a secret in its place and writes the other options after it: the same options.
  const expected = parseUci(apText.replace("'ap1'", "'ap2'") + staText).sections;
  assert.equal(['corp', 'uplink'].map((id) => Object.fromEntries(section(id)!.options)), expected.map((entry) => Object.fromEntries(entry.options)));
  // A TLS client: its key password is a secret too; the tunnel's phase 2 and password go.
  const tls = await written(
    { method: 'PATCH', path: '/wireless/interfaces/uplink', body: { eap_type: 'tls', auth: null, password: null, client_cert: '/etc/ssl/me.pem', priv_key: '/etc/ssl/me.key', priv_key_pwd: KEY_PASSWORD } },
    ['network'],
  );
  assert.equal([tls.has_password, tls.has_priv_key_pwd, tls.auth], [false, true, undefined]);
  assert.is(section('uplink')!.options.get('priv_key_pwd'), KEY_PASSWORD);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/uplink', body: { password: 'p' } }, 422, ['password:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/uplink', body: { client_cert: null } }, 422, ['client_cert:required']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { auth_server: [] } }, 422, ['auth_port:conflict', 'auth_server:required']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { key: 'legacy secret' } }, 422, ['key:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { encryption: 'psk2', key: KEY, identity: 'x' } }, 422, ['identity:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/uplink', body: { encryption: 'wpa3-mixed' } }, 422, ['encryption:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio0', mode: 'sta', ssid: 'x', encryption: 'wpa2' } }, 422, ['eap_type:required']);
  // The RADIUS secret rotated; the legacy key stands in for it once it is gone.
  await written({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { auth_secret: 'rotated secret' } }, ['network']);
  assert.is(section('corp')!.options.get('auth_secret'), 'rotated secret');
  const legacy = await written({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { auth_secret: null, key: RADIUS } }, ['network']);
  assert.equal([legacy.has_auth_secret, legacy.has_key], [false, true]);
  const produced = [...answers, router.texts('/var/log', '/tmp', '/var/emu', '/var/lock')].join('\n');
  assert.ok(produced.includes('radius.example.com'), 'the answers are searched');
  for (const secret of [RADIUS, ACCOUNTING, PASSWORD, KEY_PASSWORD, 'rotated secret']) assert.not.ok(produced.includes(secret), `no answer, log or state file holds ${secret}`);
});

test('WEP, which no 24.10 build applies: a stored section reads and round-trips with its keys, nothing sets it', async () => {
  const path = router.path('/etc/config/wireless');
  writeFileSync(path, STOCK.replace("option encryption 'none'", "option encryption 'wep-open'\n\toption key '1'\n\toption key1 's:abcde'\n\toption key2 'b16ce91a07'"));
  const stored = wireless();
  const read = await call({ method: 'GET', path: '/wireless/interfaces/default_radio0' });
  const body = read.json as Body;
  assert.equal([body.encryption, body.has_key, body.has_key1, body.has_key2, body.has_key3], ['wep-open', true, true, true, false]);
  await written({ method: 'PUT', path: '/wireless/interfaces/default_radio0', body }, ['network']);
  const options = Object.fromEntries(section('default_radio0')!.options);
  assert.equal(options, Object.fromEntries(parseUci(stored).sections[1].options), 'the same options, the keys included');
  await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { ssid: 'Old' } }, ['network']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { encryption: 'wep-shared' } }, 422, ['encryption:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { key1: 's:fghij' } }, 422, ['key1:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', mode: 'ap', ssid: 'x', encryption: 'wep-open', key: '1' } }, 422, ['encryption:conflict']);
  const secure = await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { encryption: 'psk2', key: KEY, key1: null, key2: null } }, ['network']);
  assert.equal([secure.has_key1, secure.has_key2], [false, false]);
  const produced = [...answers, router.texts('/var/log', '/tmp', '/var/emu', '/var/lock')].join('\n');
  for (const secret of ['s:abcde', 'b16ce91a07', KEY]) assert.not.ok(produced.includes(secret), secret);
});

test('one interface on several radios: netifd\'s list device reads null, which a write keeps; checked and guarded on each radio', async () => {
  const path = router.path('/etc/config/wireless');
  writeFileSync(path, STOCK.replace("option device 'radio1'", "list device 'radio0'\n\tlist device 'radio1'"));
  const stored = wireless();
  const read = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1' });
  assert.is((read.json as Body).device, null);
  await written({ method: 'PUT', path: '/wireless/interfaces/default_radio1', body: read.json }, ['network']);
  assert.is(wireless(), stored, 'a read sent back changes nothing');
  await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio1', body: { ssid: 'Both' } }, ['network']);
  assert.equal(section('default_radio1')!.options.get('device'), ['radio0', 'radio1']);
  await refused({ method: 'DELETE', path: '/wireless/devices/radio0' }, 409, 'conflict');
  await refused({ method: 'PATCH', path: '/wireless/interfaces/default_radio1', body: { ifname: 'wlan9' } }, 422, ['ifname:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { band: '6g', channel: 37, htmode: 'HE80' } }, 422, ['band:conflict']);
  // A write naming one radio replaces the list by the option netifd reads as that radio; null on a section naming one is no radio.
  await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio1', body: { device: 'radio1' } }, ['network']);
  assert.is(section('default_radio1')!.options.get('device'), 'radio1');
  await refused({ method: 'PATCH', path: '/wireless/interfaces/default_radio1', body: { device: null } }, 422, ['device:required']);
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio1', body: { ...(read.json as Body), device: null } }, 422, ['device:required']);
});

test('the rest of the bss options: the file written, defaults absent, the DAE secret in no answer, log or state file', async () => {
  const DAE = 'dae shared secret';
  const ap = await written(
    {
      method: 'POST',
      path: '/wireless/interfaces',
      body: {
        id: 'corp', device: 'radio1', network: 'lan', mode: 'ap', ssid: 'Corp', encryption: 'wpa2', auth_server: ['192.168.1.5'], auth_secret: 'radius secret',
        dtim_period: 3, max_inactivity: 600, short_preamble: false, uapsd: false, utf8_ssid: true, disassoc_low_ack: false, skip_inactivity_poll: true, wnm_sleep_mode: true, wnm_sleep_mode_no_keys: true,
        proxy_arp: true, multicast_to_unicast_all: true, multicast_to_unicast: false, bridge_isolate: true, bss_load_update_period: 50, chan_util_avg_period: 500, rsn_preauth: true,
        wpa_group_rekey: 3600, wpa_strict_rekey: true, wpa_disable_eapol_key_retries: true, eap_reauth_period: 0, dae_client: '192.168.1.5', dae_secret: DAE, dae_port: 3800,
        dynamic_vlan: 2, vlan_naming: 0, vlan_tagged_interface: 'eth0', vlan_bridge: 'brvlan', multi_ap: 2, wds: true, wds_bridge: 'br-lan', start_disabled: 1,
        ieee80211r: true, reassociation_deadline: 20000, r0kh: ['02:00:00:00:00:01,ap1.example.com,000102030405060708090a0b0c0d0e0f'], r1kh: ['02:00:00:00:00:01,02:00:00:00:00:01,000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f'], r0_key_lifetime: 600, pmk_r1_push: true,
      },
    },
    ['network'],
  );
  assert.equal([ap.has_dae_secret, ap.short_preamble, ap.utf8_ssid, ap.multicast_to_unicast, ap.dtim_period], [true, false, true, false, 3]);
  const text = `\nconfig wifi-iface 'corp'\n\toption device 'radio1'\n\toption network 'lan'\n\toption mode 'ap'\n\toption ssid 'Corp'\n\toption encryption 'wpa2'\n\toption wds '1'\n\toption ieee80211r '1'\n\toption auth_server '192.168.1.5'\n\toption auth_secret 'radius secret'\n\toption dtim_period '3'\n\toption max_inactivity '600'\n\toption skip_inactivity_poll '1'\n\toption short_preamble '0'\n\toption disassoc_low_ack '0'\n\toption uapsd '0'\n\toption utf8_ssid '1'\n\toption wnm_sleep_mode '1'\n\toption wnm_sleep_mode_no_keys '1'\n\toption proxy_arp '1'\n\toption multicast_to_unicast_all '1'\n\toption multicast_to_unicast '0'\n\toption bridge_isolate '1'\n\toption bss_load_update_period '50'\n\toption chan_util_avg_period '500'\n\toption rsn_preauth '1'\n\toption wpa_group_rekey '3600'\n\toption wpa_strict_rekey '1'\n\toption wpa_disable_eapol_key_retries '1'\n\toption eap_reauth_period '0'\n\toption dae_client '192.168.1.5'\n\toption dae_port '3800'\n\toption dae_secret '${DAE}'\n\toption dynamic_vlan '2'\n\toption vlan_naming '0'\n\toption vlan_tagged_interface 'eth0'\n\toption vlan_bridge 'brvlan'\n\toption multi_ap '2'\n\toption wds_bridge 'br-lan'\n\toption start_disabled '1'\n\toption reassociation_deadline '20000'\n\tlist r0kh '02:00:00:00:00:01,ap1.example.com,000102030405060708090a0b0c0d0e0f'\n\tlist r1kh '02:00:00:00:00:01,02:00:00:00:00:01,000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f'\n\toption r0_key_lifetime '600'\n\toption pmk_r1_push '1'\n\n`;
  assert.ok(wireless().endsWith(text), wireless());
  // Kept by a PATCH without it and a PUT of a read.
  await written({ method: 'PATCH', path: '/wireless/interfaces/corp', body: { dae_port: 3799 } }, ['network']);
  const read = await call({ method: 'GET', path: '/wireless/interfaces/corp' });
  await written({ method: 'PUT', path: '/wireless/interfaces/corp', body: read.json }, ['network']);
  assert.is(section('corp')!.options.get('dae_secret'), DAE);
  // Defaults are not written: a mesh point with its tunables, a sta backhaul.
  const mesh = await written(
    { method: 'POST', path: '/wireless/interfaces', body: { id: 'mesh', device: 'radio1', network: 'lan', mode: 'mesh', mesh_id: 'backhaul', encryption: 'sae', key: KEY, mesh_rssi_threshold: -70, mesh_hwmp_rootmode: 4, mesh_gate_announcements: 1, mesh_auto_open_plinks: false, mesh_nolearn: true, mesh_power_mode: 2, mesh_sync_offset_max_neighor: 20 } },
    ['network'],
  );
  assert.equal([mesh.mesh_rssi_threshold, mesh.mesh_auto_open_plinks, mesh.uapsd, mesh.dtim_period], [-70, false, undefined, undefined]);
  assert.ok(wireless().endsWith(`\nconfig wifi-iface 'mesh'\n\toption device 'radio1'\n\toption network 'lan'\n\toption mode 'mesh'\n\toption encryption 'sae'\n\toption key '${KEY}'\n\toption mesh_id 'backhaul'\n\toption mesh_auto_open_plinks '0'\n\toption mesh_hwmp_rootmode '4'\n\toption mesh_gate_announcements '1'\n\toption mesh_sync_offset_max_neighor '20'\n\toption mesh_rssi_threshold '-70'\n\toption mesh_nolearn '1'\n\toption mesh_power_mode '2'\n\n`), wireless());
  const sta = await written({ method: 'POST', path: '/wireless/interfaces', body: { id: 'up', device: 'radio0', network: 'wan', mode: 'sta', ssid: 'Up', multi_ap: 1, wds: true } }, ['network']);
  assert.equal([sta.multi_ap, sta.short_preamble, sta.r0kh], [1, undefined, []]);
  assert.ok(wireless().endsWith(`\nconfig wifi-iface 'up'\n\toption device 'radio0'\n\toption network 'wan'\n\toption mode 'sta'\n\toption ssid 'Up'\n\toption wds '1'\n\toption multi_ap '1'\n\n`), wireless());
  const produced = [...answers, router.texts('/var/log', '/tmp', '/var/emu', '/var/lock')].join('\n');
  assert.ok(produced.includes('brvlan'), 'the answers are searched');
  assert.not.ok(produced.includes(DAE), 'no answer, log or state file holds the DAE secret');
});

test('the rules of the bss options: modes, the options they need, the key management they go with; refused writes change nothing', async () => {
  const ap = { device: 'radio1', network: 'lan', mode: 'ap', ssid: 'Home' };
  const psk = { ...ap, encryption: 'psk2', key: KEY };
  const wpa = { ...ap, encryption: 'wpa2', auth_server: ['192.168.1.5'] };
  const post = (body: Body, errors: string[]) => refused({ method: 'POST', path: '/wireless/interfaces', body }, 422, errors);
  await post({ ...ap, mode: 'sta', dtim_period: 2, uapsd: true, mesh_ttl: 5 }, ['dtim_period:conflict', 'uapsd:conflict', 'mesh_ttl:conflict']);
  await post({ ...ap, mode: 'sta', multi_ap: 2 }, ['multi_ap:conflict']);
  await post({ device: 'radio1', mode: 'mesh', mesh_id: 'm', multi_ap: 1 }, ['multi_ap:conflict']);
  await post({ ...ap, dtim_period: 0, bss_load_update_period: 101, mesh_rssi_threshold: 1 }, ['dtim_period:out_of_range', 'bss_load_update_period:out_of_range', 'mesh_rssi_threshold:conflict', 'mesh_rssi_threshold:out_of_range']);
  await post({ ...ap, wpa_group_rekey: 600, wpa_disable_eapol_key_retries: true, rsn_preauth: true }, ['wpa_group_rekey:conflict', 'wpa_disable_eapol_key_retries:conflict', 'rsn_preauth:conflict']);
  await post({ ...psk, eap_reauth_period: 60, dae_client: '192.168.1.5', dae_secret: 'x' }, ['eap_reauth_period:conflict', 'dae_client:conflict', 'dae_secret:conflict']);
  await post({ ...wpa, dae_client: '192.168.1.5', dae_port: 3799 }, ['dae_client:conflict']);
  await post({ ...wpa, dae_secret: 'x', dae_port: 3799 }, ['dae_port:conflict', 'dae_secret:conflict']);
  await post({ ...ap, dynamic_vlan: 1, vlan_naming: 1 }, ['dynamic_vlan:conflict']);
  await post({ ...psk, vlan_bridge: 'brvlan', wnm_sleep_mode_no_keys: true, wds_bridge: 'br-lan' }, ['vlan_bridge:conflict', 'wnm_sleep_mode_no_keys:conflict', 'wds_bridge:conflict']);
  await post({ ...ap, ppsk: true }, ['ppsk:conflict']);
  await post({ ...psk, r0kh: ['02:00:00:00:00:01,ap1,000102030405060708090a0b0c0d0e0f'], reassociation_deadline: 1000 }, ['reassociation_deadline:conflict', 'r0kh:conflict']);
  await post({ ...psk, ieee80211r: true, pmk_r1_push: true }, ['pmk_r1_push:conflict']);
  await post({ ...psk, ieee80211r: true, ft_psk_generate_local: false, r1kh: ['02:00:00:00:00:01,ap1,0011'] }, ['r1kh[0]:invalid_format']);
  assert.is(wireless(), STOCK);
  // PPSK: no key, the keys come from the RADIUS server; dynamic VLANs with a MAC allow list.
  await written({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, id: 'ppsk', encryption: 'psk2', ppsk: true, auth_server: ['192.168.1.5'], auth_secret: 'radius secret', dynamic_vlan: 1 } }, ['network']);
  await written({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, id: 'vlans', macfilter: 'allow', maclist: ['02:00:00:00:00:01'], dynamic_vlan: 1 } }, ['network']);
  assert.equal([section('ppsk')!.options.get('ppsk'), section('ppsk')!.options.get('key'), section('vlans')!.options.get('dynamic_vlan')], ['1', undefined, '1']);
});

test('OpenAPI: both collections with their items; key is write-only with has_key; device, network and channel as uapi\'s provider has them, nothing required but a radio\'s type', async () => {
  const served = (await call({ method: 'GET', path: '/openapi.json' })).json as Body;
  const { paths } = served;
  const components = { schemas: resolvedSchemas(served) as Body };
  for (const resource of ['devices', 'interfaces']) {
    assert.equal(Object.keys(paths[`/wireless/${resource}/{id}`]).filter((verb) => verb !== 'parameters').sort(), ['delete', 'get', 'patch', 'put']);
  }
  const request = components.schemas.WirelessInterfacesRequest;
  assert.is(request.required, undefined, 'device is required by the rules: a write of null keeps a list of radios');
  assert.equal([request.properties.mode.default, components.schemas.WirelessInterfaces.properties.mode.default], ['ap', 'ap']);
  assert.is(request.properties.key.writeOnly, true);
  assert.is(components.schemas.WirelessInterfaces.properties.has_key.readOnly, true);
  for (const name of SECRETS) assert.is(request.properties[name].writeOnly, true, name);
  assert.is(components.schemas.WirelessInterfaces.properties.has_auth_secret.readOnly, true);
  assert.is(components.schemas.WirelessInterfaces.properties.has_dae_secret.readOnly, true);
  assert.equal([request.properties.device.type, request.properties.network.type], [['string', 'null'], ['string', 'null']]);
  assert.equal(components.schemas.WirelessDevicesRequest.required, ['type']);
  assert.equal(components.schemas.WirelessDevices.properties.channel.anyOf.map((branch: Body) => branch.type), ['integer', 'string', 'null']);
});

test.run();
