// dhcp/leases and dhcp/leases6, the read-only views over dnsmasq's lease file and odhcpd's state file,
// through the CGI path: the seeded leases' fields, paging, the file the configuration names, a
// missing file, malformed lines skipped and counted, 405 on every write, and scopes; and the lease
// counts dhcp/servers carries as `runtime`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

const get = (path: string, query: Record<string, string> = {}) => router.request({ method: 'GET', path, query, headers: { authorization } });
const now = () => Math.floor(Date.now() / 1000);
const lease = (i: number, expires = now() + 3600) => `${expires} 52:54:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')} 10.0.${i >> 8}.${i & 255} host${i} *\n`;

test('dhcp/leases: the seeded leases, in file order, with stable ids and every field', async () => {
  const response = await get('/dhcp/leases');
  assert.is(response.status, 200, response.body);
  assert.is(response.headers['x-skipped-lines'], '0');
  assert.is(response.headers.etag, undefined);
  const [laptop, other] = response.json as Body[];
  assert.is((response.json as Body[]).length, 2);
  const expiry = Number(readFileSync(router.path('/tmp/dhcp.leases'), 'utf8').split(' ')[0]);
  assert.equal(Object.keys(laptop), ['id', 'ip', 'mac', 'hwaddr', 'hostname', 'client_id', 'duid', 'expires_at', 'expires_in']);
  assert.equal({ ...laptop, expires_in: 0 }, {
    id: '192_168_1_100',
    ip: '192.168.1.100',
    mac: '52:54:00:aa:bb:01',
    hwaddr: '52:54:00:aa:bb:01',
    hostname: 'laptop',
    client_id: '01:52:54:00:aa:bb:01',
    duid: null,
    expires_at: expiry,
    expires_in: 0,
  });
  assert.ok(laptop.expires_in > 12 * 3600 - 600 && laptop.expires_in <= 12 * 3600, String(laptop.expires_in));
  assert.is(other.id, '192_168_1_153');
  assert.is(other.hostname, null);
  assert.is(other.expires_at, expiry - 1800);
  const item = await get('/dhcp/leases/192_168_1_153');
  assert.is(item.status, 200);
  assert.equal(item.json, { ...other, expires_in: (item.json as Body).expires_in });
  assert.is(item.headers['x-skipped-lines'], '0');
  const missing = await get('/dhcp/leases/10_0_0_1');
  assert.is(missing.status, 404);
  assert.is((missing.json as Body).code, 'not_found');
  assert.is((await get('/dhcp/leases/192_168_1_100/adopt')).status, 404, 'a view has no adopt route');
});

test('dhcp/leases: infinite leases, other hardware types and lines of no IPv4 lease', async () => {
  writeFileSync(router.path('/tmp/dhcp.leases'), [
    'duid 00:01:00:01:2e:5c:1a:2b:52:54:00:aa:bb:01',
    '0 52:54:00:aa:bb:03 192.168.1.20 printer *',
    '1900000000 06-aa:bb 192.168.1.21 * ff:00:11',
    '1900000000 52:54:00:aa:bb:04 fd00::5 v6host 00:01:02',
    '',
  ].join('\n'));
  const response = await get('/dhcp/leases');
  assert.is(response.headers['x-skipped-lines'], '0', 'a duid line and a DHCPv6 line are no malformed lines');
  const [printer, token] = response.json as Body[];
  assert.is((response.json as Body[]).length, 2);
  assert.equal([printer.expires_at, printer.expires_in, printer.hostname], [null, null, 'printer']);
  assert.equal([token.mac, token.hwaddr, token.client_id], [null, '06-aa:bb', 'ff:00:11']);
});

