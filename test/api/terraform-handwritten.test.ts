// uapi's Terraform provider 2.3.0 (3.0 on /api/v3) for its hand-written resources and data sources,
// replayed as their Go code drives them (internal/provider/<name>.go): the paths, the bodies, the id
// each keys on, and the members each read() decodes with which helper (helpers.go strVal, boolVal,
// int64Val, listVal: a member of another JSON type decodes as null or as its %v text, a diff to
// Terraform). Checked besides: the files on disk and the package managers' call logs.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Json, JsonObject } from '../../src/resources/model.js';
import { newRouter, type Response, type Router } from '../support/router.js';
import { idOf, sshKey } from '../support/ssh-keys.js';

type Helper = 'str' | 'bool' | 'int' | 'list';
type State = Record<string, Json>;

let router: Router;
let authorization: string;

test.after.each(async () => {
  await router.cleanup();
});

async function setup(packageManager: 'opkg' | 'apk' = 'opkg') {
  router = await newRouter({ packageManager });
  authorization = `Bearer ${await router.mint('terraform', ['*:rw'])}`;
}

/** internal/client/client.go: a Bearer, JSON, an Idempotency-Key of 32 hex digits on every POST; any 2xx is success. */
async function send(method: string, path: string, body?: JsonObject, bearer = authorization): Promise<Response> {
  const key: Record<string, string> = method === 'POST' ? { 'Idempotency-Key': createHash('md5').update(`${path}${Math.random()}`).digest('hex') } : {};
  return router.request({ method, path, body, headers: { Authorization: bearer, Accept: 'application/json', ...key } });
}

function ok(response: Response, what: string): JsonObject {
  assert.ok(response.status >= 200 && response.status < 300, `${what}: ${response.status} ${response.body}`);
  return (response.json ?? {}) as JsonObject;
}

/** GetObject: found on 2xx, gone on 404, an error otherwise. */
async function getObject(path: string): Promise<JsonObject | undefined> {
  const response = await send('GET', path);
  if (response.status === 404) return undefined;
  return ok(response, `GET ${path}`);
}

/** Client.Delete: a 404 counts as success. */
async function destroy(path: string): Promise<void> {
  const response = await send('DELETE', path);
  assert.ok(response.status === 404 || (response.status >= 200 && response.status < 300), `DELETE ${path}: ${response.status} ${response.body}`);
}

/** read(): each member through its helper; a member of another JSON type is a diff, so it fails here. */
function decode(object: JsonObject, members: Record<string, Helper>, what: string): State {
  const state: State = {};
  for (const [name, helper] of Object.entries(members)) {
    const value = object[name];
    const type = value === undefined || value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;
    const expected = { str: 'string', bool: 'boolean', int: 'number', list: 'list' }[helper];
    assert.ok(type === 'null' || type === expected, `${what}: ${name} reads ${JSON.stringify(value)}, where the provider decodes a ${expected}`);
    if (helper === 'int') assert.ok(type === 'null' || Number.isInteger(value), `${what}: ${name} is no integer`);
    if (helper === 'list') assert.ok(((value ?? []) as Json[]).every((item) => typeof item === 'string'), `${what}: ${name} holds a non-string`);
    state[name] = helper === 'list' ? (value ?? []) : (value ?? null);
  }
  return state;
}

const file = (path: string) => (existsSync(router.path(path)) ? readFileSync(router.path(path), 'utf8') : undefined);
const calls = (tool: string) => (file(`/var/log/${tool}.log`) ?? '').split('\n').filter(Boolean);

// authorized_key_resource.go, authorized_key_data_source.go
const KEY_READ: Record<string, Helper> = { id: 'str', type: 'str', comment: 'str' };

test('uapi_authorized_key: create with the whole line in key, refresh, import, data source, destroy', async () => {
  await setup();
  const blob = sshKey('ssh-ed25519');
  // The configuration: `key = file("~/.ssh/id_ed25519.pub")`, its line end included.
  const config = `ssh-ed25519 ${blob} alice@laptop\n`;
  const created = decode(ok(await send('POST', '/system/authorized_keys', { key: config }), 'create'), KEY_READ, 'create');
  assert.equal(created, { id: idOf(blob), type: 'ssh-ed25519', comment: 'alice@laptop' });
  assert.is(file('/etc/dropbear/authorized_keys'), `ssh-ed25519 ${blob} alice@laptop\n`);
  const path = `/system/authorized_keys/${created.id}`;
  // Read, and import (ImportStatePassthroughID, then Read): the same state.
  assert.equal(decode((await getObject(path))!, KEY_READ, 'refresh'), created);
  // Update makes no call: key forces replacement. Another key without a comment: comment reads null both ways.
  const other = sshKey('ssh-rsa');
  const second = decode(ok(await send('POST', '/system/authorized_keys', { key: `ssh-rsa ${other}` }), 'create'), KEY_READ, 'create');
  assert.equal(second, { id: idOf(other), type: 'ssh-rsa', comment: null });
  assert.equal(decode((await getObject(`/system/authorized_keys/${second.id}`))!, KEY_READ, 'data source'), second);
  await destroy(path);
  assert.is(await getObject(path), undefined, 'gone: Read drops it from state');
  await destroy(path);
  assert.is(file('/etc/dropbear/authorized_keys'), `ssh-rsa ${other}\n`);
});

