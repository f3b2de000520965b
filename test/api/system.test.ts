// The system singleton and system/timeservers through the CGI path: what each write puts in
// /etc/config/system, the init scripts it reloads, and that a refused write changes no file under
// /etc and reloads nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/system', import.meta.url), 'utf8');
const STOCK_SERVERS = ['0.openwrt.pool.ntp.org', '1.openwrt.pool.ntp.org', '2.openwrt.pool.ntp.org', '3.openwrt.pool.ntp.org'];
// What LuCI's System page adds on its first save (log_proto and the log levels are list boxes it
// always writes), and what config_generate adds on boards that declare a compat_version.
const LUCI_SAVED = STOCK.replace(
  "\toption urandom_seed '0'\n",
  "\toption urandom_seed '0'\n\toption compat_version '1.0'\n\toption zonename 'UTC'\n\toption log_proto 'udp'\n\toption conloglevel '8'\n\toption cronloglevel '7'\n",
);

let router: Router;
let authorization: string;
const { call, written, refused } = writeChecks(() => ({ router, authorization }));
const system = () => readFileSync(router.path('/etc/config/system'), 'utf8');
const firstOfType = (type: string) => Object.fromEntries(parseUci(system()).sections.find((section) => section.type === type)!.options);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

test('system: GET reads the stock anonymous section with an ETag; a matching If-None-Match answers 304', async () => {
  const read = await call({ method: 'GET', path: '/system' });
  assert.is(read.status, 200, read.body);
  assert.equal(read.json, { hostname: 'OpenWrt', timezone: 'UTC', log_size: 128, ttylogin: false, urandom_seed: false });
  assert.match(read.headers.etag, /^"[0-9a-f]{16}"$/);
  const cached = await call({ method: 'GET', path: '/system', query: { if_none_match: read.headers.etag } });
  assert.is(cached.status, 304);
  assert.is(cached.body, '');
});

test('system: PATCH hostname and timezone writes them in place and reloads system, then log', async () => {
  const patched = await written({ method: 'PATCH', path: '/system', body: { hostname: 'edge-01', timezone: 'CET-1CEST,M3.5.0,M10.5.0/3' } }, ['system', 'log']);
  assert.equal(patched, { hostname: 'edge-01', timezone: 'CET-1CEST,M3.5.0,M10.5.0/3', log_size: 128, ttylogin: false, urandom_seed: false });
  assert.is(system(), STOCK.replace("'OpenWrt'", "'edge-01'").replace("timezone 'UTC'", "timezone 'CET-1CEST,M3.5.0,M10.5.0/3'"));
  assert.match(system(), /^\nconfig system\n/, 'the section stays anonymous');
  const read = await call({ method: 'GET', path: '/system' });
  assert.equal(read.json, patched);
  // Any printable text the kernel keeps (64 bytes) is a host name; LuCI-style zone names and remote logging.
  await written({ method: 'PATCH', path: '/system', body: { hostname: 'Routeur du salon é', zonename: 'Europe/Paris', conloglevel: 7 } }, ['system', 'log']);
  await written({ method: 'PATCH', path: '/system', body: { log_ip: 'logs.example.net', log_port: 6514, log_proto: 'tcp', log_trailer_null: true } }, ['system', 'log']);
  assert.equal(firstOfType('system'), {
    hostname: 'Routeur du salon é', timezone: 'CET-1CEST,M3.5.0,M10.5.0/3', ttylogin: '0', log_size: '128', urandom_seed: '0',
    zonename: 'Europe/Paris', conloglevel: '7', log_ip: 'logs.example.net', log_port: '6514', log_proto: 'tcp', log_trailer_null: '1',
  });
  await written({ method: 'PATCH', path: '/system', body: { log_ip: null, log_port: null, log_proto: null, log_trailer_null: null } }, ['system', 'log']);
  assert.not.ok(/log_(ip|port|proto|trailer)/.test(system()));
});

test('system: description and notes are the options LuCI writes; notes may span lines', async () => {
  const body = { description: 'Edge router, rack 2', notes: 'Uplink on port 4.\nCall ops before a reboot.' };
  const patched = await written({ method: 'PATCH', path: '/system', body }, ['system', 'log']);
  assert.equal([patched.description, patched.notes], [body.description, body.notes]);
  assert.is(system(), STOCK.replace("\toption urandom_seed '0'\n", "\toption urandom_seed '0'\n\toption description 'Edge router, rack 2'\n\toption notes 'Uplink on port 4.\nCall ops before a reboot.'\n"));
  assert.equal((await call({ method: 'GET', path: '/system' })).json, patched);
  await written({ method: 'PATCH', path: '/system', body: { description: null, notes: '' } }, ['system', 'log']);
  assert.is(system(), STOCK);
});

