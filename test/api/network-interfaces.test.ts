import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

let router: Router;
let auth: Record<string, string>;
const network = () => readFileSync(router.path('/etc/config/network'), 'utf8');
const sectionOf = (name: string) => parseUci(network()).sections.find((section) => section.name === name);
/** What the file means to netifd: its sections in order, each with its options in any order. */
const meaning = (text: string) => parseUci(text).sections.map(({ type, name, options }) => ({ type, name, options: Object.fromEntries([...options].sort()) }));
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();
/** Every log and state file the router wrote, as one text. */
const written = () => router.texts('/var/log', '/tmp', '/var/emu');

const PRIVATE_KEY = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  await router.cleanup();
});

test('the stock interfaces read flat, each field under the protos that read it, every list [] when unset, and runtime from one ubus call', async () => {
  const response = await call({ method: 'GET', path: '/network/interfaces' });
  assert.is(response.status, 200, response.body);
  const interfaces = response.json as Body[];
  assert.equal(interfaces.map((item) => item.id), ['loopback', 'lan', 'wan', 'wan6']);
  const lan = interfaces[1];
  assert.is(lan.proto, 'static');
  assert.equal(lan.ipaddrs, ['192.168.1.1']);
  assert.is(lan.ipaddr, '192.168.1.1');
  assert.is(lan.netmask, '255.255.255.0');
  assert.is(lan.runtime.up, true);
  assert.is(lan.runtime.l3_device, 'br-lan');
  const wan = interfaces[2];
  const lists = { ipaddrs: [], ip6addrs: [], ip6prefix: [], dns: [], dns_search: [], ip6class: [], reqopts: [], sendopts: [], addresses: [] };
  assert.equal({ ...wan, runtime: undefined }, { id: 'wan', managed: true, proto: 'dhcp', device: 'eth1', ...lists, runtime: undefined }, 'a dhcp interface: its lists, the static ones included');
  assert.equal(lan.addresses, [], 'a static interface reads the wireguard list too');
  assert.is(wan.netmask, undefined, 'a scalar only while its proto reads it');
  assert.is(wan.runtime.up, true);
  assert.equal(readFileSync(router.path('/var/log/ubus.log'), 'utf8').split('\n').filter(Boolean), ['network.interface dump'], 'one call for the page');
});

test('the emulated netifd follows the configuration: runtime after a write, and an interface set down by hand', async () => {
  assert.is((await call({ method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddrs: ['192.168.2.1/24'], netmask: null } })).status, 200);
  assert.equal(((await call({ method: 'GET', path: '/network/interfaces/lan' })).json as Body).runtime.ipv4_address, [{ address: '192.168.2.1', mask: 24 }]);
  assert.is((await call({ method: 'PATCH', path: '/network/interfaces/wan', body: { disabled: true } })).status, 200);
  assert.is(((await call({ method: 'GET', path: '/network/interfaces/wan' })).json as Body).runtime.up, false);
  writeFileSync(router.path('/var/emu/netifd/loopback.down'), '');
  const loopback = ((await call({ method: 'GET', path: '/network/interfaces/loopback' })).json as Body).runtime;
  assert.equal([loopback.up, loopback.l3_device], [false, undefined]);
  assert.is(((await call({ method: 'GET', path: '/network/interfaces/wan6' })).json as Body).runtime.up, false, 'the stock wan6 has no DHCPv6 upstream');
});

