// lldpd/config, prometheus_node_exporter_lua/config, vnstat/config and usteer/config through the CGI
// path, with each daemon package installed as opkg leaves it (its init script stand-in and shipped
// configuration) or not at all: what a write puts in /etc/config, which init script it reloads, that
// a refused write changes nothing, and that the shipped configuration is written back unchanged.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertSameUci, installDaemon, shipped } from '../support/daemons.js';
import { newRouter, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, refused, written } = writeChecks(() => ({ router, authorization }));
const file = (pkg: string) => readFileSync(router.path(`/etc/config/${pkg}`), 'utf8');
/** A whole file as a write commits it: each section after a blank line, and a blank line at the end. */
const committed = (sections: string) => `\n${sections}\n`;

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

// Each resource with its init script, the package that installs it, its /etc/config file and the shipped file read.
const RESOURCES = [
  {
    path: '/lldpd/config', service: 'lldpd', provider: 'lldpd', pkg: 'lldpd',
    read: {
      managed: true, enable_cdp: true, enable_fdp: true, enable_sonmp: true, enable_edp: true, interface: ['loopback', 'lan'], cid_interface: [], lldp_class: 4,
      lldp_location: 'address country EU',
    },
  },
  {
    path: '/prometheus_node_exporter_lua/config', service: 'prometheus-node-exporter-lua', provider: 'prometheus-node-exporter-lua', pkg: 'prometheus-node-exporter-lua',
    read: { managed: true, listen_interface: 'loopback', listen_port: 9100 },
  },
  // The shipped vnstat and usteer sections are anonymous: managed false, which a singleton's write does not mind.
  { path: '/vnstat/config', service: 'vnstat', provider: 'vnstat2', pkg: 'vnstat', read: { managed: false, interfaces: [] } },
  {
    path: '/usteer/config', service: 'usteer', provider: 'usteer', pkg: 'usteer',
    read: { managed: false, network: 'lan', local_mode: false, ipv6: false, syslog: true, debug_level: 2, event_log_types: [], ssid_list: [] },
  },
];

test('without their daemon packages: reads answer, writes are 503 naming the init script and the package, and /etc stays as it was', async () => {
  for (const { path, service, provider, pkg, read } of RESOURCES) {
    const missing = await call({ method: 'GET', path });
    assert.is(missing.status, 404, `${path}: no /etc/config/${pkg}, not configured: ${missing.body}`);
    const answer = await refused({ method: 'PUT', path, body: read }, 503, 'init_script_missing');
    assert.is(answer.message, `Init script /etc/init.d/${service} is missing; install the package ${provider} (POST /packages/installed). Nothing was changed`);
    assert.not.ok(existsSync(router.path(`/etc/config/${pkg}`)), `${path}: no file created`);
  }
  // A package removed with its configuration kept: the configuration reads, and takes no write.
  writeFileSync(router.path('/etc/config/lldpd'), shipped('lldpd'));
  assert.equal((await call({ method: 'GET', path: '/lldpd/config' })).json, RESOURCES[0].read);
  await refused({ method: 'PATCH', path: '/lldpd/config', body: { enable_cdp: false } }, 503, 'init_script_missing');
  assert.is(file('lldpd'), shipped('lldpd'));
});

test('round trip: each shipped file reads as expected and, written back by PUT, keeps its content', async () => {
  for (const { path, service, pkg, read } of RESOURCES) {
    installDaemon(router, service, [pkg]);
    const answer = await call({ method: 'GET', path });
    assert.is(answer.status, 200, answer.body);
    assert.equal(answer.json, read, path);
    const put = await written({ method: 'PUT', path, body: answer.json }, [service]);
    assert.equal(put, read, path);
    assert.is((await call({ method: 'GET', path })).headers.etag, answer.headers.etag, `${path}: the same resource, the same ETag`);
    assertSameUci(shipped(pkg), file(pkg));
  }
  const sweep = (await call({ method: 'GET', path: '/diagnostics?validate=1' })).json as Body;
  assert.equal(sweep.invalid_sections, []);
  for (const resource of ['lldpd:config', 'prometheus_node_exporter_lua:config', 'vnstat:config', 'usteer:config']) assert.ok(sweep.swept_resources.includes(resource), resource);
});