// package_resource.go, package_data_source.go
const PACKAGE_READ: Record<string, Helper> = { id: 'str', managed: 'bool', name: 'str', version: 'str', installed: 'bool' };

for (const tool of ['opkg', 'apk'] as const) {
  test(`uapi_package (${tool}): create (a GET for pre_existed, then POST {name}), refresh, data source, destroy; a pre-existing package is never removed`, async () => {
    await setup(tool);
    const add = tool === 'opkg' ? 'install' : 'add';
    // Create: GET /packages/installed/<name> first; 404 means Terraform installs it, and destroy removes it.
    const preExisted = (await getObject('/packages/installed/snmpd')) !== undefined;
    assert.is(preExisted, false);
    const created = decode(ok(await send('POST', '/packages/installed', { name: 'snmpd' }), 'create'), PACKAGE_READ, 'create');
    assert.equal({ ...created, version: typeof created.version }, { id: 'snmpd', managed: true, name: 'snmpd', version: 'string', installed: true });
    assert.ok(existsSync(router.path('/etc/init.d/snmpd')));
    // Read and the data source key on id, which must be the path of the record.
    const path = `/packages/installed/${created.id}`;
    assert.equal(decode((await getObject(path))!, PACKAGE_READ, 'refresh'), created);
    await destroy(path);
    assert.is(await getObject(path), undefined);
    assert.not.ok(existsSync(router.path('/etc/init.d/snmpd')));
    assert.equal(calls(tool).filter((line) => line !== 'update'), [`${add} snmpd`, `${tool === 'opkg' ? 'remove' : 'del'} snmpd`]);

    // A package the router has: pre_existed, the POST answers its record and runs nothing, destroy makes no call.
    const before = calls(tool).length;
    assert.ok(await getObject('/packages/installed/dnsmasq'));
    const stock = decode(ok(await send('POST', '/packages/installed', { name: 'dnsmasq' }), 'create'), PACKAGE_READ, 'create');
    assert.equal([stock.id, stock.installed, stock.managed], ['dnsmasq', true, true]);
    assert.equal(decode((await getObject('/packages/installed/dnsmasq'))!, PACKAGE_READ, 'refresh'), stock);
    assert.is(calls(tool).length, before, 'nothing ran');
  });

  // package_feed_resource.go, package_feed_data_source.go
  test(`uapi_package_feed (${tool}): create, refresh, data source, destroy, in the custom feeds file`, async () => {
    await setup(tool);
    const FEED_READ: Record<string, Helper> = { id: 'str', managed: 'bool', name: 'str', url: 'str', filename: 'str', enabled: 'bool', update_status: 'str' };
    const feeds = tool === 'opkg' ? '/etc/opkg/customfeeds.conf' : '/etc/apk/repositories.d/customfeeds.list';
    const stock = file(feeds)!;
    const url = tool === 'opkg' ? 'https://feeds.example.org/custom/x86_64' : 'https://feeds.example.org/custom/x86_64/packages.adb';
    const created = decode(ok(await send('POST', '/packages/feeds', { name: 'custom', url }), 'create'), FEED_READ, 'create');
    assert.equal(created, { id: 'custom', managed: true, name: 'custom', url, filename: feeds, enabled: true, update_status: tool === 'opkg' ? 'ok' : null });
    assert.is(file(feeds), stock + (tool === 'opkg' ? `src/gz custom ${url}\n` : `# wrtapi-feed: custom\n${url}\n`));
    assert.equal(calls(tool), ['update']);
    const path = `/packages/feeds/${created.id}`;
    assert.equal(decode((await getObject(path))!, FEED_READ, 'refresh'), created);
    await destroy(path);
    assert.is(await getObject(path), undefined);
    assert.is(file(feeds), stock);
    assert.equal(calls(tool), ['update']);
  });
}

