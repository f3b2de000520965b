// dropbear/instances through the CGI path: what each write puts in /etc/config/dropbear, that it
// reloads dropbear, that a refused write changes no file and reloads nothing, the missing init
// script, and the round trip of the stock file and of the file as the dropbear package ships it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/dropbear', import.meta.url), 'utf8');
// The file as the dropbear package of OpenWrt 24.10.2 ships it (files/dropbear.config).
const SHIPPED = readFileSync(new URL('../../../../test/fixtures/uci/upstream/dropbear', import.meta.url), 'utf8');
const MAIN = { id: 'main', managed: true, enable: true, password_auth: true, root_password_auth: true, port: 22, keyfile: [] };

let router: Router;
let authorization: string;
const { call, refused, initLog, ...checks } = writeChecks(() => ({ router, authorization }));
const written = (request: RequestOptions) => checks.written(request, ['dropbear']);
const dropbear = () => readFileSync(router.path('/etc/config/dropbear'), 'utf8');

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

test('GET reads the stock instance; POST, PATCH, PUT and DELETE write the CamelCase options dropbear.init reads', async () => {
  assert.equal((await call({ method: 'GET', path: '/dropbear/instances' })).json, [MAIN]);
  writeFileSync(router.path('/etc/banner'), 'welcome\n');
  const lan = await written({
    method: 'POST',
    path: '/dropbear/instances',
    body: { id: 'lan_ssh', port: 2222, interface: 'lan', password_auth: false, root_login: true, idle_timeout: 600, banner_file: '/etc/banner', mdns: false },
  });
  assert.equal(lan, {
    id: 'lan_ssh', managed: true, port: 2222, interface: 'lan', password_auth: false, root_login: true, keyfile: [], banner_file: '/etc/banner', idle_timeout: 600, mdns: false,
  });
  assert.is(
    dropbear(),
    `${STOCK}config dropbear 'lan_ssh'\n\toption Port '2222'\n\toption Interface 'lan'\n\toption PasswordAuth '0'\n\toption RootLogin '1'\n` +
      "\toption BannerFile '/etc/banner'\n\toption IdleTimeout '600'\n\toption mdns '0'\n\n",
  );
  const read = await call({ method: 'GET', path: '/dropbear/instances/lan_ssh' });
  assert.equal(read.json, lan);
  assert.match(read.headers.etag, /^"[0-9a-f]{16}"$/);
  // Interface holds the interfaces as the init script splits them: one option, separated by spaces.
  const patched = await written({ method: 'PATCH', path: '/dropbear/instances/lan_ssh', body: { interface: ' lan  wan', banner_file: null, max_auth_tries: 5 } });
  assert.is(patched.interface, 'lan wan');
  assert.is(
    dropbear(),
    `${STOCK}config dropbear 'lan_ssh'\n\toption Port '2222'\n\toption Interface 'lan wan'\n\toption PasswordAuth '0'\n\toption RootLogin '1'\n` +
      "\toption IdleTimeout '600'\n\toption mdns '0'\n\toption MaxAuthTries '5'\n\n",
  );
  await written({ method: 'PUT', path: '/dropbear/instances/lan_ssh', body: { port: 2222, direct_interface: 'lan', enable: false } });
  // Port keeps its place; the options the PUT adds come last.
  assert.is(dropbear(), `${STOCK}config dropbear 'lan_ssh'\n\toption Port '2222'\n\toption enable '0'\n\toption DirectInterface 'lan'\n\n`);
  await written({ method: 'DELETE', path: '/dropbear/instances/lan_ssh' });
  assert.is(dropbear(), STOCK);
  assert.equal(initLog(), ['dropbear reload', 'dropbear reload', 'dropbear reload', 'dropbear reload']);
});