test('lldpd/config: PATCH writes the options it names in section config, and what lldpd or lldpcli would refuse is refused', async () => {
  installDaemon(router, 'lldpd', ['lldpd']);
  const body = {
    enable_lldp: true, cdp_version: 'cdpv2', force_cdp: true, interface: ['lan', 'eth*', '!eth1'], lldp_hostname: 'gw-1', lldp_syscapabilities: 'bridge,router', lldp_capabilities: false,
    lldp_description: 'Core switch uplink',
    lldp_agenttype: 'nearest-customer-bridge', lldp_tx_interval: '500ms', lldp_tx_hold: 3, lldp_med_inv_serial_number: 'SN-0042', lldp_location: null,
  };
  const patched = await written({ method: 'PATCH', path: '/lldpd/config', body }, ['lldpd']);
  const { lldp_location: _removed, ...kept } = RESOURCES[0].read;
  const { lldp_location: _cleared, ...sent } = body;
  assert.equal(patched, { ...kept, ...sent });
  assert.is(
    file('lldpd'),
    committed(
      "config lldpd 'config'\n\toption enable_cdp '1'\n\toption enable_fdp '1'\n\toption enable_sonmp '1'\n\toption enable_edp '1'\n\toption lldp_class '4'\n" +
        "\tlist interface 'lan'\n\tlist interface 'eth*'\n\tlist interface '!eth1'\n\toption enable_lldp '1'\n\toption cdp_version 'cdpv2'\n\toption force_cdp '1'\n" +
        "\toption lldp_hostname 'gw-1'\n\toption lldp_description 'Core switch uplink'\n\toption lldp_syscapabilities 'bridge,router'\n" +
        "\toption lldp_capability_advertisements '0'\n\toption lldp_agenttype 'nearest-customer-bridge'\n" +
        "\toption lldp_tx_interval '500ms'\n\toption lldp_tx_hold '3'\n\toption lldp_med_inv_serial_number 'SN-0042'\n",
    ),
  );
  await refused(
    {
      method: 'PATCH',
      path: '/lldpd/config',
      body: {
        lldp_class: 5, filter: 20, lldp_hostname: 'a"b', lldp_description: 'back\\slash', lldp_syscapabilities: 'bridge router', lldp_portidsubtype: 'local',
        lldp_tx_interval: '1s', interface: ['eth0,eth1'], lldp_med_inv_model_name: 'x'.repeat(32), lldp_med_inv_asset_id: 'é'.repeat(16), lldp_location: 'EU',
      },
    },
    422,
    [
      'filter:out_of_range', 'interface[0]:invalid_format', 'lldp_class:out_of_range', 'lldp_description:invalid_format', 'lldp_hostname:invalid_format',
      'lldp_location:invalid_format', 'lldp_med_inv_asset_id:out_of_range', 'lldp_med_inv_model_name:out_of_range', 'lldp_portidsubtype:not_in_enum',
      'lldp_syscapabilities:invalid_format', 'lldp_tx_interval:invalid_format',
    ],
  );
  // lldp_description is the text lldpd.init sends, not a switch; the provider's lldp_capabilities writes lldp_capability_advertisements, the option lldpd.init reads.
  await refused({ method: 'PATCH', path: '/lldpd/config', body: { lldp_description: true, lldp_capability_advertisements: true, enable_lldpmed: true } }, 422, [
    'enable_lldpmed:unknown_field', 'lldp_capability_advertisements:unknown_field', 'lldp_description:invalid_type',
  ]);
  // lldpcli tokenizes the location: quoted words are one, an unmatched quote or a `#` spoils the line.
  const location = 'address country US street "Main St" city \'Old Town\'';
  await written({ method: 'PATCH', path: '/lldpd/config', body: { lldp_location: location } }, ['lldpd']);
  assert.is(((await call({ method: 'GET', path: '/lldpd/config' })).json as Body).lldp_location, location);
  for (const spoilt of ['address country EU # x', 'address city "Old Town', 'country EU']) {
    await refused({ method: 'PATCH', path: '/lldpd/config', body: { lldp_location: spoilt } }, 422, ['lldp_location:invalid_format']);
  }
  // lldpd.init writes a network policy only for class 2 and 3.
  const policy = 'application voice vlan 10 priority voice dscp 46';
  await refused({ method: 'PATCH', path: '/lldpd/config', body: { lldp_policy: policy } }, 422, ['lldp_policy:conflict']);
  await written({ method: 'PATCH', path: '/lldpd/config', body: { lldp_class: 3, lldp_policy: policy } }, ['lldpd']);
  assert.match(file('lldpd'), `\toption lldp_class '3'\n`);
  assert.match(file('lldpd'), `\toption lldp_policy '${policy}'\n`);
});

