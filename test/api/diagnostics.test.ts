import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEAD_OWNER, newRouter, type Response, type Router } from '../support/router.js';

const FIREWALL = ['firewall:defaults', 'firewall:forwardings', 'firewall:nat', 'firewall:redirects', 'firewall:rules', 'firewall:zones'];
const NETWORK = ['network:bridge_vlans', 'network:devices', 'network:interfaces', 'network:routes', 'network:rules', 'network:wireguard_peers'];
const WIRELESS = ['wireless:devices', 'wireless:interfaces'];
const MWAN3 = ['mwan3:globals', 'mwan3:interfaces', 'mwan3:members', 'mwan3:policies', 'mwan3:rules'];
const SNMPD = ['snmpd:accesses', 'snmpd:agents', 'snmpd:com2secs', 'snmpd:groups', 'snmpd:system'];
const UNBOUND = ['unbound:ext', 'unbound:server', 'unbound:srv'];
/** In the resource table's order, by path. */
const CURATED = [
  'dhcp:dnsmasq', 'dhcp:hosts', 'dhcp:odhcpd', 'dhcp:servers', 'dropbear:instances', ...FIREWALL, 'lldpd:config', ...MWAN3, ...NETWORK, 'openvpn:instances',
  'prometheus_node_exporter_lua:config', ...SNMPD, 'sqm:queues', 'system', 'system:timeservers', 'uhttpd:certs', 'uhttpd:instances', ...UNBOUND, 'usteer:config',
  'vnstat:config', ...WIRELESS,
];
/** The daemon packages' resources are read whether their daemon is installed or not. */
const DAEMON_SCOPES = ['lldpd:ro', 'mwan3:ro', 'openvpn:ro', 'prometheus_node_exporter_lua:ro', 'snmpd:ro', 'sqm:ro', 'unbound:ro', 'usteer:ro', 'vnstat:ro'];
/** Lock files by package: those of the stock packages and of the daemon packages' resources alike. */
const NO_LOCKS = {
  wrtapi: false, dhcp: false, firewall: false, network: false, system: false, wireless: false, dropbear: false, uhttpd: false, lldpd: false, mwan3: false, openvpn: false,
  'prometheus-node-exporter-lua': false, snmpd: false, sqm: false, unbound: false, unbound_ext: false, unbound_srv: false, usteer: false, vnstat: false,
};
/** The read-only views are loaded too, but hold no configuration to sweep. */
const LOADED = [...CURATED.slice(0, 2), 'dhcp:leases', 'dhcp:leases6', ...CURATED.slice(2)];

type Body = Record<string, any>;

let router: Router;
let bearer: string;
test.before.each(async () => {
  router = await newRouter();
  bearer = await router.mint('diag', ['wrtapi:diagnostics:ro', 'firewall:ro', 'dhcp:ro', 'dropbear:ro', 'network:ro', 'system:ro', 'uhttpd:ro', 'wireless:ro', ...DAEMON_SCOPES]);
});
test.after.each(async () => {
  await router.cleanup();
});

function diagnostics(options: { query?: Record<string, string>; remote?: string; token?: string } = {}): Promise<Response> {
  return router.request({ method: 'GET', path: '/diagnostics', query: options.query, remote: options.remote, headers: { authorization: `Bearer ${options.token ?? bearer}` } });
}

function setServiceOption(name: string, value: string) {
  const path = router.path('/etc/config/wrtapi');
  writeFileSync(path, readFileSync(path, 'utf8').replace(new RegExp(`option ${name} '[01]'`), `option ${name} '${value}'`));
}