test('dhcp/leases: malformed lines are skipped and counted, never a 500', async () => {
  writeFileSync(router.path('/tmp/dhcp.leases'), [
    lease(1),
    'garbage',
    'soon 52:54:00:aa:bb:03 192.168.1.20 x *',
    `${now()} 52:54:00:aa:bb:03 192.168.1.300 x *`,
    `${now()} not-a-mac 192.168.1.30 x *`,
    '\u00ff\u00fe binary',
    // A NUL byte ends no file: the lines after it are read (both engines).
    'a NUL \u0000 byte',
    lease(2),
  ].join('\n'));
  const response = await get('/dhcp/leases');
  assert.is(response.status, 200);
  assert.is(response.headers['x-skipped-lines'], '6');
  assert.equal((response.json as Body[]).map((item) => item.id), ['10_0_0_1', '10_0_0_2']);
  assert.is((await get('/dhcp/leases/10_0_0_2')).headers['x-skipped-lines'], '6');
  // A read parses only as far as its answer needs: the lines past the first lease are not read.
  assert.is((await get('/dhcp/leases/10_0_0_1')).headers['x-skipped-lines'], '0');
});

test('dhcp/leases: paging with limit and cursor, as collections page', async () => {
  writeFileSync(router.path('/tmp/dhcp.leases'), Array.from({ length: 7 }, (_, i) => lease(i + 1)).join(''));
  const ids: string[] = [];
  let query: Record<string, string> = { limit: '3' };
  for (let pages = 0; pages < 5; pages++) {
    const response = await get('/dhcp/leases', query);
    assert.is(response.status, 200);
    ids.push(...(response.json as Body[]).map((item) => item.id));
    const next = response.headers['x-next-cursor'];
    if (!next) break;
    assert.is(response.headers.link, `<?cursor=${next}&limit=3>; rel="next"`);
    query = { limit: '3', cursor: next };
  }
  assert.equal(ids, Array.from({ length: 7 }, (_, i) => `10_0_0_${i + 1}`));
  assert.is((await get('/dhcp/leases', { cursor: 'c_10_9_9_9' })).status, 400);
  assert.is(((await get('/dhcp/leases', { cursor: 'c_10_9_9_9' })).json as Body).code, 'invalid_cursor');
  assert.is((await get('/dhcp/leases', { limit: '0' })).status, 400);
});

test('dhcp/leases: the file is the first dnsmasq section\'s leasefile; no file, or no dnsmasq section, is an empty list', async () => {
  const config = router.path('/etc/config/dhcp');
  const stock = readFileSync(config, 'utf8');
  writeFileSync(config, stock.replace("option leasefile '/tmp/dhcp.leases'", "option leasefile '/tmp/moved.leases'"));
  assert.equal((await get('/dhcp/leases')).json, []);
  writeFileSync(router.path('/tmp/moved.leases'), lease(9));
  assert.equal(((await get('/dhcp/leases')).json as Body[]).map((item) => item.id), ['10_0_0_9']);
  writeFileSync(config, stock.replace(/\toption leasefile '\/tmp\/dhcp.leases'\n/, ''));
  assert.is(((await get('/dhcp/leases')).json as Body[]).length, 2, 'unset: the default /tmp/dhcp.leases');
  writeFileSync(config, stock);
  rmSync(router.path('/tmp/dhcp.leases'));
  const empty = await get('/dhcp/leases');
  assert.is(empty.status, 200);
  assert.equal(empty.json, []);
  assert.is(empty.headers['x-skipped-lines'], '0');
});

