// packages/installed and packages/feeds over both package managers: opkg as OpenWrt 24.10 has it,
// apk as 25.12 has it, each through its stand-in (shims/emu/seed/bin/opkg, seed-apk/usr/bin/apk),
// whose call log (var/log/<tool>.log) says which processes a request started.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FEED_URL, PACKAGE_NAME } from '../../src/packages/grammar.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;
type Tool = 'opkg' | 'apk';

const TOOLS: Tool[] = ['opkg', 'apk'];
const DB: Record<Tool, string> = { opkg: '/usr/lib/opkg/status', apk: '/lib/apk/db/installed' };
const FEEDS: Record<Tool, string> = { opkg: '/etc/opkg/customfeeds.conf', apk: '/etc/apk/repositories.d/customfeeds.list' };
const STOCK_FEEDS: Record<Tool, string> = {
  opkg: '# add your custom package feeds here\n#\n# src/gz example_feed_name http://www.example.com/path/to/files\n',
  apk: '# add your custom package feeds here\n#\n# http://www.example.com/path/to/files/packages.adb\n',
};
/** A URL each stock router already has among its distribution feeds. */
const DIST_URL: Record<Tool, string> = {
  opkg: 'https://downloads.openwrt.org/releases/24.10.0/packages/x86_64/base',
  apk: 'https://downloads.openwrt.org/releases/25.12.0/packages/x86_64/base/packages.adb',
};

// The refusals and failures run the same wrtapi code for both tools, the tools differing only in
// their stand-ins: the slow engine runs them for opkg alone.
const ON_THIS_ENGINE: Tool[] = (process.env.WRTAPI_ENGINE ?? 'wasm') === 'wasm' ? ['opkg'] : TOOLS;

let router: Router;
let auth: Record<string, string>;
let tool: Tool;

async function setup(chosen: Tool) {
  tool = chosen;
  router = await newRouter({ packageManager: chosen });
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
}
test.after.each(async () => {
  await router.cleanup();
});