test('values validate_data or dropbear refuse, missing files, unknown interfaces and a second server on a port are a 422 that changes nothing', async () => {
  await refused({ method: 'POST', path: '/dropbear/instances', body: { port: 65536, idle_timeout: -1, max_auth_tries: 4294967296 } }, 422, [
    'idle_timeout:out_of_range', 'max_auth_tries:out_of_range', 'port:out_of_range',
  ]);
  await refused({ method: 'POST', path: '/dropbear/instances', body: { port: 2222, password_auth: 'no', keyfile: '/etc/dropbear/key', interface: ['lan'], enabled: true } }, 422, [
    'enabled:unknown_field', 'interface:invalid_type', 'keyfile:invalid_type', 'password_auth:invalid_type',
  ]);
  await refused({ method: 'POST', path: '/dropbear/instances', body: { port: 2222, interface: 'lan,wan' } }, 422, ['interface:conflict', 'interface:invalid_format']);
  const missing = await refused({ method: 'POST', path: '/dropbear/instances', body: { port: 2222, banner_file: '/etc/motd', keyfile: ['/etc/dropbear/nokey'] } }, 422, [
    'banner_file:conflict', 'keyfile[0]:conflict',
  ]);
  assert.match(missing.errors.map((error: Body) => error.message).join(' '), /\/etc\/motd does not exist/);
  const unknown = await refused({ method: 'POST', path: '/dropbear/instances', body: { port: 2222, interface: 'lan nosuch', direct_interface: 'guest' } }, 422, [
    'direct_interface:conflict', 'interface:conflict',
  ]);
  assert.match(unknown.errors.map((error: Body) => error.message).join(' '), 'interface: no network interface named nosuch');
  const clash = await refused({ method: 'POST', path: '/dropbear/instances', body: { id: 'second' } }, 422, ['port:conflict']);
  assert.match(clash.errors[0].message, 'instance main already listens on port 22');
  await refused({ method: 'POST', path: '/dropbear/instances', body: { port: 22, interface: 'lan' } }, 422, ['port:conflict']);
  await refused({ method: 'POST', path: '/dropbear/instances', body: { id: 'main', port: 2222 } }, 409, 'conflict');
  // Bound to an interface each, or disabled, two servers may share a port.
  await written({ method: 'PATCH', path: '/dropbear/instances/main', body: { interface: 'lan' } });
  await written({ method: 'POST', path: '/dropbear/instances', body: { id: 'wan_ssh', direct_interface: 'wan' } });
  await written({ method: 'POST', path: '/dropbear/instances', body: { id: 'spare', enable: false } });
  // Bound to the same interface, they cannot.
  await refused({ method: 'POST', path: '/dropbear/instances', body: { id: 'lan_too', interface: 'wan lan' } }, 422, ['port:conflict']);
  await refused({ method: 'POST', path: '/dropbear/instances', body: { id: 'wan_too', interface: 'wan' } }, 422, ['port:conflict']);
});

test('an interface named by an instance cannot be deleted', async () => {
  await written({ method: 'POST', path: '/dropbear/instances', body: { id: 'wan_ssh', port: 2222, interface: 'wan6 wan' } });
  const network = await call({ method: 'DELETE', path: '/network/interfaces/wan' });
  assert.is(network.status, 409, network.body);
  assert.match((network.json as Body).message, 'dropbear/instances/wan_ssh (interface: wan)');
});

test('Interface as a UCI list reads as one string of its items, which a PUT of the read keeps as the list', async () => {
  writeFileSync(router.path('/etc/config/dropbear'), `${STOCK}config dropbear 'multi'\n\tlist Interface 'lan'\n\tlist Interface 'wan'\n\toption Port '2222'\n`);
  const read = (await call({ method: 'GET', path: '/dropbear/instances/multi' })).json as Body;
  assert.equal(read, { id: 'multi', managed: true, interface: 'lan wan', port: 2222, keyfile: [] });
  await written({ method: 'PUT', path: '/dropbear/instances/multi', body: read });
  assert.match(dropbear(), "config dropbear 'multi'\n\tlist Interface 'lan'\n\tlist Interface 'wan'\n\toption Port '2222'\n");
  await written({ method: 'PATCH', path: '/dropbear/instances/multi', body: { interface: 'lan' } });
  assert.match(dropbear(), "config dropbear 'multi'\n\toption Interface 'lan'\n\toption Port '2222'\n");
});

test('a write while another process holds the dropbear lock is a 423 that changes nothing', async () => {
  router.lock('/var/lock/wrtapi.dropbear.lock');
  const locked = await refused({ method: 'PATCH', path: '/dropbear/instances/main', body: { port: 2222 } }, 423, 'locked');
  assert.match(locked.message, '/var/lock/wrtapi.dropbear.lock');
});

test('without /etc/init.d/dropbear a write is 503 init_script_missing and changes nothing; reads still answer', async () => {
  rmSync(router.path('/etc/init.d/dropbear'));
  const body = await refused({ method: 'PATCH', path: '/dropbear/instances/main', body: { port: 2222 } }, 503, 'init_script_missing');
  assert.match(body.message, '/etc/init.d/dropbear');
  assert.equal((await call({ method: 'GET', path: '/dropbear/instances/main' })).json, MAIN);
});

test('round trip: the stock file and the file as the package ships it read and PUT back option for option; a spelling dropbear.init cannot read is kept', async () => {
  for (const text of [STOCK, SHIPPED, SHIPPED.replace("'on'", "'ON'")]) {
    writeFileSync(router.path('/etc/config/dropbear'), text);
    const list = (await call({ method: 'GET', path: '/dropbear/instances' })).json as Body[];
    assert.is(list.length, 1);
    const put = await written({ method: 'PUT', path: '/dropbear/instances/main', body: list[0] });
    assert.equal(put, list[0]);
    // A value the stored spelling already means keeps it: every option comes back as it was, in its place.
    const options = (uci: string) => [...parseUci(uci).sections[0].options];
    assert.equal(options(dropbear()), options(text));
  }
  const sweep = await call({ method: 'GET', path: '/diagnostics?validate=1' });
  assert.equal((sweep.json as Body).invalid_sections.filter((section: Body) => section.resource === 'dropbear:instances'), [
    { resource: 'dropbear:instances', id: 'main', managed: true, errors: [{ field: 'password_auth', code: 'unreadable', message: 'password_auth: the stored value cannot be read as this field' }] },
  ]);
});

test.run();