test('dhcp/leases6: one item per IA address of odhcpd\'s state file; DHCPv4 and hosts lines left out', async () => {
  const seeded = await get('/dhcp/leases6');
  assert.is(seeded.status, 200);
  const expiry = Number(readFileSync(router.path('/tmp/dhcp.leases'), 'utf8').split(' ')[0]);
  assert.equal(seeded.json, [{
    id: '000100012e5c1a2b525400aabb01_aabb01_fd4c_7e19_a3b2__d8e_128',
    interface: 'br-lan',
    duid: '000100012e5c1a2b525400aabb01',
    iaid: 'aabb01',
    hostname: 'laptop',
    ia_type: 'IA_NA',
    ip: 'fd4c:7e19:a3b2::d8e',
    prefix_length: null,
    host_id: 'd8e',
    expires_at: expiry,
  }]);
  writeFileSync(router.path('/tmp/hosts/odhcpd'), [
    'fd00::1\tnas\tnas',
    '# br-lan 0001abcd 1 broken\\x20nas -1 1 128 fd00::1/128 fd00::2/128',
    '# br-lan 0001abce 2 - 0 3 60 fd00:0:0:30::/60',
    '# br-lan 5254aabbcc01 ipv4 printer 1900000000 10 32 192.168.1.9/32',
    '# br-lan 0001abcf 3 - 1900000000 0 128',
    '# br-lan zz 1 - 1 1 128 fd00::9/128',
    '# short',
    '',
  ].join('\n'));
  const response = await get('/dhcp/leases6');
  assert.is(response.headers['x-skipped-lines'], '2');
  const items = response.json as Body[];
  assert.equal(items.map((item) => [item.id, item.ia_type, item.ip, item.hostname, item.expires_at, item.prefix_length]), [
    ['0001abcd_1_fd00__1_128', 'IA_NA', 'fd00::1', 'nas', null, null],
    ['0001abcd_1_fd00__2_128', 'IA_NA', 'fd00::2', 'nas', null, null],
    ['0001abce_2_fd00_0_0_30___60', 'IA_PD', 'fd00:0:0:30::', null, 0, 60],
  ]);
  assert.is((await get('/dhcp/leases6/0001abce_2_fd00_0_0_30___60')).json!.toString(), '[object Object]');
});

test('dhcp/leases6: the odhcpd section\'s leasefile; unset, odhcpd writes none and the list is empty', async () => {
  const config = router.path('/etc/config/dhcp');
  const stock = readFileSync(config, 'utf8');
  writeFileSync(config, stock.replace("option leasefile '/tmp/hosts/odhcpd'", "option leasefile '/tmp/odhcpd.state'"));
  assert.equal((await get('/dhcp/leases6')).json, []);
  writeFileSync(router.path('/tmp/odhcpd.state'), '# br-lan 0001 1 - -1 1 128 fd00::7/128\n');
  assert.equal(((await get('/dhcp/leases6')).json as Body[]).map((item) => item.ip), ['fd00::7']);
  writeFileSync(config, stock.replace(/\toption leasefile '\/tmp\/hosts\/odhcpd'\n/, ''));
  const unset = await get('/dhcp/leases6');
  assert.is(unset.status, 200);
  assert.equal(unset.json, []);
});

// What uapi's provider decodes of each item (dhcp_leases_data_source.go, dhcp_leases6_data_source.go):
// strVal takes a string or null (anything else lands in state as its %v text), int64Val a number or
// null (a string reads as null). The provider lists with ?limit=500, following X-Next-Cursor.
const PROVIDER_LEASE = { expires_at: 'integer', mac: 'string', ip: 'string', hostname: 'string', duid: 'string' } as const;
const PROVIDER_LEASE6 = { duid: 'string', iaid: 'string', hostname: 'string', interface: 'string', ia_type: 'string', ip: 'string', prefix_length: 'integer', expires_at: 'integer' } as const;

async function providerList(path: string): Promise<Body[]> {
  const items: Body[] = [];
  let query: Record<string, string> = { limit: '500' };
  for (let pages = 0; pages < 1000; pages++) {
    const response = await get(path, query);
    assert.is(response.status, 200, response.body);
    items.push(...(response.json as Body[]));
    const next = response.headers['x-next-cursor'];
    if (!next) break;
    query = { limit: '500', cursor: next };
  }
  return items;
}