test('runtime members are snake_case, as the provider reads them, and follow the configuration as netifd\'s dump does', async () => {
  const lan = ((await call({ method: 'GET', path: '/network/interfaces/lan' })).json as Body).runtime;
  assert.equal(Object.keys(lan).sort(), [
    'available', 'device', 'dns_server', 'ipv4_address', 'ipv6_address', 'ipv6_prefix', 'ipv6_prefix_assignment', 'l3_device', 'pending', 'proto', 'route', 'up', 'uptime',
  ]);
  // The stock ULA prefix (globals) assigned to lan by its ip6assign 60, the router's address ::1 in it.
  assert.equal(lan.ipv6_prefix_assignment, [{ address: 'fd4c:7e19:a3b2::', mask: 60, local_address: { address: 'fd4c:7e19:a3b2::1', mask: 60 } }]);
  const created = await call({
    method: 'POST',
    path: '/network/interfaces',
    body: {
      id: 'lab', proto: 'static', device: 'eth2', ipaddrs: ['10.7.0.1/24'], gateway: '10.7.0.254', ip6addrs: ['2001:db8:7::1/64'],
      ip6prefix: ['2001:db8:700::/56'], ip6assign: 64, dns: ['9.9.9.9'],
    },
  });
  assert.is(created.status, 200, created.body);
  assert.equal(Object.fromEntries(sectionOf('lab')!.options), {
    proto: 'static', device: 'eth2', ipaddr: '10.7.0.1/24', gateway: '10.7.0.254', ip6addr: '2001:db8:7::1/64', ip6prefix: ['2001:db8:700::/56'], ip6assign: '64', dns: ['9.9.9.9'],
  });
  assert.is((await call({ method: 'POST', path: '/network/routes', body: { interface: 'lab', target: '10.8.0.0/16', gateway: '10.7.0.2' } })).status, 200);
  const lab = ((await call({ method: 'GET', path: '/network/interfaces/lab' })).json as Body).runtime;
  assert.equal(lab.ipv4_address, [{ address: '10.7.0.1', mask: 24 }]);
  assert.equal(lab.ipv6_address, [{ address: '2001:db8:7::1', mask: 64 }]);
  // Its prefix is handed out too: lan's /60 first (the larger subnet), then lab's /64 after it.
  assert.equal(lab.ipv6_prefix, [{ address: '2001:db8:700::', mask: 56, class: 'lab', assigned: { lan: { address: '2001:db8:700::', mask: 60 }, lab: { address: '2001:db8:700:10::', mask: 64 } } }]);
  assert.equal(lab.ipv6_prefix_assignment.map((item: Body) => [item.address, item.mask, item.local_address.address]), [
    ['fd4c:7e19:a3b2:10::', 64, 'fd4c:7e19:a3b2:10::1'],
    ['2001:db8:700:10::', 64, '2001:db8:700:10::1'],
  ]);
  assert.equal(lab.route, [
    { target: '0.0.0.0', mask: 0, nexthop: '10.7.0.254', source: '0.0.0.0/0' },
    { target: '10.8.0.0', mask: 16, nexthop: '10.7.0.2', source: '0.0.0.0/0' },
  ]);
  assert.equal(lab.dns_server, ['9.9.9.9']);
  const wg = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'wg1', proto: 'wireguard', private_key: PRIVATE_KEY, addresses: ['10.9.0.1/24', 'fd00:9::1'] } });
  assert.is(wg.status, 200, wg.body);
  const tunnel = ((await call({ method: 'GET', path: '/network/interfaces/wg1' })).json as Body).runtime;
  assert.equal([tunnel.l3_device, tunnel.device, tunnel.ipv4_address, tunnel.ipv6_address], ['wg1', undefined, [{ address: '10.9.0.1', mask: 24 }], [{ address: 'fd00:9::1', mask: 128 }]]);
  // What a dhcp interface learned, with ubus's hyphenated keys, reads snake_case too.
  const wan = ((await call({ method: 'GET', path: '/network/interfaces/wan' })).json as Body).runtime;
  assert.equal([wan.ipv4_address, wan.dns_server, wan.ipv6_prefix], [[{ address: '10.0.2.15', mask: 24 }], ['10.0.2.3'], []]);
  assert.not.match(JSON.stringify(((await call({ method: 'GET', path: '/network/interfaces' })).json as Body[]).map((item) => item.runtime)), /"[a-z0-9_]*-[a-z0-9_-]*":/);
});

test('runtime is outside the ETag, null when the bus does not answer, and ignored in a write', async () => {
  const up = await call({ method: 'GET', path: '/network/interfaces/lan' });
  writeFileSync(router.path('/var/emu/ubus-down'), '');
  const down = await call({ method: 'GET', path: '/network/interfaces/lan' });
  assert.is(down.status, 200, down.body);
  assert.is((down.json as Body).runtime, null);
  assert.is(down.headers.etag, up.headers.etag);
  const before = network();
  const put = await call({ method: 'PUT', path: '/network/interfaces/lan', body: { ...(up.json as Body), runtime: { up: false } } });
  assert.is(put.status, 200, put.body);
  assert.equal(meaning(network()), meaning(before), 'a read sent back changes nothing, runtime and ipaddr included');
});