test('GET /diagnostics: version, uptime, resources, lock files, errors and the management path of a LAN caller', async () => {
  const response = await diagnostics();
  assert.is(response.status, 200, response.body);
  assert.is(response.headers['content-type'], 'application/json');
  assert.is(response.headers['cache-control'], 'no-store');
  assert.equal(response.json, {
    version: JSON.parse(readFileSync('package.json', 'utf8')).version,
    uptime_seconds: 86400,
    resources_loaded: LOADED,
    lock_state: { global_held: false, per_package: NO_LOCKS },
    recent_errors: [],
    management_path: { address: '192.168.1.100', device: 'br-lan', interface: 'lan' },
    request_id: response.headers['x-request-id'],
  });
  assert.is(readFileSync(router.path('/var/log/ip.log'), 'utf8'), 'route get 192.168.1.100\n');
  assert.is(readFileSync(router.path('/var/log/ubus.log'), 'utf8'), 'network.interface dump\n');
  assert.is(readFileSync(router.path('/var/log/messages'), 'utf8'), '', 'a read is not logged while debug and access are off');
});

test('GET /diagnostics needs wrtapi:diagnostics:ro, which *:ro covers', async () => {
  const metricsOnly = await router.mint('metrics', ['wrtapi:metrics:ro', 'firewall:rw']);
  const refused = await diagnostics({ token: metricsOnly });
  assert.is(refused.status, 403);
  assert.is((refused.json as Body).code, 'insufficient_scope');
  assert.is((refused.json as Body).message, "This token's scopes do not grant wrtapi:diagnostics:ro");
  const reader = await router.mint('reader', ['*:ro']);
  assert.is((await diagnostics({ token: reader })).status, 200);
});

test('the management path follows the kernel route: loopback, IPv6 and IPv4-mapped callers', async () => {
  assert.equal(((await diagnostics({ remote: '127.0.0.1' })).json as Body).management_path, { address: '127.0.0.1', device: 'lo', interface: 'loopback' });
  assert.equal(((await diagnostics({ remote: 'fd4c:7e19:a3b2::55' })).json as Body).management_path, { address: 'fd4c:7e19:a3b2::55', device: 'br-lan', interface: 'lan' });
  assert.equal(((await diagnostics({ remote: '::ffff:192.168.1.7' })).json as Body).management_path, { address: '192.168.1.7', device: 'br-lan', interface: 'lan' });
  assert.is(readFileSync(router.path('/var/log/ip.log'), 'utf8'), 'route get 127.0.0.1\nroute get fd4c:7e19:a3b2::55\nroute get 192.168.1.7\n');
});

test('the management path names no interface when none claims the device, and no device when the lookup fails', async () => {
  // netifd without lan: a pinned answer instead of the one derived from the configuration.
  mkdirSync(router.path('/var/emu/ubus/network.interface'), { recursive: true });
  writeFileSync(router.path('/var/emu/ubus/network.interface/dump.json'), JSON.stringify({ interface: [{ interface: 'loopback', up: true, l3_device: 'lo', device: 'lo' }] }));
  assert.equal(((await diagnostics()).json as Body).management_path, { address: '192.168.1.100', device: 'br-lan', interface: null });
  writeFileSync(router.path('/var/emu/ubus-down'), '');
  assert.equal(((await diagnostics({ remote: '127.0.0.1' })).json as Body).management_path, { address: '127.0.0.1', device: 'lo', interface: null });
  writeFileSync(router.path('/sbin/ip'), '#!/bin/sh\necho "RTNETLINK answers: Network is unreachable" >&2\nexit 2\n');
  const unreachable = await diagnostics();
  assert.is(unreachable.status, 200);
  assert.equal((unreachable.json as Body).management_path, { address: '192.168.1.100', device: null, interface: null });
});

test('lock_state reports the locks a running process holds, never what a killed writer left', async () => {
  router.lock('/var/lock/wrtapi.firewall.lock');
  router.lock('/var/lock/wrtapi.network.lock', DEAD_OWNER);
  router.lock('/var/lock/wrtapi.global.shared.999999999', DEAD_OWNER);
  const response = await diagnostics();
  assert.equal((response.json as Body).lock_state, { global_held: false, per_package: { ...NO_LOCKS, firewall: true } });
  router.lock(`/var/lock/wrtapi.global.shared.${process.pid}`);
  assert.is(((await diagnostics()).json as Body).lock_state.global_held, true);
  rmSync(router.path(`/var/lock/wrtapi.global.shared.${process.pid}`));
  router.lock('/var/lock/wrtapi.global.lock');
  assert.is(((await diagnostics()).json as Body).lock_state.global_held, true);
});