const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const install = (body: unknown, options: Partial<RequestOptions> = {}) => call({ method: 'POST', path: '/packages/installed', body, ...options });
const remove = (name: string) => call({ method: 'DELETE', path: `/packages/installed/${encodeURIComponent(name)}` });
const read = (path: string) => (existsSync(router.path(path)) ? readFileSync(router.path(path), 'utf8') : undefined);
/** The calls of the tool since the sandbox was made, one line of arguments each. */
const calls = () => (read(`/var/log/${tool}.log`) ?? '').split('\n').filter(Boolean);
const initLog = () => (read('/var/log/init.log') ?? '').split('\n').filter(Boolean);
const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`);
const names = (response: Response) => (response.json as Body[]).map((record) => record.name);
const add = (name: string) => (tool === 'opkg' ? `install ${name}` : `add ${name}`);
const del = (name: string) => (tool === 'opkg' ? `remove ${name}` : `del ${name}`);
/** What the tool's update is called with: the first install on opkg updates its lists first (none after a boot). */
const firstInstall = (name: string) => (tool === 'opkg' ? ['update', add(name)] : [add(name)]);

for (const each of TOOLS) {
  test(`${each}: GET reads the package database, paged by name, without starting a process`, async () => {
    await setup(each);
    const first = await call({ method: 'GET', path: '/packages/installed', query: { limit: '5' } });
    assert.is(first.status, 200, first.body);
    const stock = ['base-files', 'busybox', 'ca-bundle', 'dnsmasq'];
    assert.equal(names(first), each === 'opkg' ? [...stock, 'dropbear'] : ['apk-mbedtls', ...stock]);
    assert.is(first.headers['x-next-cursor'], `c_${names(first)[4]}`);
    const next = await call({ method: 'GET', path: `/packages/installed?cursor=${first.headers['x-next-cursor']}&limit=500` });
    const all = [...names(first), ...names(next)];
    assert.equal(all, [...all].sort());
    assert.ok(all.includes('uhttpd') && all.includes('wrtapi') && all.includes(each === 'opkg' ? 'opkg' : 'apk-mbedtls'));
    assert.is(next.headers['x-next-cursor'], undefined);
    const one = await call({ method: 'GET', path: '/packages/installed/dnsmasq' });
    assert.equal(one.json, { id: 'dnsmasq', name: 'dnsmasq', version: each === 'opkg' ? '2.90-r4' : '2.91-r1', installed: true, managed: true });
    assert.is(one.headers.etag, undefined, 'a non-configuration endpoint carries no ETag (spec: ETag)');
    assert.is((await call({ method: 'GET', path: '/packages/installed/mwan3' })).status, 404);
    assert.is((await call({ method: 'GET', path: '/packages/installed', query: { cursor: 'c_nosuch' } })).status, 400);
    assert.equal(calls(), []);
  });

  test(`${each}: POST installs and answers 201 with the record; a daemon's init script comes, enabled and started; idempotent`, async () => {
    await setup(each);
    const key = { query: { idempotency_key: 'mwan-1' } };
    const created = await install({ name: 'luci-app-mwan3' }, key);
    assert.is(created.status, 201, created.body);
    const version = each === 'opkg' ? '25.019.58005~7fd3b7b' : '26.012.41237~4b6a9c1';
    assert.equal(created.json, { id: 'luci-app-mwan3', name: 'luci-app-mwan3', version, installed: true, managed: true });
    assert.is(created.headers['x-reload-status'], undefined);
    assert.equal(calls(), firstInstall('luci-app-mwan3'));
    const replayed = await install({ name: 'luci-app-mwan3' }, key);
    assert.is(replayed.status, 201);
    assert.is(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(calls(), firstInstall('luci-app-mwan3'), 'a replay runs nothing');
    // Its dependencies came with it, and mwan3's daemon with its init script.
    const listed = names(await call({ method: 'GET', path: '/packages/installed', query: { limit: '500' } }));
    for (const name of ['ip-full', 'mwan3', 'luci-app-mwan3']) assert.ok(listed.includes(name), name);
    assert.ok(existsSync(router.path('/etc/init.d/mwan3')));
    assert.equal(initLog(), ['mwan3 enable', 'mwan3 start']);
    // What came as a dependency is no package asked for: opkg marked it Auto-Installed, apk left it out of its world.
    if (each === 'opkg') assert.match(read(DB.opkg)!, /\nPackage: mwan3\n[^]*?Auto-Installed: yes\n/);
    else assert.not.match(read('/etc/apk/world')!, /^mwan3$/m);
    const dependency = (await call({ method: 'GET', path: '/packages/installed/mwan3' })).json as Body;
    assert.equal([dependency.id, dependency.installed, dependency.managed], ['mwan3', true, false]);
    // A package installed already is its record, 200, and nothing runs: uapi's provider POSTs one it found installed.
    const again = await install({ name: 'mwan3' });
    assert.is(again.status, 200, again.body);
    assert.equal(again.json, dependency);
    assert.equal(calls(), firstInstall('luci-app-mwan3'));
    // Lists are there now: the next install updates nothing.
    assert.is((await install({ name: 'snmpd' })).status, 201);
    assert.equal(calls().slice(-1), [add('snmpd')]);
    assert.match(read('/var/log/messages')!, /AUDIT - POST \/packages\/installed 201/);
  });

  if (ON_THIS_ENGINE.includes(each)) test(`${each}: a failed install answers the tool's summary and leaves the database byte for byte`, async () => {
    await setup(each);
    const db = read(DB[each]);
    const unknown = await install({ name: 'nosuch-package' });
    assert.is(unknown.status, 422, unknown.body);
    assert.equal(fieldErrors(unknown), ['name:not_in_enum']);
    const said = (unknown.json as Body).errors[0].message as string;
    assert.match(said, each === 'opkg' ? /^No feed offers nosuch-package: Collected errors:\n \* opkg_install_cmd: Cannot install package nosuch-package\.$/ : /nosuch-package \(no such package\)/);
    assert.is(read(DB[each]), db);
    assert.equal(calls().slice(-1), [add('nosuch-package')]);
    // A dependency no feed offers: the tool stops before installing anything.
    appendFileSync(router.path('/var/emu/packages/depends'), 'lldpd: libnothere\n');
    const broken = await install({ name: 'lldpd' });
    assert.is(broken.status, 500, broken.body);
    const message = (broken.json as Body).message as string;
    assert.match(message, each === 'opkg' ? /^opkg install lldpd exited 255: Collected errors:\n.*libnothere\n.*Cannot install package lldpd\.; nothing was installed$/s : /^apk add lldpd exited 1: ERROR: unable to select packages:\n {2}libnothere \(no such package\):\n.*; nothing was installed$/s);
    assert.ok(message.split('\n').length <= 9, 'the last lines only');
    assert.is(read(DB[each]), db);
    assert.not.ok(existsSync(router.path('/etc/init.d/lldpd')));
    assert.equal(initLog(), []);
  });

  test(`${each}: DELETE removes a package (204) and its daemon; one that others depend on is kept, 409 with the tool's words`, async () => {
    await setup(each);
    assert.is((await install({ name: 'luci-app-mwan3' })).status, 201);
    const db = read(DB[each]);
    const kept = await remove('mwan3');
    assert.is(kept.status, 409, kept.body);
    assert.match((kept.json as Body).message, each === 'opkg' ? /^opkg kept mwan3: .*Package mwan3 is depended upon by packages:\n.*luci-app-mwan3/s : /^apk kept mwan3: World updated, but the following packages are not removed due to:\n {2}mwan3: luci-app-mwan3/);
    assert.is(read(DB[each]), db);
    assert.ok(existsSync(router.path('/etc/init.d/mwan3')));
    assert.is((await remove('luci-app-mwan3')).status, 204);
    const removed = await remove('mwan3');
    assert.is(removed.status, each === 'opkg' ? 204 : 404, removed.body);
    assert.not.ok(existsSync(router.path('/etc/init.d/mwan3')));
    assert.equal(initLog(), ['mwan3 enable', 'mwan3 start', 'mwan3 stop', 'mwan3 disable']);
    assert.is((await call({ method: 'GET', path: '/packages/installed/mwan3' })).status, 404);
    assert.is((await remove('mwan3')).status, 404);
    assert.equal(calls().filter((line) => !line.startsWith('update')), [
      add('luci-app-mwan3'), del('mwan3'), del('luci-app-mwan3'), ...(each === 'opkg' ? [del('mwan3')] : []),
    ]);
    // The stock router's own: uhttpd serves this API, and wrtapi depends on it.
    const uhttpd = await remove('uhttpd');
    assert.is(uhttpd.status, 409);
    assert.match((uhttpd.json as Body).message, /wrtapi/);
    assert.match(read('/var/log/messages')!, /AUDIT - DELETE \/packages\/installed\/luci-app-mwan3 204/);
  });

  if (ON_THIS_ENGINE.includes(each)) test(`${each}: removing a daemon package brings the daemon-missing 503, installing it takes the 503 away`, async () => {
    await setup(each);
    const host = { method: 'POST', path: '/dhcp/hosts', body: { id: 'printer', name: 'printer', macs: ['52:54:00:12:34:56'], ip: '192.168.1.50' } };
    const conflict = await remove('dnsmasq');
    assert.is(conflict.status, 204, conflict.body);
    assert.not.ok(existsSync(router.path('/etc/init.d/dnsmasq')));
    const missing = await call(host);
    assert.is(missing.status, 503, missing.body);
    assert.match((missing.json as Body).message, /\/etc\/init\.d\/dnsmasq is missing; install .*POST \/packages\/installed/);
    assert.is((await install({ name: 'dnsmasq' })).status, 201);
    const written = await call(host);
    assert.is(written.status, 200, written.body);
    assert.equal(initLog(), ['dnsmasq stop', 'dnsmasq disable', 'dnsmasq enable', 'dnsmasq start', 'dnsmasq reload', 'odhcpd reload']);
  });

  if (ON_THIS_ENGINE.includes(each)) test(`${each}: what is no package name is 422 before any process starts`, async () => {
    await setup(each);
    const db = read(DB[each]);
    const more = ['--force-depends', '/bin/sh', 'x.ipk', 'x.apk', 'mwan3>1', 'mwan*', '', 'x'.repeat(129)];
    // The slow engine sends the five of the brief; the fast one every other shape too.
    for (const name of ['-f', 'a b', '../x', 'x;y', 'x\ny', ...(router.engine === 'wasm' ? [] : more)]) {
      const posted = await install({ name });
      assert.is(posted.status, 422, `${JSON.stringify(name)}: ${posted.body}`);
      assert.equal(fieldErrors(posted), ['name:invalid_format'], name);
      if (name && !name.includes('/') && (router.engine !== 'wasm' || name === '-f')) {
        const deleted = await remove(name);
        assert.is(deleted.status, 422, `DELETE ${JSON.stringify(name)}: ${deleted.body}`);
      }
    }
    assert.equal(fieldErrors(await install({ name: 42 })), ['name:invalid_type']);
    assert.equal(fieldErrors(await install({})), ['name:required']);
    assert.equal(fieldErrors(await install({ name: 'mwan3', force: true })), ['force:unknown_field']);
    assert.is((await install('{"name":')).status, 400);
    assert.equal(calls(), [], 'no process was started');
    assert.is(read(DB[each]), db);
  });
}

