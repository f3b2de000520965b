// wireless/devices and wireless/interfaces through the CGI path: what lands in /etc/config/wireless,
// the reloads and headers, runtime from the ubus stand-in, the key that never comes back, the
// references to radios and network interfaces, and every refusal leaving /etc untouched.
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/wireless', import.meta.url), 'utf8');
const KEY = 'correct horse battery';
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

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
    channel: '1',
    htmode: 'HE20',
    disabled: true,
    runtime: { up: false, pending: false, autostart: true, disabled: true, retry_setup_failed: false },
  });
  assert.equal([radio1.band, radio1.channel, radio1.htmode], ['5g', '36', 'HE80']);
  const interfaces = await call({ method: 'GET', path: '/wireless/interfaces' });
  assert.equal(interfaces.json, ['radio0', 'radio1'].map((radio) => ({
    id: `default_${radio}`,
    managed: true,
    device: radio,
    network: ['lan'],
    mode: 'ap',
    ssid: 'OpenWrt',
    encryption: 'none',
    has_key: false,
    maclist: [],
    runtime: {},
  })));
  assert.equal(readFileSync(router.path('/var/log/ubus.log'), 'utf8').split('\n').filter(Boolean), ['network.wireless status', 'network.wireless status']);
  const one = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1' });
  assert.match(one.headers.etag, /^"[0-9a-f]{16}"$/);
  const cached = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1', query: { if_none_match: one.headers.etag } });
  assert.is(cached.status, 304);
});

test('runtime: an interface set up carries its ifname, never the options netifd echoes; null when the bus is down, and outside the ETag', async () => {
  radio1Up();
  const up = await call({ method: 'GET', path: '/wireless/interfaces/default_radio1' });
  assert.equal((up.json as Body).runtime, { ifname: 'phy1-ap0' });
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

test('an access point with a key: the file, the reload, and the key in no answer, log or state file; kept by a PATCH without it and a PUT of a read', async () => {
  const created = await written(
    { method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', network: ['lan'], mode: 'ap', ssid: 'Home', encryption: 'sae-mixed', key: KEY, ieee80211r: true, mobility_domain: 'a1b2' } },
    ['network'],
  );
  assert.match(created.id, new RegExp(`^w_${ULID}$`));
  assert.equal(created, {
    id: created.id, managed: true, device: 'radio1', network: ['lan'], mode: 'ap', ssid: 'Home', encryption: 'sae-mixed', has_key: true, ieee80211r: true, mobility_domain: 'a1b2', maclist: [],
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
  const ap = { device: 'radio1', network: ['lan'], mode: 'ap', ssid: 'Home' };
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'psk2' } }, 422, ['key:required']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'psk2', key: 'short' } }, 422, ['key:out_of_range']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, key: KEY } }, 422, ['key:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, encryption: 'wpa2' } }, 422, ['encryption:invalid_format']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, mode: 'sta', hidden: true, network: ['wan'] } }, 422, ['hidden:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio1', mode: 'mesh', mesh_id: 'm', encryption: 'psk2', key: KEY } }, 422, ['encryption:conflict']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, ssid: 'x'.repeat(33), mode: 'ap' } }, 422, ['ssid:out_of_range']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { network: ['lan'], ssid: 'x' } }, 422, ['device:required', 'mode:required']);
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { ...ap, txpower: 20 } }, 422, ['txpower:unknown_field']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { encryption: 'psk2' } }, 422, ['key:required']);
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio0', body: { device: 'radio0', mode: 'ap', ssid: 'OpenWrt', maclist: ['02:00:00:00:00:01'] } }, 422, ['maclist:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/interfaces/nosuch', body: { ssid: 'x' } }, 404, 'not_found');
  assert.is(wireless(), STOCK);
});

test('references: device names a radio, network network interfaces; a radio or an interface still named cannot be deleted', async () => {
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio9', network: ['lan', 'guest'], mode: 'ap', ssid: 'x' } }, 422, ['device:conflict', 'network[1]:conflict']);
  const radio = await refused({ method: 'DELETE', path: '/wireless/devices/radio1' }, 409, 'conflict');
  assert.match(radio.message, /wireless\/interfaces\/default_radio1 \(device: radio1\)/);
  const lan = await refused({ method: 'DELETE', path: '/network/interfaces/lan' }, 409, 'conflict');
  assert.match(lan.message, /wireless\/interfaces\/default_radio0 \(network: lan\)/);
  await written({ method: 'DELETE', path: '/wireless/interfaces/default_radio1' }, ['network']);
  await written({ method: 'DELETE', path: '/wireless/devices/radio1' }, ['network']);
  assert.equal(parseUci(wireless()).sections.map((entry) => entry.name), ['radio0', 'default_radio0']);
  const guest = await written({ method: 'POST', path: '/network/interfaces', body: { id: 'guest', proto: 'static', ipaddrs: ['192.168.2.1/24'] } }, ['network']);
  const ssid = await written({ method: 'POST', path: '/wireless/interfaces', body: { id: 'guest_ap', device: 'radio0', network: [guest.id], mode: 'ap', ssid: 'Guest', isolate: true } }, ['network']);
  assert.equal([ssid.network, section('guest_ap')!.options.get('network')], [['guest'], 'guest'], 'one network is written as an option');
  assert.equal(initLog(), ['network reload', 'network reload', 'network reload', 'network reload']);
});