test('lldpd/config: the singleton is the section named config, which lldpd.init reads by name; a write creates it so', async () => {
  installDaemon(router, 'lldpd');
  writeFileSync(router.path('/etc/config/lldpd'), "config lldpd\n\toption enable_cdp '1'\n\nconfig lldpd 'config'\n\toption enable_cdp '0'\n");
  assert.equal((await call({ method: 'GET', path: '/lldpd/config' })).json, { managed: true, enable_cdp: false, interface: [], cid_interface: [] });
  await written({ method: 'PATCH', path: '/lldpd/config', body: { enable_edp: true } }, ['lldpd']);
  assert.is(file('lldpd'), committed("config lldpd\n\toption enable_cdp '1'\n\nconfig lldpd 'config'\n\toption enable_cdp '0'\n\toption enable_edp '1'\n"));
  writeFileSync(router.path('/etc/config/lldpd'), "config lldpd\n\toption enable_cdp '1'\n");
  assert.is((await call({ method: 'GET', path: '/lldpd/config' })).status, 404);
  await written({ method: 'PUT', path: '/lldpd/config', body: { enable_lldp: false } }, ['lldpd']);
  assert.is(file('lldpd'), committed("config lldpd\n\toption enable_cdp '1'\n\nconfig lldpd 'config'\n\toption enable_lldp '0'\n"));
});

test('prometheus_node_exporter_lua/config: section main, its listen address and HTTPS files', async () => {
  installDaemon(router, 'prometheus-node-exporter-lua', ['prometheus-node-exporter-lua']);
  const body = { listen_interface: '*', listen_port: 9101, http_keepalive: 0, cert: '/etc/uhttpd.crt', key: '/etc/uhttpd.key' };
  assert.equal(await written({ method: 'PATCH', path: '/prometheus_node_exporter_lua/config', body }, ['prometheus-node-exporter-lua']), { managed: true, ...body });
  assert.is(
    file('prometheus-node-exporter-lua'),
    committed(
      "config prometheus-node-exporter-lua 'main'\n\toption listen_interface '*'\n\toption listen_port '9101'\n\toption http_keepalive '0'\n" +
        "\toption cert '/etc/uhttpd.crt'\n\toption key '/etc/uhttpd.key'\n",
    ),
  );
  await refused(
    { method: 'PATCH', path: '/prometheus_node_exporter_lua/config', body: { listen_interface: 'br-lan', listen_port: 0, cert: '/etc/my cert.pem', key: '/etc/*.key', listen_ipv6: true } },
    422,
    ['cert:invalid_format', 'key:invalid_format', 'listen_interface:invalid_format', 'listen_ipv6:unknown_field', 'listen_port:out_of_range'],
  );
  // HTTPS needs both files; one alone would quietly serve HTTP.
  await refused({ method: 'PATCH', path: '/prometheus_node_exporter_lua/config', body: { key: null } }, 422, ['key:conflict']);
  await written({ method: 'PATCH', path: '/prometheus_node_exporter_lua/config', body: { key: null, cert: null } }, ['prometheus-node-exporter-lua']);
  assert.not.match(file('prometheus-node-exporter-lua'), /cert|key/);
});