test('a package write is 423 while another write holds the global lock, and runs nothing', async () => {
  await setup('opkg');
  router.lock(`/var/lock/wrtapi.global.shared.${process.pid}`);
  const locked = await install({ name: 'mwan3' });
  assert.is(locked.status, 423, locked.body);
  assert.is(locked.headers['retry-after'], '1');
  assert.is((await remove('dnsmasq')).status, 423);
  assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'mine', url: 'https://feeds.example.org/mine' } })).status, 423);
  // The exclusive lock of another package write.
  rmSync(router.path(`/var/lock/wrtapi.global.shared.${process.pid}`));
  router.lock('/var/lock/wrtapi.global.lock');
  assert.is((await install({ name: 'mwan3' })).status, 423);
  assert.is((await call({ method: 'DELETE', path: '/packages/feeds/mine' })).status, 423);
  assert.equal(calls(), []);
  // Reads take no lock.
  assert.is((await call({ method: 'GET', path: '/packages/installed/dnsmasq' })).status, 200);
  assert.is(read(FEEDS.opkg), STOCK_FEEDS.opkg);
});

test('each resource has its own scope', async () => {
  await setup('opkg');
  const feedsOnly = { authorization: `Bearer ${await router.mint('feeds', ['packages:feeds:rw', 'packages:installed:ro'])}` };
  assert.is((await install({ name: 'mwan3' }, { headers: feedsOnly })).status, 403);
  assert.is((await call({ method: 'GET', path: '/packages/installed', headers: feedsOnly })).status, 200);
  assert.is((await call({ method: 'GET', path: '/packages/feeds', headers: feedsOnly })).status, 200);
  const firewall = { authorization: `Bearer ${await router.mint('fw', ['firewall:rw'])}` };
  assert.is((await call({ method: 'GET', path: '/packages/feeds', headers: firewall })).status, 403);
  assert.equal(calls(), []);
});