test('system: urandom_seed is true for a path /sbin/urandom_seed refreshes at every boot: true writes /etc/urandom.seed, a path set stays', async () => {
  const seeded = await written({ method: 'PATCH', path: '/system', body: { urandom_seed: true } }, ['system', 'log']);
  assert.is(seeded.urandom_seed, true);
  assert.is(firstOfType('system').urandom_seed, '/etc/urandom.seed');
  writeFileSync(router.path('/etc/config/system'), system().replace("'/etc/urandom.seed'", "'/mnt/usb/seed'"));
  assert.is(((await call({ method: 'GET', path: '/system' })).json as Body).urandom_seed, true);
  await written({ method: 'PATCH', path: '/system', body: { urandom_seed: true, hostname: 'edge' } }, ['system', 'log']);
  assert.is(firstOfType('system').urandom_seed, '/mnt/usb/seed', 'a path the value already means is kept');
  await written({ method: 'PATCH', path: '/system', body: { urandom_seed: false } }, ['system', 'log']);
  assert.is(firstOfType('system').urandom_seed, '0');
  // Anything but a path leaves only /etc/urandom.seed, written once: false, and kept as spelled.
  writeFileSync(router.path('/etc/config/system'), system().replace("urandom_seed '0'", "urandom_seed '512'"));
  const read = (await call({ method: 'GET', path: '/system' })).json as Body;
  assert.is(read.urandom_seed, false);
  await written({ method: 'PUT', path: '/system', body: read }, ['system', 'log']);
  assert.is(firstOfType('system').urandom_seed, '512');
});

test('system: invalid values are refused, every field named, nothing written', async () => {
  await refused({ method: 'PATCH', path: '/system', body: { hostname: '-edge', timezone: 'Europe/Berlin', zonename: '../etc/passwd' } }, 422, [
    'hostname:invalid_format', 'timezone:invalid_format', 'zonename:invalid_format',
  ]);
  await refused({ method: 'PATCH', path: '/system', body: { hostname: 'two\nlines' } }, 422, ['hostname:invalid_format']);
  // 33 characters, 66 bytes: the kernel would cut it.
  const long = await refused({ method: 'PATCH', path: '/system', body: { hostname: 'é'.repeat(33) } }, 422, ['hostname:out_of_range']);
  assert.match(long.errors[0].message, '64 bytes');
  await refused({ method: 'PATCH', path: '/system', body: { conloglevel: 9, log_size: -1, log_proto: 'tls', ttylogin: 'yes', colour: 'red' } }, 422, [
    'conloglevel:out_of_range', 'log_size:out_of_range', 'log_proto:not_in_enum', 'ttylogin:invalid_type', 'colour:unknown_field',
  ]);
  await refused({ method: 'PATCH', path: '/system', body: { log_port: 514, log_prefix: 'edge' } }, 422, ['log_port:conflict', 'log_prefix:conflict']);
  await refused({ method: 'PATCH', path: '/system', body: { log_ip: '192.0.2.10', log_trailer_null: true } }, 422, ['log_trailer_null:conflict']);
  await refused({ method: 'PATCH', path: '/system', body: { urandom_seed: '/etc/urandom.seed', log_file: 'tmp/log' } }, 422, ['urandom_seed:invalid_type', 'log_file:invalid_format']);
  await refused({ method: 'PATCH', path: '/system', body: { description: 7, notes: ['a'] } }, 422, ['description:invalid_type', 'notes:invalid_type']);
  await refused({ method: 'PUT', path: '/system', body: { hostname: 'x', id: 'cfg01e48a' } }, 422, ['id:unknown_field']);
  await refused({ method: 'PATCH', path: '/system', body: '[]' }, 400, 'bad_request');
});

test('system: a section LuCI saved (log_proto without log_ip, zone name, log levels) reads whole and takes a PATCH', async () => {
  writeFileSync(router.path('/etc/config/system'), LUCI_SAVED);
  const read = (await call({ method: 'GET', path: '/system' })).json as Body;
  assert.equal(read, {
    hostname: 'OpenWrt', timezone: 'UTC', zonename: 'UTC', conloglevel: 8, cronloglevel: 7, log_size: 128, log_proto: 'udp', ttylogin: false, urandom_seed: false,
  });
  await written({ method: 'PATCH', path: '/system', body: { hostname: 'edge' } }, ['system', 'log']);
  assert.is(system(), LUCI_SAVED.replace("'OpenWrt'", "'edge'"), 'one option changed; compat_version, which no field models, kept');
  const sweep = (await call({ method: 'GET', path: '/diagnostics?validate=1' })).json as Body;
  assert.equal(sweep.invalid_sections, []);
});