/** Each member as the provider's decoder takes it: present, of its type or null, and what the provider's state would then hold. */
function decoded(item: Body, members: Record<string, 'string' | 'integer'>): Body {
  const state: Body = {};
  for (const [name, type] of Object.entries(members)) {
    assert.ok(name in item, `${name} is present`);
    const value = item[name];
    if (value !== null) assert.ok(type === 'string' ? typeof value === 'string' : Number.isInteger(value), `${name}: ${JSON.stringify(value)} is no ${type}`);
    state[name] = value;
  }
  return state;
}

test('the provider\'s dhcp_leases and dhcp_leases6 data sources decode every member with its type', async () => {
  const expiry = now() + 3600;
  writeFileSync(router.path('/tmp/dhcp.leases'), [
    `${expiry} 52:54:00:aa:bb:01 192.168.1.100 laptop ff:00:00:00:01:00:01:00:01:2e:5c:1a:2b:52:54:00:aa:bb:01`,
    '0 52:54:00:aa:bb:02 192.168.1.101 * 01:52:54:00:aa:bb:02',
    `${expiry} 06-aa:bb 192.168.1.102 token *`,
    'duid 00:01:00:01:2e:5c:1a:2b:52:54:00:00:00:01',
    '',
  ].join('\n'));
  assert.equal((await providerList('/dhcp/leases')).map((item) => decoded(item, PROVIDER_LEASE)), [
    { expires_at: expiry, mac: '52:54:00:aa:bb:01', ip: '192.168.1.100', hostname: 'laptop', duid: '000100012e5c1a2b525400aabb01' },
    { expires_at: null, mac: '52:54:00:aa:bb:02', ip: '192.168.1.101', hostname: null, duid: null },
    { expires_at: expiry, mac: null, ip: '192.168.1.102', hostname: 'token', duid: null },
  ]);
  writeFileSync(router.path('/tmp/hosts/odhcpd'), [
    `# br-lan 000100012e5c1a2b525400aabb01 aabb01 laptop ${expiry} d8e 128 fd00::d8e/128`,
    '# br-lan 0001abce 2 - -1 3 60 fd00:0:0:30::/60',
    '',
  ].join('\n'));
  assert.equal((await providerList('/dhcp/leases6')).map((item) => decoded(item, PROVIDER_LEASE6)), [
    { duid: '000100012e5c1a2b525400aabb01', iaid: 'aabb01', hostname: 'laptop', interface: 'br-lan', ia_type: 'IA_NA', ip: 'fd00::d8e', prefix_length: null, expires_at: expiry },
    { duid: '0001abce', iaid: '2', hostname: null, interface: 'br-lan', ia_type: 'IA_PD', ip: 'fd00:0:0:30::', prefix_length: 60, expires_at: null },
  ]);
  // The leases the provider lists come one page of 500 at a time.
  writeFileSync(router.path('/tmp/dhcp.leases'), Array.from({ length: 501 }, (_, i) => lease(i + 1)).join(''));
  const many = await providerList('/dhcp/leases');
  assert.is(many.length, 501);
  assert.equal(many.map((item) => item.ip).slice(499), ['10.0.1.244', '10.0.1.245']);
});

test('every write verb answers 405 with Allow: GET and changes nothing', async () => {
  const before = router.snapshot();
  const leases = readFileSync(router.path('/tmp/dhcp.leases'), 'utf8');
  const requests: [string, string][] = [
    ['POST', '/dhcp/leases'], ['PUT', '/dhcp/leases'], ['PATCH', '/dhcp/leases'], ['DELETE', '/dhcp/leases'],
    ['PUT', '/dhcp/leases/192_168_1_100'], ['PATCH', '/dhcp/leases/192_168_1_100'], ['DELETE', '/dhcp/leases/192_168_1_100'], ['POST', '/dhcp/leases/192_168_1_100'],
    ['POST', '/dhcp/leases6'], ['DELETE', '/dhcp/leases6'],
    ['PUT', '/dhcp/leases6/000100012e5c1a2b525400aabb01_aabb01_fd4c_7e19_a3b2__d8e_128'],
    ['DELETE', '/dhcp/leases6/000100012e5c1a2b525400aabb01_aabb01_fd4c_7e19_a3b2__d8e_128'],
  ];
  for (const [method, path] of requests) {
    const response = await router.request({ method, path, headers: { authorization, 'content-type': 'application/json' }, body: '{}' });
    assert.is(response.status, 405, `${method} ${path}: ${response.body}`);
    assert.is((response.json as Body).code, 'method_not_allowed');
    assert.is(response.headers.allow, 'GET', `${method} ${path}`);
  }
  assert.equal(router.snapshot(), before);
  assert.is(readFileSync(router.path('/tmp/dhcp.leases'), 'utf8'), leases);
});