for (const each of TOOLS) {
  test(`${each}: feeds are created, repointed and deleted in the custom feeds file, each write followed by the index update`, async () => {
    await setup(each);
    assert.equal((await call({ method: 'GET', path: '/packages/feeds' })).json, []);
    const url = each === 'opkg' ? 'https://feeds.example.org/mine/x86_64' : 'https://feeds.example.org/mine/x86_64/packages.adb';
    const created = await call({ method: 'POST', path: '/packages/feeds', body: { name: 'mine', url } });
    assert.is(created.status, 201, created.body);
    const record = { id: 'mine', name: 'mine', url, filename: FEEDS[each], enabled: true, update_status: each === 'opkg' ? 'ok' : null, managed: true };
    assert.equal(created.json, record);
    const line = each === 'opkg' ? `src/gz mine ${url}\n` : `# wrtapi-feed: mine\n${url}\n`;
    assert.is(read(FEEDS[each]), STOCK_FEEDS[each] + line);
    assert.equal(calls(), ['update']);
    if (each === 'opkg') assert.ok(existsSync(router.path('/var/opkg-lists/mine')), 'opkg fetched the new feed\'s list');
    assert.equal((await call({ method: 'GET', path: '/packages/feeds' })).json, [record]);
    assert.equal((await call({ method: 'GET', path: '/packages/feeds/mine' })).json, record);
    const moved = url.replace('mine/', 'moved/');
    // A read sent back with another URL: what the read adds is ignored.
    const put = await call({ method: 'PUT', path: '/packages/feeds/mine', body: { ...record, url: moved } });
    assert.is(put.status, 200, put.body);
    assert.equal(put.json, { ...record, url: moved });
    assert.is(read(FEEDS[each]), STOCK_FEEDS[each] + line.replace(url, moved));
    assert.equal(calls(), ['update', 'update']);
    assert.equal(fieldErrors(await call({ method: 'PUT', path: '/packages/feeds/mine', body: { name: 'other', url } })), ['name:conflict']);
    assert.equal(fieldErrors(await call({ method: 'PUT', path: '/packages/feeds/mine', body: { id: 'other', url } })), ['id:conflict']);
    assert.is((await call({ method: 'PUT', path: '/packages/feeds/nosuch', body: { url } })).status, 404);
    // Taken names and URLs, here and in the distribution's feeds.
    assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'mine', url } })).status, 409);
    assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'again', url: moved } })).status, 409);
    assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'dist', url: DIST_URL[each] } })).status, 409);
    if (each === 'opkg') assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'openwrt_base', url } })).status, 409);
    const deleted = await call({ method: 'DELETE', path: '/packages/feeds/mine' });
    assert.is(deleted.status, 204, deleted.body);
    assert.is(read(FEEDS[each]), STOCK_FEEDS[each], 'the comments stay');
    assert.is((await call({ method: 'DELETE', path: '/packages/feeds/mine' })).status, 404);
    assert.equal(calls(), ['update', 'update'], 'a deletion updates nothing');
    assert.match(read('/var/log/messages')!, /AUDIT - POST \/packages\/feeds 201[^]*AUDIT - PUT \/packages\/feeds\/mine 200[^]*AUDIT - DELETE \/packages\/feeds\/mine 204/);
  });

  if (ON_THIS_ENGINE.includes(each)) test(`${each}: a failed index update puts the feeds file back, and a second update says whose fault it was`, async () => {
    await setup(each);
    const bad = await call({ method: 'POST', path: '/packages/feeds', body: { name: 'down', url: 'https://feeds.down.invalid/packages' } });
    assert.is(bad.status, 422, bad.body);
    assert.equal(fieldErrors(bad), ['url:conflict']);
    assert.match((bad.json as Body).errors[0].message, new RegExp(`^${each} update exited 1: .*feeds\\.down\\.invalid.*; ${FEEDS[each]} is as it was$`, 's'));
    assert.is(read(FEEDS[each]), STOCK_FEEDS[each]);
    assert.equal(calls(), ['update', 'update'], 'the update, and again without the new feed');
    // A local feed is fetched from its file: there is none yet.
    const local = each === 'opkg' ? 'file:///srv/feed' : 'file:///srv/feed/packages.adb';
    assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'local', url: local } })).status, 422);
    mkdirSync(router.path('/srv/feed'), { recursive: true });
    writeFileSync(router.path(each === 'opkg' ? '/srv/feed/Packages.gz' : '/srv/feed/packages.adb'), '');
    assert.is((await call({ method: 'POST', path: '/packages/feeds', body: { name: 'local', url: local } })).status, 201);
    // Another feed that fails: the new one is not to blame, and is not kept either.
    const text = read(FEEDS[each])!;
    if (each === 'opkg') writeFileSync(router.path('/etc/opkg/broken.conf'), 'src/gz broken https://gone.invalid/feed\n');
    else writeFileSync(router.path('/etc/apk/repositories.d/broken.list'), 'https://gone.invalid/feed/packages.adb\n');
    const other = await call({ method: 'POST', path: '/packages/feeds', body: { name: 'fine', url: 'https://fine.example.org/feed' } });
    assert.is(other.status, 503, other.body);
    assert.match((other.json as Body).message, /gone\.invalid/);
    assert.is(read(FEEDS[each]), text);
  });

  if (ON_THIS_ENGINE.includes(each)) test(`${each}: nothing but a name and a URL reaches a feed line`, async () => {
    await setup(each);
    const url = 'https://feeds.example.org/mine';
    const attempts: [Body, string][] = [
      [{ name: 'x\nsrc/gz evil http://evil', url }, 'name:invalid_format'],
      [{ name: 'a b', url }, 'name:invalid_format'],
      [{ name: '"q"', url }, 'name:invalid_format'],
      [{ name: '..', url }, 'name:invalid_format'],
      [{ name: 'mine', url: `${url}\nsrc/gz evil http://evil` }, 'url:invalid_format'],
      [{ name: 'mine', url: `${url} extra` }, 'url:invalid_format'],
      [{ name: 'mine', url: `${url}"` }, 'url:invalid_format'],
      [{ name: 'mine', url: `${url}/$ARCH` }, 'url:invalid_format'],
      [{ name: 'mine', url: `${url}\t` }, 'url:invalid_format'],
      [{ name: 'mine', url: 'ftp://feeds.example.org/x' }, 'url:invalid_format'],
      [{ name: 'mine', url: '/srv/feed' }, 'url:invalid_format'],
      [{ name: 'mine', url: `https://x/${'a'.repeat(1100)}` }, 'url:out_of_range'],
      [{ name: 'mine' }, 'url:required'],
      [{ name: 'mine', url, tag: '@edge' }, 'tag:unknown_field'],
    ];
    for (const [body, expected] of router.engine === 'wasm' ? attempts.filter((_, i) => i % 3 === 0) : attempts) {
      const response = await call({ method: 'POST', path: '/packages/feeds', body });
      assert.is(response.status, 422, `${JSON.stringify(body)}: ${response.body}`);
      assert.equal(fieldErrors(response), [expected], JSON.stringify(body));
    }
    assert.is(read(FEEDS[each]), STOCK_FEEDS[each]);
    assert.equal(calls(), []);
  });
}