test('recent_errors holds the last 20 error envelopes, oldest first', async () => {
  const reader = await router.mint('reader', ['firewall:ro']);
  const failures: Response[] = [];
  failures.push(await router.request({ method: 'GET', path: '/firewall/rules/none', headers: { authorization: `Bearer ${reader}` } }));
  failures.push(await router.request({ method: 'DELETE', path: '/firewall/rules/none', headers: { authorization: `Bearer ${reader}` } }));
  failures.push(await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: 'Bearer wrtapi_00000000000000000000000000000000' } }));
  for (let i = 0; i < 19; i++) failures.push(await router.request({ method: 'GET', path: `/nothing/${i}`, headers: { authorization: `Bearer ${reader}` } }));
  const body = (await diagnostics()).json as Body;
  assert.is(body.recent_errors.length, 20);
  const expected = failures.slice(2).map((response) => ({
    request_id: response.headers['x-request-id'],
    code: (response.json as Body).code,
    status: response.status,
    message: (response.json as Body).message,
  }));
  assert.equal(
    body.recent_errors.map(({ request_id, code, status, message }: Body) => ({ request_id, code, status, message })),
    expected,
  );
  assert.equal(body.recent_errors[0], {
    ts: body.recent_errors[0].ts,
    request_id: failures[2].headers['x-request-id'],
    code: 'invalid_token',
    status: 401,
    method: 'GET',
    path: '/auth/whoami',
    message: 'Unknown token',
  });
  // Epoch seconds, as uapi's provider reads them.
  assert.ok(Number.isInteger(body.recent_errors[0].ts) && Math.abs(body.recent_errors[0].ts - Date.now() / 1000) < 120, String(body.recent_errors[0].ts));
  assert.is(body.recent_errors[19].path, '/nothing/18');
});

test('validate=1 sweeps the stock configuration clean and changes nothing', async () => {
  const before = readFileSync(router.path('/etc/config/firewall'), 'utf8');
  const response = await diagnostics({ query: { validate: '1' } });
  assert.is(response.status, 200, response.body);
  const body = response.json as Body;
  assert.equal(body.invalid_sections, []);
  assert.equal(body.swept_resources, CURATED);
  assert.equal(body.skipped_for_scope, []);
  assert.is(readFileSync(router.path('/etc/config/firewall'), 'utf8'), before);
  assert.equal(readdirSync(router.path('/var/lock')), []);
  assert.not.ok(existsSync(router.path('/var/log/init.log')), 'nothing reloaded');
});

test('validate=1 reports each invalid section with every error, and skips what the token may not read', async () => {
  appendFileSync(
    router.path('/etc/config/firewall'),
    [
      '',
      "config rule 'to_nowhere'",
      "\toption name 'To nowhere'",
      "\toption src 'nowhere'",
      "\toption dest_port '22'",
      "\toption target 'ACCEPT'",
      '',
      'config rule',
      "\toption name 'Odd target'",
      "\toption src 'wan'",
      "\toption target 'MAYBE'",
      "\toption proto 'icmp'",
      "\toption dest_port '80'",
      '',
    ].join('\n'),
  );
  const before = readFileSync(router.path('/etc/config/firewall'), 'utf8');
  const rulesOnly = await router.mint('rules', ['wrtapi:diagnostics:ro', 'firewall:rules:ro']);
  const response = await diagnostics({ query: { validate: '1' }, token: rulesOnly });
  assert.is(response.status, 200, response.body);
  const body = response.json as Body;
  assert.equal(body.swept_resources, ['firewall:rules']);
  assert.equal(body.skipped_for_scope, CURATED.filter((name) => name !== 'firewall:rules'));
  assert.is(body.invalid_sections.length, 2, response.body);
  const [named, anonymous] = body.invalid_sections;
  assert.equal(named, {
    resource: 'firewall:rules',
    id: 'to_nowhere',
    managed: true,
    errors: [{ field: 'match.src_zone', code: 'conflict', message: 'match.src_zone: no firewall zone named nowhere' }],
  });
  assert.is(anonymous.resource, 'firewall:rules');
  assert.match(anonymous.id, /^cfg[0-9a-f]{6}$/);
  assert.is(anonymous.managed, false);
  assert.equal(
    anonymous.errors.map(({ field, code }: Body) => [field, code]),
    [
      ['target', 'unreadable'],
      ['match.dest_port', 'conflict'],
    ],
  );
  assert.is(readFileSync(router.path('/etc/config/firewall'), 'utf8'), before);
});