test('a read-only field set to a value no read gives is 422 read_only, never dropped; what a read gives before or after the write is tolerated', async () => {
  const before = network();
  for (const request of [
    { method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddr: '10.0.0.1' } },
    { method: 'PUT', path: '/network/interfaces/lan', body: { proto: 'static', device: 'br-lan', ipaddrs: ['192.168.1.1'], ipaddr: '192.168.9.9' } },
    { method: 'POST', path: '/network/interfaces', body: { id: 'lab', proto: 'static', device: 'eth9', ipaddrs: ['10.9.0.1/24'], ipaddr: '10.9.0.2/24' } },
    { method: 'PATCH', path: '/network/interfaces/lan', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/ipaddr', value: '10.0.0.1' }]) },
  ]) {
    const refused = await call(request);
    assert.is(refused.status, 422, `${request.method} ${refused.body}`);
    assert.equal(fieldErrors(refused), ['ipaddr:read_only']);
    assert.match((refused.json as Body).errors[0].message, 'read-only');
  }
  // A write-only field's flag is read-only too: a key is set by writing it.
  const wifi = await call({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { has_key: true } });
  assert.equal([wifi.status, fieldErrors(wifi)], [422, ['has_key:read_only']]);
  assert.is(network(), before, 'nothing was written');
  // The value a read gives: the one before the write (a read sent back) or the one after it.
  assert.is((await call({ method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddr: '192.168.1.1', ipaddrs: ['192.168.3.1'] } })).status, 200);
  const after = await call({ method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddr: '192.168.4.1', ipaddrs: ['192.168.4.1'] } });
  assert.is(after.status, 200, after.body);
  assert.is((after.json as Body).ipaddr, '192.168.4.1');
  const created = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'lab', proto: 'static', device: 'eth9', ipaddrs: ['10.9.0.1'], ipaddr: '10.9.0.1' } });
  assert.is(created.status, 200, created.body);
  assert.is((await call({ method: 'PATCH', path: '/network/interfaces/lab', body: { ipaddr: null } })).status, 422, 'null clears nothing here');
  assert.is((await call({ method: 'PATCH', path: '/network/interfaces/wan', body: { ipaddr: null } })).status, 200, 'null stands for what a read leaves out');
});

test('a wireguard interface gets a short generated id, and its private key is write-only everywhere', async () => {
  const created = await call({
    method: 'POST',
    path: '/network/interfaces',
    body: { proto: 'wireguard', private_key: PRIVATE_KEY, listen_port: 51820, addresses: ['10.9.0.1/24'] },
  });
  assert.is(created.status, 200, created.body);
  const body = created.json as Body;
  assert.match(body.id, /^wg_[a-z0-9]{11}$/);
  assert.equal([body.has_private_key, body.listen_port, body.addresses, body.private_key], [true, 51820, ['10.9.0.1/24'], undefined]);
  assert.is(created.headers['x-reload-services'], 'network');
  assert.is(sectionOf(body.id)!.options.get('private_key'), PRIVATE_KEY);
  assert.not.ok(created.body.includes(PRIVATE_KEY));
  const read = await call({ method: 'GET', path: `/network/interfaces/${body.id}` });
  assert.not.ok(read.body.includes(PRIVATE_KEY));
  // A merge patch without the key keeps it; a read sent back keeps it too.
  assert.is((await call({ method: 'PATCH', path: `/network/interfaces/${body.id}`, body: { listen_port: 51821 } })).status, 200);
  assert.is((await call({ method: 'PUT', path: `/network/interfaces/${body.id}`, body: (await call({ method: 'GET', path: `/network/interfaces/${body.id}` })).json })).status, 200);
  assert.is(sectionOf(body.id)!.options.get('private_key'), PRIVATE_KEY);
  assert.not.ok(written().includes(PRIVATE_KEY), 'no log or state file holds the key');
});