test('scopes: dhcp:leases:ro reads leases and nothing else; without it 403', async () => {
  const leasesOnly = `Bearer ${await router.mint('leases', ['dhcp:leases:ro'])}`;
  const hostsOnly = `Bearer ${await router.mint('hosts', ['dhcp:hosts:ro'])}`;
  const read = (path: string, bearer: string) => router.request({ method: 'GET', path, headers: { authorization: bearer } });
  assert.is((await read('/dhcp/leases', leasesOnly)).status, 200);
  assert.is((await read('/dhcp/leases/192_168_1_100', leasesOnly)).status, 200);
  assert.is((await read('/dhcp/leases6', leasesOnly)).status, 403);
  assert.is((await read('/dhcp/hosts', leasesOnly)).status, 403);
  const refused = await read('/dhcp/leases', hostsOnly);
  assert.is(refused.status, 403);
  assert.is((refused.json as Body).code, 'insufficient_scope');
  const v6 = `Bearer ${await router.mint('v6', ['dhcp:leases6:ro'])}`;
  assert.is((await read('/dhcp/leases6', v6)).status, 200);
  assert.is((await read('/dhcp/leases', v6)).status, 403);
});

test('dhcp/servers: runtime counts the active leases of each interface, outside the ETag', async () => {
  const lan = await get('/dhcp/servers/lan');
  assert.equal((lan.json as Body).runtime, { leases: 2, leases6: 1 }, 'the seeded leases: two IPv4 in 192.168.1.0/24, one IPv6 on br-lan');
  const expiry = now() + 3600;
  writeFileSync(router.path('/tmp/dhcp.leases'), [
    `${expiry} 52:54:00:aa:bb:01 192.168.1.100 laptop *`,
    `${expiry} 52:54:00:aa:bb:02 192.168.1.101 * *`,
    `${now() - 60} 52:54:00:aa:bb:03 192.168.1.102 expired *`,
    `0 52:54:00:aa:bb:04 192.168.1.103 forever *`,
    `${expiry} 52:54:00:aa:bb:05 10.9.9.9 elsewhere *`,
    'garbage',
    '',
  ].join('\n'));
  writeFileSync(router.path('/tmp/hosts/odhcpd'), `# br-lan 0001abcd 1 a ${expiry} 1 128 fd00::1/128 fd00::2/128\n# br-lan 0001abce 2 b 0 2 128 fd00::3/128\n# eth9 0001abcf 3 c -1 3 128 fd00::4/128\n`);
  const changed = await get('/dhcp/servers/lan');
  assert.equal((changed.json as Body).runtime, { leases: 3, leases6: 2 }, 'expired and foreign leases do not count; an infinite one does');
  assert.is(changed.headers.etag, lan.headers.etag, 'runtime is outside the ETag');
  const all = (await get('/dhcp/servers')).json as Body[];
  assert.equal(all.map((server) => [server.id, server.runtime]), [['lan', { leases: 3, leases6: 2 }], ['wan', { leases: 0, leases6: 0 }]]);
  rmSync(router.path('/tmp/dhcp.leases'));
  assert.equal(((await get('/dhcp/servers/lan')).json as Body).runtime, { leases: 0, leases6: 2 });
});

test.run();