test('opkg: a feed whose name opkg read before is not enabled; update_status follows opkg\'s lists directory', async () => {
  await setup('opkg');
  // opkg reads /etc/opkg.conf, then /etc/opkg/*.conf in glob order: a.conf before customfeeds.conf, distfeeds.conf after.
  writeFileSync(router.path('/etc/opkg/a.conf'), 'src/gz early https://early.example.org/feed\n');
  writeFileSync(router.path(FEEDS.opkg), `${STOCK_FEEDS.opkg}src/gz early https://custom.example.org/early\nsrc/gz openwrt_base https://custom.example.org/base\nsrc mine https://custom.example.org/mine\nsrc/gz mine https://custom.example.org/again\n`);
  const listed = (await call({ method: 'GET', path: '/packages/feeds' })).json as Body[];
  assert.equal(listed.map((feed) => [feed.name, feed.enabled, feed.update_status]), [
    ['early', false, 'not_fetched'], ['openwrt_base', true, 'not_fetched'], ['mine', true, 'not_fetched'], ['mine', false, 'not_fetched'],
  ]);
  assert.equal(calls(), []);
  // After an update (the stand-in fetches a list per name, the first declaration's URL), the lists are there.
  assert.is((await install({ name: 'mwan3' })).status, 201);
  assert.ok(existsSync(router.path('/var/opkg-lists/mine')));
  assert.equal((await call({ method: 'GET', path: '/packages/feeds/mine' })).json, {
    id: 'mine', name: 'mine', url: 'https://custom.example.org/mine', filename: FEEDS.opkg, enabled: true, update_status: 'ok', managed: true,
  });
  // As after a reboot: the tmpfs lists are gone.
  rmSync(router.path('/var/opkg-lists'), { recursive: true });
  assert.is(((await call({ method: 'GET', path: '/packages/feeds/mine' })).json as Body).update_status, 'not_fetched');
});