test('a wireguard interface id is at most 15 characters; a bad key is refused and nothing changes', async () => {
  const before = router.snapshot();
  const long = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'wireguard_tunnel', proto: 'wireguard', private_key: PRIVATE_KEY } });
  assert.is(long.status, 422, long.body);
  assert.equal(fieldErrors(long), ['proto:conflict']);
  const badKey = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'wg0', proto: 'wireguard', private_key: 'not-a-key' } });
  assert.is(badKey.status, 422);
  assert.equal(fieldErrors(badKey), ['private_key:invalid_format']);
  assert.not.ok(badKey.body.includes('not-a-key'), 'the refused secret is not echoed');
  const wrongProto = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'x1', proto: 'static', username: 'u', private_key: PRIVATE_KEY, reqopts: [] } });
  assert.equal(fieldErrors(wrongProto), ['private_key:conflict', 'username:conflict'], 'an empty list is no value');
  assert.match(((wrongProto.json as Body).errors as Body[]).find((error) => error.field === 'username')!.message, 'username applies only with proto pppoe');
  assert.not.ok(wrongProto.body.includes(PRIVATE_KEY));
  assert.equal(router.snapshot(), before);
});

test('changing proto drops the old proto\'s options and its secret; a field the new proto does not read must be cleared, one it reads stays', async () => {
  const created = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'isp', proto: 'pppoe', device: 'eth1', username: 'me', password: 's3cret-pw', norelease: true } });
  assert.is(created.status, 200, created.body);
  const read = created.json as Body;
  assert.equal([read.username, read.has_password, read.norelease, read.password], ['me', true, true, undefined]);
  assert.equal(Object.fromEntries(sectionOf('isp')!.options), { proto: 'pppoe', device: 'eth1', username: 'me', password: 's3cret-pw', norelease: '1' });
  const stale = await call({ method: 'PATCH', path: '/network/interfaces/isp', body: { proto: 'dhcp' } });
  assert.equal(fieldErrors(stale), ['username:conflict']);
  const switched = await call({ method: 'PATCH', path: '/network/interfaces/isp', body: { proto: 'dhcp', username: null, hostname: 'router' } });
  assert.is(switched.status, 200, switched.body);
  // dhcp.sh reads norelease as pppoe does: it stays; the password goes with the proto that read it.
  assert.equal(Object.fromEntries(sectionOf('isp')!.options), { proto: 'dhcp', device: 'eth1', norelease: '1', hostname: 'router' });
  const after = switched.json as Body;
  assert.equal([after.hostname, after.norelease, after.has_password, after.username], ['router', true, undefined, undefined]);
});

test('an option several protos read is one field: clientid and reqopts held to what each proto takes, dhcp\'s broadcast flag beside static\'s address', async () => {
  const dhcp = await call({
    method: 'PUT',
    path: '/network/interfaces/wan',
    body: { proto: 'dhcp', device: 'eth1', clientid: '01:aa:bb:cc:dd:ee:ff', reqopts: ['121', 'staticroutes'], broadcast_flag: true, hostname: 'edge' },
  });
  assert.is(dhcp.status, 200, dhcp.body);
  assert.equal(Object.fromEntries(sectionOf('wan')!.options), { proto: 'dhcp', device: 'eth1', clientid: '01:aa:bb:cc:dd:ee:ff', reqopts: '121 staticroutes', broadcast: '1', hostname: 'edge' });
  assert.equal([(dhcp.json as Body).broadcast_flag, (dhcp.json as Body).broadcast], [true, undefined]);
  const v6 = await call({ method: 'PUT', path: '/network/interfaces/wan6', body: { proto: 'dhcpv6', device: 'eth1', clientid: '000300010102030405', reqopts: ['23', '300'], reqprefix: '56', norelease: true } });
  assert.is(v6.status, 200, v6.body);
  assert.equal(Object.fromEntries(sectionOf('wan6')!.options), { proto: 'dhcpv6', device: 'eth1', clientid: '000300010102030405', reqopts: '23 300', reqprefix: '56', norelease: '1' });
  const before = network();
  const put = (id: string, body: Body) => call({ method: 'PUT', path: `/network/interfaces/${id}`, body });
  assert.equal(fieldErrors(await put('wan6', { proto: 'dhcpv6', clientid: '00:03:00:01', reqopts: ['staticroutes'] })), ['clientid:conflict', 'reqopts[0]:conflict']);
  assert.equal(fieldErrors(await put('wan', { proto: 'dhcp', reqopts: ['300'] })), ['reqopts[0]:conflict']);
  assert.equal(fieldErrors(await put('wan', { proto: 'dhcp', reqopts: ['65536'] })), ['reqopts[0]:conflict', 'reqopts[0]:invalid_format']);
  assert.equal(fieldErrors(await put('wan', { proto: 'static', broadcast_flag: true, broadcast: '192.168.9.255', ipaddrs: ['192.168.9.1/24'] })), ['broadcast_flag:conflict']);
  assert.equal(fieldErrors(await put('lan', { proto: 'dhcp', broadcast: '192.168.9.255' })), ['broadcast:conflict']);
  assert.is(network(), before, 'nothing was written');
  // A stored `true` means yes to dhcp.sh and no to dhcpv6.sh: it reads null, and a PUT of the read keeps it.
  appendFileSync(router.path('/etc/config/network'), "\nconfig interface 'v6b'\n\toption proto 'dhcpv6'\n\toption norelease 'true'\n");
  const odd = (await call({ method: 'GET', path: '/network/interfaces/v6b' })).json as Body;
  assert.is(odd.norelease, null);
  assert.is((await put('v6b', odd)).status, 200);
  assert.is(sectionOf('v6b')!.options.get('norelease'), 'true');
});