test('radios: the file written, band, channel and htmode held to what the scripts apply, an interface checked against its radio', async () => {
  const radio = { type: 'mac80211', phy: 'phy2', band: '6g', channel: '37', htmode: 'HE160', country: 'DE', txpower: 20 };
  const created = await written({ method: 'POST', path: '/wireless/devices', body: { id: 'radio2', ...radio } }, ['network']);
  assert.equal(created, { id: 'radio2', managed: true, ...radio });
  assert.ok(wireless().endsWith("\nconfig wifi-device 'radio2'\n\toption type 'mac80211'\n\toption phy 'phy2'\n\toption band '6g'\n\toption channel '37'\n\toption htmode 'HE160'\n\toption country 'DE'\n\toption txpower '20'\n\n"), wireless());
  await refused({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio2', mode: 'ap', ssid: 'Six', encryption: 'psk2', key: KEY } }, 422, ['encryption:conflict']);
  await written({ method: 'POST', path: '/wireless/interfaces', body: { device: 'radio2', mode: 'ap', ssid: 'Six', encryption: 'sae', key: KEY } }, ['network']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { channel: '36' } }, 422, ['channel:conflict']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { htmode: 'VHT80' } }, 422, ['htmode:conflict']);
  await refused({ method: 'PUT', path: '/wireless/devices/radio0', body: { type: 'mac80211', channel: '1' } }, 422, ['band:required', 'path:required']);
  await refused({ method: 'PATCH', path: '/wireless/devices/radio0', body: { type: 'broadcom', country: 'de' } }, 422, ['type:not_in_enum', 'country:invalid_format']);
  const enabled = await written({ method: 'PATCH', path: '/wireless/devices/radio0', body: { disabled: false, channel: 'auto', htmode: 'HE40' } }, ['network']);
  assert.equal([enabled.disabled, enabled.channel, enabled.htmode], [false, 'auto', 'HE40']);
  assert.is(section('radio0')!.options.get('disabled'), '0');
});

test('spellings read as netifd reads them; what the model cannot show reads null and a PUT keeps it or is refused', async () => {
  const [device0, iface0, device1, iface1] = STOCK.split('\n\n');
  writeFileSync(
    router.path('/etc/config/wireless'),
    [
      device0.replace("disabled '1'", "disabled 'yes'\n\toption txpower '0x10'"),
      iface0.replace("'OpenWrt'\n\toption encryption 'none'", "'Corp'\n\toption encryption 'wpa2'\n\toption auth_server '192.168.1.5'\n\toption wmm 'no'\n\toption maxassoc '010'"),
      device1,
      iface1.replace("option device 'radio1'", "list device 'radio0'\n\tlist device 'radio1'"),
    ].join('\n\n') + '\n\n',
  );
  const [radio0] = (await call({ method: 'GET', path: '/wireless/devices' })).json as Body[];
  assert.equal([radio0.disabled, radio0.txpower], [false, 16], "blob.c drops 'yes' (enabled) and reads 0x10 as 16");
  const [corp, multi] = (await call({ method: 'GET', path: '/wireless/interfaces' })).json as Body[];
  assert.equal([corp.encryption, corp.wmm, corp.maxassoc], ['wpa2', true, 8]);
  assert.is(multi.device, null, 'a list of radios');
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio0', body: corp }, 422, ['encryption:invalid_format']);
  await refused({ method: 'PUT', path: '/wireless/interfaces/default_radio1', body: multi }, 422, ['device:required']);
  await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { ssid: 'Corp2' } }, ['network']);
  await written({ method: 'PATCH', path: '/wireless/interfaces/default_radio1', body: { ssid: 'Both' } }, ['network']);
  assert.equal([section('default_radio0')!.options.get('auth_server'), section('default_radio1')!.options.get('device')], ['192.168.1.5', ['radio0', 'radio1']], 'a PATCH keeps what it does not name');
});

test('a radio is not moved to 6 GHz under an open SSID; moved by hand, the diagnostics sweep lists the SSID', async () => {
  const invalid = async () => {
    const response = await call({ method: 'GET', path: '/diagnostics', query: { validate: '1' } });
    assert.is(response.status, 200, response.body);
    return ((response.json as Body).invalid_sections as Body[]).filter((entry) => entry.resource.startsWith('wireless:'));
  };
  assert.equal(await invalid(), []);
  const refusal = await refused({ method: 'PATCH', path: '/wireless/devices/radio1', body: { band: '6g', channel: '37', htmode: 'HE80' } }, 422, ['band:conflict']);
  assert.is(refusal.errors[0].message, 'wifi-iface default_radio1 (none): hostapd allows only sae or owe without TKIP on 6 GHz');
  const path = router.path('/etc/config/wireless');
  writeFileSync(path, readFileSync(path, 'utf8').replace("option band '5g'\n\toption channel '36'", "option band '6g'\n\toption channel '37'"));
  const message = 'hostapd allows only sae or owe without TKIP on 6 GHz';
  assert.equal(await invalid(), [
    { resource: 'wireless:devices', id: 'radio1', managed: true, errors: [{ field: 'band', code: 'conflict', message: `wifi-iface default_radio1 (none): ${message}` }] },
    { resource: 'wireless:interfaces', id: 'default_radio1', managed: true, errors: [{ field: 'encryption', code: 'conflict', message }] },
  ]);
});

test('OpenAPI: both collections with their items; key is write-only with has_key, device and mode required', async () => {
  const { paths, components } = (await call({ method: 'GET', path: '/openapi.json' })).json as Body;
  for (const resource of ['devices', 'interfaces']) {
    assert.equal(Object.keys(paths[`/wireless/${resource}/{id}`]).filter((verb) => verb !== 'parameters').sort(), ['delete', 'get', 'patch', 'put']);
  }
  const request = components.schemas.WirelessInterfacesRequest;
  assert.equal(request.required.sort(), ['device', 'mode']);
  assert.is(request.properties.key.writeOnly, true);
  assert.is(components.schemas.WirelessInterfaces.properties.has_key.readOnly, true);
  assert.equal(components.schemas.WirelessDevicesRequest.required.sort(), ['band', 'type']);
});

test.run();