test('vnstat/config: kernel device names as vnstat --add takes them, in the first vnstat section', async () => {
  installDaemon(router, 'vnstat', ['vnstat']);
  const interfaces = ['br-lan', 'eth0.2', 'wlan0-1', 'pppoe-wan', 'x'.repeat(15), 'ü'.repeat(7)];
  assert.equal(await written({ method: 'PATCH', path: '/vnstat/config', body: { interfaces } }, ['vnstat']), { managed: false, interfaces });
  assert.is(file('vnstat'), committed(`config vnstat\n${interfaces.map((name) => `\tlist interface '${name}'\n`).join('')}`));
  await refused({ method: 'PUT', path: '/vnstat/config', body: { interfaces: ['.', '..', 'a/b', 'eth 0', 'lan:1', 'x'.repeat(16), 'ü'.repeat(8), ''] } }, 422, [
    'interfaces[0]:invalid_format', 'interfaces[1]:invalid_format', 'interfaces[2]:invalid_format', 'interfaces[3]:invalid_format',
    'interfaces[4]:invalid_format', 'interfaces[5]:invalid_format', 'interfaces[6]:out_of_range', 'interfaces[7]:invalid_format',
  ]);
  // config_list_foreach skips a plain option: it reads null, and a PUT of that read keeps it.
  writeFileSync(router.path('/etc/config/vnstat'), "config vnstat\n\toption interface 'br-lan'\n");
  const odd = (await call({ method: 'GET', path: '/vnstat/config' })).json as Body;
  assert.equal(odd, { managed: false, interfaces: null });
  await written({ method: 'PUT', path: '/vnstat/config', body: odd }, ['vnstat']);
  assert.is(file('vnstat'), committed("config vnstat\n\toption interface 'br-lan'\n"));
});

test('usteer/config: thresholds, SSID filter and event types as usteerd takes them; a second usteer section is refused', async () => {
  installDaemon(router, 'usteer', ['usteer']);
  const body = { enabled: false, network: 'lan guest', ssid_list: ['OpenWrt', 'Guest Wi-Fi'], event_log_types: ['signal_kick', 'load_kick_client'], min_snr: -75, band_steering_interval: 0 };
  const patched = await written({ method: 'PATCH', path: '/usteer/config', body }, ['usteer']);
  assert.equal(patched, { ...RESOURCES[3].read, ...body });
  assert.is(
    file('usteer'),
    committed(
      "config usteer\n\toption network 'lan guest'\n\toption syslog '1'\n\toption local_mode '0'\n\toption ipv6 '0'\n\toption debug_level '2'\n" +
        "\toption enabled '0'\n\tlist event_log_types 'signal_kick'\n\tlist event_log_types 'load_kick_client'\n\tlist ssid_list 'OpenWrt'\n\tlist ssid_list 'Guest Wi-Fi'\n" +
        "\toption min_snr '-75'\n\toption band_steering_interval '0'\n",
    ),
  );
  // The init script loops over what `uci get` gives: a list reads as its items joined by spaces, and a PUT of it keeps the list.
  writeFileSync(router.path('/etc/config/usteer'), file('usteer').replace("\toption network 'lan guest'\n", "\tlist network 'lan'\n\tlist network 'guest'\n"));
  const listed = (await call({ method: 'GET', path: '/usteer/config' })).json as Body;
  assert.is(listed.network, 'lan guest');
  await written({ method: 'PUT', path: '/usteer/config', body: listed }, ['usteer']);
  assert.match(file('usteer'), "\tlist network 'lan'\n\tlist network 'guest'\n");
  await written({ method: 'PATCH', path: '/usteer/config', body: { network: 'lan' } }, ['usteer']);
  assert.match(file('usteer'), "config usteer\n\toption network 'lan'\n");
  await refused(
    {
      method: 'PATCH',
      path: '/usteer/config',
      body: { min_snr: -2147483649, sta_block_timeout: -1, roam_scan_tries: 2147483648, event_log_types: ['kick'], ssid_list: ['x'.repeat(33)], enabled: 'yes', network: ['lan'] },
    },
    422,
    [
      'enabled:invalid_type', 'event_log_types[0]:not_in_enum', 'min_snr:out_of_range', 'network:invalid_type', 'roam_scan_tries:out_of_range', 'ssid_list[0]:out_of_range',
      'sta_block_timeout:out_of_range',
    ],
  );
  writeFileSync(router.path('/etc/config/usteer'), `${file('usteer')}\nconfig usteer\n\toption debug_level '5'\n`);
  const twice = await refused({ method: 'PATCH', path: '/usteer/config', body: { debug_level: 3 } }, 422, ['enabled:conflict']);
  assert.match(twice.errors[0].message, 'usteer applies the last one');
});

test.run();