test('dhcp reqopts are written as one option, which dhcp.sh reads', async () => {
  const response = await call({ method: 'PUT', path: '/network/interfaces/wan', body: { proto: 'dhcp', device: 'eth1', reqopts: ['121', '249'] } });
  assert.is(response.status, 200, response.body);
  assert.is(sectionOf('wan')!.options.get('reqopts'), '121 249');
  assert.equal((response.json as Body).reqopts, ['121', '249']);
});

test('X-Mgmt-Path-Warning when a write changes the caller\'s own interface, and not otherwise', async () => {
  const lan = await call({ method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddrs: ['192.168.1.1/24'], netmask: null } });
  assert.is(lan.status, 200, lan.body);
  assert.is(lan.headers['x-mgmt-path-warning'], 'interface=lan changed=ipaddrs,netmask');
  const quiet = await call({ method: 'PATCH', path: '/network/interfaces/lan', body: { dns: ['9.9.9.9'] } });
  assert.is(quiet.headers['x-mgmt-path-warning'], undefined, 'dns is not a path field');
  const other = await call({ method: 'PATCH', path: '/network/interfaces/wan', body: { disabled: true } });
  assert.is(other.headers['x-mgmt-path-warning'], undefined, 'wan is not the path of a LAN caller');
  const local = await call({ method: 'PATCH', path: '/network/interfaces/lan', body: { disabled: true }, remote: '127.0.0.1', https: false });
  assert.is(local.status, 200, local.body);
  assert.is(local.headers['x-mgmt-path-warning'], undefined, 'a loopback caller comes through loopback');
});

test('X-Mgmt-Path-Warning names the caller\'s device on a device write', async () => {
  const bridge = ((await call({ method: 'GET', path: '/network/devices' })).json as Body[]).find((item) => item.name === 'br-lan')!;
  const adopted = await call({ method: 'POST', path: `/network/devices/${bridge.id}/adopt` });
  assert.is(adopted.status, 200, adopted.body);
  const patched = await call({ method: 'PATCH', path: `/network/devices/${(adopted.json as Body).id}`, body: { mtu: 1500 } });
  assert.is(patched.status, 200, patched.body);
  assert.is(patched.headers['x-mgmt-path-warning'], 'device=br-lan changed=updated');
  const other = await call({ method: 'POST', path: '/network/devices', body: { name: 'eth1.10', type: '8021q', ifname: 'eth1', vid: 10 } });
  assert.is(other.status, 200, other.body);
  assert.is(other.headers['x-mgmt-path-warning'], undefined);
});

