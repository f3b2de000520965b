// The global lock with real writers running at once (spec: Non-configuration resources): while a
// package install, a feed update, a password change or an authorized-keys write runs, every
// configuration write answers 423; while a configuration write runs, those writers answer 423.
// The slow part is a stand-in made slow (opkg, apk, passwd, an init script's reload), so the
// second request arrives while the first is really inside its lock.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sshKey } from '../support/ssh-keys.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

const RULE = { name: 'Allow-SSH', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['22'] } };
const KEY = { type: 'ssh-ed25519', key: sshKey('ssh-ed25519') };

let router: Router;
let auth: Record<string, string>;
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const read = (path: string) => (existsSync(router.path(path)) ? readFileSync(router.path(path), 'utf8') : '');

async function setup(packageManager: 'opkg' | 'apk' = 'opkg') {
  router = await newRouter({ packageManager });
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
}
test.after.each(async () => {
  await router.cleanup();
});

/**
 * Makes the stand-in at `routerPath` record that it started (var/emu/started) and sleep before
 * doing its work, so a request that runs it stays inside its lock for that long.
 */
function slow(routerPath: string, seconds = 3) {
  const real = router.path(routerPath);
  renameSync(real, `${real}.real`);
  writeFileSync(real, `#!/bin/sh\ntouch "$WRTAPI_ROOT/var/emu/started"\nsleep ${seconds}\nexec "$0.real" "$@"\n`, { mode: 0o755 });
}

/**
 * Starts the slow request and resolves once its stand-in runs, with its answer still to come (in an
 * object: an async function that returned the promise itself would wait for it).
 */
async function whileRunning(request: RequestOptions): Promise<{ answer: Promise<Response> }> {
  const answer = call(request);
  const deadline = Date.now() + 20000;
  while (!existsSync(router.path('/var/emu/started'))) {
    if (Date.now() > deadline) throw new Error(`${request.method} ${request.path} never reached its stand-in: ${(await answer).body}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { answer };
}

function assertLocked(response: Response, label: string) {
  assert.is(response.status, 423, `${label}: ${response.body}`);
  assert.is(response.headers['retry-after'], '1', label);
  assert.is((response.json as Body).code, 'locked');
  assert.match((response.json as Body).message, '/var/lock/wrtapi.global.lock', label);
}

/** Configuration writes sent while a non-configuration writer runs: each 423, no file changed, nothing reloaded. */
async function configurationWritesLocked() {
  const before = router.snapshot('/etc/config');
  const reloads = read('/var/log/init.log');
  assertLocked(await call({ method: 'POST', path: '/firewall/rules', body: RULE }), 'POST /firewall/rules');
  assertLocked(await call({ method: 'PATCH', path: '/system', body: { hostname: 'locked-out' } }), 'PATCH /system');
  assert.equal(router.snapshot('/etc/config'), before);
  assert.is(read('/var/log/init.log'), reloads, 'nothing was reloaded');
}

test('a configuration write is 423 while opkg installs, and goes through once the install is done', async () => {
  await setup('opkg');
  slow('/bin/opkg');
  const { answer: install } = await whileRunning({ method: 'POST', path: '/packages/installed', body: { name: 'mwan3' } });
  await configurationWritesLocked();
  assert.is((await install).status, 201, (await install).body);
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: RULE })).status, 200);
});

test('a configuration write is 423 while apk removes a package', async () => {
  await setup('apk');
  slow('/usr/bin/apk');
  const { answer: removal } = await whileRunning({ method: 'DELETE', path: '/packages/installed/luci' });
  await configurationWritesLocked();
  assert.is((await removal).status, 204, (await removal).body);
});

test('a configuration write is 423 while passwd changes a password', async () => {
  await setup();
  slow('/bin/passwd');
  const { answer: change } = await whileRunning({ method: 'POST', path: '/system/password', body: { user: 'root', password: 'a new one' } });
  await configurationWritesLocked();
  assert.is((await change).status, 204, (await change).body);
});

test('the non-configuration writers are 423 while a configuration write reloads, and start no process', async () => {
  await setup();
  slow('/etc/init.d/firewall');
  const { answer: write } = await whileRunning({ method: 'POST', path: '/firewall/rules', body: RULE });
  const shadow = read('/etc/shadow');
  assertLocked(await call({ method: 'POST', path: '/packages/installed', body: { name: 'mwan3' } }), 'install');
  assertLocked(await call({ method: 'POST', path: '/packages/feeds', body: { name: 'mine', url: 'https://feeds.example.org/mine' } }), 'feed');
  assertLocked(await call({ method: 'POST', path: '/system/password', body: { user: 'root', password: 'a new one' } }), 'password');
  assertLocked(await call({ method: 'POST', path: '/system/authorized_keys', body: KEY }), 'authorized key');
  assert.is(read('/var/log/opkg.log'), '', 'opkg never ran');
  assert.is(read('/var/log/passwd.log'), '', 'passwd never ran');
  assert.is(read('/etc/shadow'), shadow);
  assert.is(read('/etc/dropbear/authorized_keys'), '');
  assert.is((await write).status, 200, (await write).body);
  assert.is((await call({ method: 'POST', path: '/system/password', body: { user: 'root', password: 'a new one' } })).status, 204);
});

test.run();