// system_password_resource.go: Create and Update POST {user, password}; Read and Delete make no call.
test('uapi_system_password: create and update POST the password; the answer is not read', async () => {
  await setup();
  for (const password of ['first password 1', 'second password 2']) {
    ok(await send('POST', '/system/password', { user: 'root', password }), 'set');
    assert.match(file('/etc/shadow')!, `root:$5$emu$${createHash('sha256').update(password).digest('hex')}:`);
  }
  assert.equal(file('/var/log/passwd.log'), 'passwd root\npasswd root\n');
});

// token_ephemeral.go: Open POSTs the token, keeps name and bearer; Close DELETEs /tokens/<name>.
test('uapi_token: open mints a token that works, close revokes it', async () => {
  await setup();
  const opened = ok(await send('POST', '/tokens', { name: 'tf_run', scopes: ['firewall:rw'], expires_in_seconds: 600, allowed_cidrs: ['192.168.1.0/24'], rate: 5, burst: 10 }), 'open');
  const state = decode(opened, { name: 'str', bearer: 'str' }, 'open');
  assert.is(state.name, 'tf_run');
  const bearer = `Bearer ${state.bearer}`;
  assert.is((await send('GET', '/firewall/zones', undefined, bearer)).status, 200);
  assert.match(file('/etc/config/wrtapi')!, /config token 'tf_run'\n/);
  await destroy(`/tokens/${state.name}`);
  assert.is((await send('GET', '/firewall/zones', undefined, bearer)).status, 401);
  assert.not.match(file('/etc/config/wrtapi')!, /tf_run/);
});

// whoami_data_source.go: expires_at and last_used_at through int64Val.
test('data uapi_whoami: times are epoch integers', async () => {
  await setup();
  const bearer = `Bearer ${await router.mint('ci', ['firewall:ro'], ['--expires-in', '1h'])}`;
  const members: Record<string, Helper> = { token_id: 'str', scopes: 'list', source_ip: 'str', expires_at: 'int', allowed_cidrs: 'list', last_used_at: 'int', last_used_ip: 'str' };
  const first = decode(ok(await send('GET', '/auth/whoami', undefined, bearer), 'whoami'), members, 'whoami');
  assert.equal({ ...first, expires_at: typeof first.expires_at }, {
    token_id: 'ci', scopes: ['firewall:ro'], source_ip: '192.168.1.100', expires_at: 'number', allowed_cidrs: [], last_used_at: null, last_used_ip: null,
  });
  assert.ok(Math.abs((first.expires_at as number) - (Date.now() / 1000 + 3600)) < 120);
  const second = decode(ok(await send('GET', '/auth/whoami', undefined, bearer), 'whoami'), members, 'whoami');
  assert.ok(Math.abs((second.last_used_at as number) - Date.now() / 1000) < 120, String(second.last_used_at));
  assert.is(second.last_used_ip, '192.168.1.100');
});

// diagnostics_data_source.go: recent_errors[].ts and .status through int64Val, lock_state's per_package keys.
test('data uapi_diagnostics and uapi_healthz: every member decodes with the provider\'s helper', async () => {
  await setup();
  assert.is((await send('GET', '/nowhere')).status, 404);
  const body = ok(await send('GET', '/diagnostics'), 'diagnostics');
  decode(body, { version: 'str', uptime_seconds: 'int', resources_loaded: 'list', request_id: 'str' }, 'diagnostics');
  const locks = body.lock_state as JsonObject;
  decode(locks, { global_held: 'bool' }, 'lock_state');
  assert.ok(Object.keys(locks.per_package as JsonObject).length > 0);
  const errors = body.recent_errors as JsonObject[];
  assert.ok(errors.length > 0);
  for (const entry of errors) decode(entry, { ts: 'int', request_id: 'str', code: 'str', status: 'int', method: 'str', path: 'str', message: 'str' }, 'recent_errors[]');
  const last = errors[errors.length - 1];
  assert.equal([last.path, last.status, typeof last.ts], ['/nowhere', 404, 'number']);
  assert.ok(Math.abs((last.ts as number) - Date.now() / 1000) < 120);
  const health = await router.request({ method: 'GET', path: '/healthz' });
  const healthz = decode(ok(health, 'healthz'), { status: 'str', version: 'str', errors: 'list' }, 'healthz');
  assert.is(healthz.status, 'ok');
  decode((health.json as JsonObject).checks as JsonObject, { ubus: 'str', uci: 'str', lock_dir: 'str', time_sync: 'str' }, 'checks');
});

test.run();