test('an interface a route, a DHCP pool, a wifi-iface or a zone names cannot be deleted; deleting the caller\'s interface warns', async () => {
  assert.is((await call({ method: 'POST', path: '/network/routes', body: { id: 'r1', family: 'ipv4', interface: 'wan', target: '10.0.0.0/8' } })).status, 200);
  const refused = await call({ method: 'DELETE', path: '/network/interfaces/wan' });
  assert.is(refused.status, 409, refused.body);
  assert.match((refused.json as Body).message, /network\/routes\/r1/);
  assert.is((await call({ method: 'DELETE', path: '/network/routes/r1' })).status, 204);
  assert.is((await call({ method: 'DELETE', path: '/dhcp/servers/lan' })).status, 204, 'the lan DHCP pool names lan too');
  const bridged = await call({ method: 'DELETE', path: '/network/interfaces/lan' });
  assert.is(bridged.status, 409, bridged.body);
  assert.match((bridged.json as Body).message, /wireless\/interfaces\/default_radio0 \(network: lan\)/, 'the stock wifi-ifaces join lan too');
  assert.match((bridged.json as Body).message, /firewall\/zones\/cfg\w+ \(network: lan\)/, 'the stock lan zone names it too');
  for (const id of ['default_radio0', 'default_radio1']) assert.is((await call({ method: 'PATCH', path: `/wireless/interfaces/${id}`, body: { network: null } })).status, 200);
  const zone = ((await call({ method: 'GET', path: '/firewall/zones' })).json as Body[]).find((item) => item.name === 'lan')!;
  const adopted = (await call({ method: 'POST', path: `/firewall/zones/${zone.id}/adopt` })).json as Body;
  assert.is((await call({ method: 'PATCH', path: `/firewall/zones/${adopted.id}`, body: { network: [] } })).status, 200);
  const removed = await call({ method: 'DELETE', path: '/network/interfaces/lan' });
  assert.is(removed.status, 204, removed.body);
  assert.is(removed.headers['x-mgmt-path-warning'], 'interface=lan changed=removed');
  assert.not.ok(sectionOf('lan'));
});

test('X-Mgmt-Path-Warning on a bridge VLAN of the caller\'s device, created and removed', async () => {
  const created = await call({ method: 'POST', path: '/network/bridge_vlans', body: { id: 'v10', device: 'br-lan', vlan: 10, ports: ['eth0:t'] } });
  assert.is(created.status, 200, created.body);
  assert.is(created.headers['x-mgmt-path-warning'], 'device=br-lan changed=created');
  const removed = await call({ method: 'DELETE', path: '/network/bridge_vlans/v10' });
  assert.is(removed.status, 204, removed.body);
  assert.is(removed.headers['x-mgmt-path-warning'], 'device=br-lan changed=removed');
});

test('a device section an interface names stays; a zone naming no interface is refused', async () => {
  const bridge = ((await call({ method: 'GET', path: '/network/devices' })).json as Body[]).find((item) => item.name === 'br-lan')!;
  const adopted = (await call({ method: 'POST', path: `/network/devices/${bridge.id}/adopt` })).json as Body;
  const refused = await call({ method: 'DELETE', path: `/network/devices/${adopted.id}` });
  assert.is(refused.status, 409, refused.body);
  assert.match((refused.json as Body).message, /network\/interfaces\/lan \(device: br-lan\)/);
  const plain = await call({ method: 'POST', path: '/network/interfaces', body: { id: 'lan2', proto: 'static', device: 'eth9', ipaddrs: ['10.2.0.1/24'] } });
  assert.is(plain.status, 200, 'a plain kernel device needs no section');
  const before = router.snapshot();
  const zone = await call({ method: 'POST', path: '/firewall/zones', body: { name: 'guest', network: ['lan2', '!nosuch'] } });
  assert.is(zone.status, 422, zone.body);
  assert.equal(fieldErrors(zone), ['network[1]:conflict']);
  assert.equal(router.snapshot(), before);
});

test('an interface of a proto this resource does not model reads, and a PUT of the read keeps its options', async () => {
  appendFileSync(router.path('/etc/config/network'), "\nconfig interface 'vpn'\n\toption proto 'l2tp'\n\toption server 'vpn.example.net'\n\toption username 'me'\n");
  const read = await call({ method: 'GET', path: '/network/interfaces/vpn' });
  assert.is((read.json as Body).proto, 'l2tp');
  const before = meaning(network());
  const put = await call({ method: 'PUT', path: '/network/interfaces/vpn', body: { ...(read.json as Body), metric: 10 } });
  assert.is(put.status, 200, put.body);
  const options = Object.fromEntries(sectionOf('vpn')!.options);
  assert.equal(options, { proto: 'l2tp', server: 'vpn.example.net', username: 'me', metric: '10' });
  assert.not.equal(meaning(network()), before);
  // Once it is a modelled proto, a PUT replaces the section as for any resource.
  assert.is((await call({ method: 'PUT', path: '/network/interfaces/vpn', body: { proto: 'dhcp', device: 'eth2' } })).status, 200);
  assert.equal(Object.fromEntries(sectionOf('vpn')!.options), { proto: 'dhcp', device: 'eth2' });
});

test.run();