test('system/timeservers: the collection holds only ntp; any other id is refused on create, and none names ntp, taken here', async () => {
  const list = await call({ method: 'GET', path: '/system/timeservers' });
  assert.is(list.status, 200, list.body);
  assert.equal(list.json, [{ id: 'ntp', managed: true, enabled: true, server: STOCK_SERVERS, dhcp_interfaces: [], enable_server: false }]);
  const one = await call({ method: 'GET', path: '/system/timeservers/ntp' });
  assert.equal(one.json, (list.json as Body[])[0]);
  assert.match(one.headers.etag, /^"[0-9a-f]{16}"$/);
  const other = await refused({ method: 'POST', path: '/system/timeservers', body: { id: 'pool', server: ['time.example.com'] } }, 422, ['id:not_in_enum']);
  assert.match(other.errors[0].message, 'ntp');
  for (const body of [{ server: ['time.example.com'] }, { id: 'ntp', server: ['time.example.com'] }]) {
    const taken = await refused({ method: 'POST', path: '/system/timeservers', body }, 409, 'conflict');
    assert.match(taken.message, 'ntp');
  }
  await refused({ method: 'POST', path: '/system/timeservers', body: { server: ['time example com'] } }, 422, ['server[0]:invalid_format']);
  await refused({ method: 'POST', path: '/system/timeservers', body: { servers: ['time.example.com'] } }, 422, ['servers:unknown_field']);
  assert.is((await call({ method: 'GET', path: '/system/timeservers/pool' })).status, 404);
});

test('system/timeservers: PATCH ntp servers writes the list in place and reloads sysntpd', async () => {
  const servers = ['time.example.com', '192.0.2.123', '2001:db8::123'];
  const patched = await written({ method: 'PATCH', path: '/system/timeservers/ntp', body: { server: servers } }, ['sysntpd']);
  assert.equal(patched.server, servers);
  const lines = (items: string[]) => items.map((server) => `\tlist server '${server}'\n`).join('');
  assert.is(system(), STOCK.replace(lines(STOCK_SERVERS), lines(servers)));
  await refused({ method: 'PATCH', path: '/system/timeservers/ntp', body: { server: ['time example com'], enabled: 'on' } }, 422, ['server[0]:invalid_format', 'enabled:invalid_type']);
  await refused({ method: 'PATCH', path: '/system/timeservers/ntp', body: { interface: 'lan' } }, 422, ['interface:conflict']);
  await refused({ method: 'PATCH', path: '/system/timeservers/ntp', body: { use_dhcp: false, dhcp_interfaces: ['wan'] } }, 422, ['dhcp_interfaces:conflict']);
  const serving = await written({ method: 'PATCH', path: '/system/timeservers/ntp', body: { enable_server: true, interface: 'lan' } }, ['sysntpd']);
  assert.equal([serving.enable_server, serving.interface], [true, 'lan']);
  assert.equal(firstOfType('timeserver'), { enabled: '1', enable_server: '1', server: servers, interface: 'lan' });
});

test('system/timeservers: once deleted, ntp is created again under its fixed id, named or not', async () => {
  for (const id of [{ id: 'ntp' }, {}]) {
    await written({ method: 'DELETE', path: '/system/timeservers/ntp' }, ['sysntpd']);
    assert.equal((await call({ method: 'GET', path: '/system/timeservers' })).json, []);
    assert.not.match(system(), 'timeserver');
    const created = await written({ method: 'POST', path: '/system/timeservers', body: { ...id, server: ['time.example.com'] } }, ['sysntpd']);
    assert.equal(created, { id: 'ntp', managed: true, server: ['time.example.com'], dhcp_interfaces: [] });
    assert.match(system(), /\nconfig timeserver 'ntp'\n\tlist server 'time\.example\.com'\n\n$/, 'appended as uci commit writes it');
  }
});

test('system/timeservers: an anonymous timeserver is adopted as ntp, the one sysntpd reads, and only while ntp is free', async () => {
  writeFileSync(router.path('/etc/config/system'), system() + "\nconfig timeserver\n\toption enabled '0'\n");
  const [, anonymous] = (await call({ method: 'GET', path: '/system/timeservers' })).json as { id: string }[];
  await refused({ method: 'POST', path: `/system/timeservers/${anonymous.id}/adopt` }, 409, 'conflict');
  await written({ method: 'DELETE', path: '/system/timeservers/ntp' }, ['sysntpd']);
  const [left] = (await call({ method: 'GET', path: '/system/timeservers' })).json as { id: string }[];
  const adopted = await written({ method: 'POST', path: `/system/timeservers/${left.id}/adopt` }, ['sysntpd']);
  assert.is(adopted.id, 'ntp');
  assert.match(system(), "\nconfig timeserver 'ntp'\n\toption enabled '0'\n");
});

test('scopes: system:timeservers:rw writes the time servers but not the system section, which needs system:rw', async () => {
  const timeOnly = `Bearer ${await router.mint('ntp_admin', ['system:timeservers:rw'])}`;
  const denied = await refused({ method: 'PATCH', path: '/system', headers: { authorization: timeOnly }, body: { hostname: 'edge' } }, 403, 'insufficient_scope');
  assert.is(denied.code, 'insufficient_scope');
  await written({ method: 'PATCH', path: '/system/timeservers/ntp', headers: { authorization: timeOnly }, body: { enabled: false } }, ['sysntpd']);
  const domain = `Bearer ${await router.mint('system_admin', ['system:rw'])}`;
  await written({ method: 'PATCH', path: '/system', headers: { authorization: domain }, body: { hostname: 'edge' } }, ['system', 'log']);
  await refused({ method: 'PATCH', path: '/dhcp/odhcpd', headers: { authorization: domain }, body: { loglevel: 5 } }, 403, 'insufficient_scope');
});

test.run();