test('validate=1 reports a resource whose sweep fails as a whole; the plain answer is unaffected', async () => {
  appendFileSync(router.path('/etc/config/firewall'), "\nconfig rule 'broken'\n\toption name 'unterminated\n");
  const response = await diagnostics({ query: { validate: '1' } });
  assert.is(response.status, 200, response.body);
  const body = response.json as Body;
  assert.equal(body.swept_resources, CURATED);
  assert.equal(
    body.invalid_sections.map(({ resource, id, managed, errors }: Body) => [resource, id, managed, errors.length, errors[0].field, errors[0].code]),
    // network/interfaces reads firewall too, for the zones its `zone` names.
    [...FIREWALL, 'network:interfaces'].map((resource) => [resource, null, null, 1, '', 'sweep_failed']),
  );
  assert.match(body.invalid_sections[0].errors[0].message, /\/etc\/config\/firewall is malformed/);
  assert.is((await diagnostics()).status, 200);
});

test('validate takes 0 or 1; anything else is a 400 bad_request', async () => {
  const response = await diagnostics({ query: { validate: 'yes' } });
  assert.is(response.status, 400);
  assert.equal(response.json, { code: 'bad_request', message: 'validate must be 0 or 1', request_id: response.headers['x-request-id'] });
  assert.not.ok('invalid_sections' in ((await diagnostics({ query: { validate: '0' } })).json as Body));
});

test('DEBUG: with debug 1 each bus call of a logged request is a debug line; /healthz never logs', async () => {
  await diagnostics();
  assert.is(readFileSync(router.path('/var/log/messages'), 'utf8'), '');
  setServiceOption('debug', '1');
  await router.request({ method: 'GET', path: '/healthz' });
  assert.is(readFileSync(router.path('/var/log/messages'), 'utf8'), '', '/healthz calls the bus but is excluded from every category');
  const traced = await diagnostics();
  writeFileSync(router.path('/var/emu/ubus-down'), '');
  setServiceOption('access', '1');
  const failed = await diagnostics();
  const lines = readFileSync(router.path('/var/log/messages'), 'utf8').split('\n');
  assert.is(lines.length, 4, lines.join('\n'));
  const durations = lines.map((line) => [...line.matchAll(/ (\d+)ms/g)].map((match) => match[1]));
  assert.equal(lines, [
    `daemon.debug wrtapi: ${traced.headers['x-request-id']} diag DEBUG - GET /diagnostics 200 ${durations[0][0]}ms ubus call network.interface dump exit=0 ${durations[0][1]}ms`,
    `daemon.debug wrtapi: ${failed.headers['x-request-id']} diag DEBUG - GET /diagnostics 200 ${durations[1][0]}ms ubus call network.interface dump exit=255 ${durations[1][1]}ms`,
    `daemon.info wrtapi: ${failed.headers['x-request-id']} diag ACCESS - GET /diagnostics 200 ${durations[2][0]}ms`,
    '',
  ]);
});

test.run();
