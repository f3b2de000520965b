import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

let router: Router;
let auth: Record<string, string>;
const network = () => readFileSync(router.path('/etc/config/network'), 'utf8');
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();
const logOf = (name: string) => (existsSync(router.path(`/var/log/${name}`)) ? readFileSync(router.path(`/var/log/${name}`), 'utf8').split('\n').filter(Boolean) : []);


const INTERFACE_KEY = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';
const PEER_KEY = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';
const NEW_PEER_KEY = 'TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=';
const PRESHARED = 'FpCyhws9cxwWoV4xELtfJvjJN+zQVRPISllRWgeopVE=';

/**
 * wg0 otherwise than up, which the emulator derives from the configuration: down, or up to netifd
 * while its kernel device is gone (its status pinned, the device marked down).
 */
function wg0(state: 'down' | 'gone') {
  writeFileSync(router.path('/var/emu/netifd/wg0.down'), '');
  if (state === 'gone') {
    mkdirSync(router.path('/var/emu/ubus/network.interface.wg0'), { recursive: true });
    writeFileSync(router.path('/var/emu/ubus/network.interface.wg0/status.json'), JSON.stringify({ up: true, l3_device: 'wg0', proto: 'wireguard' }));
  }
}

const PEER = { interface: 'wg0', public_key: PEER_KEY, preshared_key: PRESHARED, allowed_ips: ['10.9.0.2/32', '10.10.0.0/24'], route_allowed_ips: true, endpoint_host: 'vpn.example.net', endpoint_port: 51821 };

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
  const created = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'wg0', proto: 'wireguard', private_key: INTERFACE_KEY, addresses: ['10.9.0.1/24'] } });
  assert.is(created.status, 200, created.body);
});
test.after.each(async () => {
  // No key of the test may reach an answer's log line, a stand-in's log or a state file.
  const written = router.texts('/var/log', '/tmp', '/var/lock');
  for (const key of [INTERFACE_KEY, PRESHARED]) assert.not.ok(written.includes(key), 'a secret key leaked');
  await router.cleanup();
});

test('a peer lives in a wireguard_<interface> section; a down interface is skipped, not a failure', async () => {
  wg0('down');
  const response = await call({ method: 'POST', path: '/network/wireguard_peers', body: { id: 'laptop', ...PEER } });
  assert.is(response.status, 200, response.body);
  const body = response.json as Body;
  assert.equal([body.interface, body.has_preshared_key, body.preshared_key], ['wg0', true, undefined]);
  assert.not.ok(response.body.includes(PRESHARED));
  const section = parseUci(network()).sections.find((candidate) => candidate.name === 'laptop')!;
  assert.is(section.type, 'wireguard_wg0');
  assert.is(section.options.get('interface'), undefined, 'the interface is the section type, not an option');
  assert.is(section.options.get('preshared_key'), PRESHARED);
  assert.is(response.headers['x-kernel-status'], 'skipped');
  assert.is(response.headers['x-kernel-applied'], undefined);
  assert.equal(logOf('wg.log'), []);
  assert.equal(((await call({ method: 'GET', path: '/network/wireguard_peers' })).json as Body[]).map((peer) => [peer.id, peer.interface]), [['laptop', 'wg0']]);
});

test('a write reaches the running device: wg set with the key on stdin, and a route per allowed IP', async () => {
  const response = await call({ method: 'POST', path: '/network/wireguard_peers', body: { id: 'laptop', ...PEER } });
  assert.is(response.status, 200, response.body);
  assert.is(response.headers['x-kernel-status'], 'ok');
  assert.is(response.headers['x-kernel-applied'], 'wg0');
  assert.equal(logOf('wg.log'), [`set wg0 peer ${PEER_KEY} preshared-key /dev/stdin endpoint vpn.example.net:51821 allowed-ips 10.9.0.2/32,10.10.0.0/24`]);
  assert.equal(logOf('ip.log').filter((line) => line.includes('replace')), ['route replace 10.9.0.2/32 dev wg0', 'route replace 10.10.0.0/24 dev wg0']);
});

test('a rotated key removes the old peer first; a disabled or deleted peer is removed', async () => {
  assert.is((await call({ method: 'POST', path: '/network/wireguard_peers', body: { id: 'laptop', ...PEER, route_allowed_ips: false } })).status, 200);
  rmSync(router.path('/var/log/wg.log'));
  const rotated = await call({ method: 'PATCH', path: '/network/wireguard_peers/laptop', body: { public_key: NEW_PEER_KEY } });
  assert.is(rotated.status, 200, rotated.body);
  assert.equal(logOf('wg.log').map((line) => line.split(' ').slice(0, 5).join(' ')), [`set wg0 peer ${PEER_KEY} remove`, `set wg0 peer ${NEW_PEER_KEY} preshared-key`]);
  assert.is(network().includes(PRESHARED), true, 'a merge patch without the key keeps it');
  rmSync(router.path('/var/log/wg.log'));
  assert.is((await call({ method: 'PATCH', path: '/network/wireguard_peers/laptop', body: { disabled: true } })).headers['x-kernel-status'], 'ok');
  assert.equal(logOf('wg.log'), [`set wg0 peer ${NEW_PEER_KEY} remove`]);
  rmSync(router.path('/var/log/wg.log'));
  assert.is((await call({ method: 'PATCH', path: '/network/wireguard_peers/laptop', body: { disabled: false } })).status, 200);
  const deleted = await call({ method: 'DELETE', path: '/network/wireguard_peers/laptop' });
  assert.is(deleted.status, 204, deleted.body);
  assert.is(deleted.headers['x-kernel-applied'], 'wg0');
  assert.equal(logOf('wg.log').slice(-1), [`set wg0 peer ${NEW_PEER_KEY} remove`]);
});

test('a failed kernel apply restores the configuration, as a failed reload does', async () => {
  wg0('gone');
  const before = network();
  const response = await call({ method: 'POST', path: '/network/wireguard_peers', body: { id: 'laptop', ...PEER } });
  assert.is(response.status, 500, response.body);
  assert.is((response.json as Body).code, 'reload_failed_restored');
  assert.match((response.json as Body).reload_error, /wg set on wg0 exited 1/);
  assert.is(network(), before);
});

test('a peer names a wireguard interface; its interface cannot go while it has peers', async () => {
  const snapshot = router.snapshot();
  const onLan = await call({ method: 'POST', path: '/network/wireguard_peers', body: { ...PEER, interface: 'lan' } });
  assert.is(onLan.status, 422, onLan.body);
  assert.equal(fieldErrors(onLan), ['interface:conflict']);
  const nowhere = await call({ method: 'POST', path: '/network/wireguard_peers', body: { ...PEER, interface: 'wg9' } });
  assert.ok(fieldErrors(nowhere).includes('interface:conflict'));
  const duplicate = { ...PEER, id: 'phone' };
  assert.equal(router.snapshot(), snapshot);
  assert.is((await call({ method: 'POST', path: '/network/wireguard_peers', body: { ...PEER, id: 'laptop' } })).status, 200);
  assert.equal(fieldErrors(await call({ method: 'POST', path: '/network/wireguard_peers', body: duplicate })), ['public_key:conflict']);
  const refused = await call({ method: 'DELETE', path: '/network/interfaces/wg0' });
  assert.is(refused.status, 409, refused.body);
  assert.match((refused.json as Body).message, /network\/wireguard_peers\/laptop/);
});

test.run();