test('apk: a URL line written by hand is a feed named after its hash, which a write names for good', async () => {
  await setup('apk');
  const url = 'https://by.hand.example.org/feed/packages.adb';
  writeFileSync(router.path(FEEDS.apk), `${STOCK_FEEDS.apk}${url}\n`);
  const [feed] = (await call({ method: 'GET', path: '/packages/feeds' })).json as Body[];
  assert.match(feed.name, /^url_[0-9a-f]{8}$/);
  assert.is(feed.url, url);
  const moved = await call({ method: 'PUT', path: `/packages/feeds/${feed.name}`, body: { url: url.replace('feed/', 'moved/') } });
  assert.is(moved.status, 200, moved.body);
  assert.is(read(FEEDS.apk), `${STOCK_FEEDS.apk}# wrtapi-feed: ${feed.name}\n${url.replace('feed/', 'moved/')}\n`);
  assert.is((await call({ method: 'DELETE', path: `/packages/feeds/${feed.name}` })).status, 204);
  assert.is(read(FEEDS.apk), STOCK_FEEDS.apk);
});

test('the OpenAPI document describes both resources, with the grammar the handlers apply, and live answers conform', async () => {
  await setup('apk');
  const document = (await router.request({ method: 'GET', path: '/openapi.json' })).json as Body;
  const verbs = (path: string) => Object.keys(document.paths[path]).filter((key) => key !== 'parameters');
  assert.equal(verbs('/packages/installed'), ['get', 'post']);
  assert.equal(verbs('/packages/installed/{name}'), ['get', 'delete']);
  assert.equal(verbs('/packages/feeds'), ['get', 'post']);
  assert.equal(verbs('/packages/feeds/{name}'), ['get', 'put', 'delete']);
  const { schemas } = document.components;
  assert.is(schemas.PackageRequest.properties.name.pattern, PACKAGE_NAME);
  assert.is(schemas.FeedRequest.properties.url.pattern, FEED_URL);
  const post = document.paths['/packages/installed'].post;
  assert.equal(Object.keys(post.responses), ['200', '201', '400', '401', '403', '404', '409', '422', '423', '429', '500', '503']);
  assert.ok(post.parameters.some((parameter: Body) => parameter.$ref === '#/components/parameters/IdempotencyKeyQuery'));
  assert.is(post.responses[201].headers['Idempotent-Replayed'].$ref, '#/components/headers/IdempotentReplayed');
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  const conforms = (path: string, status: string, answer: Response) => {
    const schema = document.paths[path].get.responses[status].content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/')));
    assert.ok(validate(answer.json), `${path}: ${JSON.stringify(validate.errors)}`);
  };
  conforms('/packages/installed', '200', await call({ method: 'GET', path: '/packages/installed' }));
  conforms('/packages/installed/{name}', '200', await call({ method: 'GET', path: '/packages/installed/dnsmasq' }));
  conforms('/packages/feeds', '200', await call({ method: 'GET', path: '/packages/feeds' }));
  writeFileSync(router.path(FEEDS.apk), `${STOCK_FEEDS.apk}https://by.hand.example.org/packages.adb\n`);
  conforms('/packages/feeds', '200', await call({ method: 'GET', path: '/packages/feeds' }));
});

test.run();
