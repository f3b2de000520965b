// dhcp/hosts, dhcp/servers, dhcp/dnsmasq and dhcp/odhcpd through the CGI path: what each write puts
// in /etc/config/dhcp, which init scripts it reloads and in which order, and that a refused write
// changes no file under /etc and reloads nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';
import { sectionText as sectionOf } from '../support/files.js';

type Body = Record<string, any>;

const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/dhcp', import.meta.url), 'utf8');
const RELOAD = ['dnsmasq', 'odhcpd'];
const [M1, M2, M3, M4] = ['52:54:00:aa:bb:01', '52:54:00:aa:bb:02', '52:54:00:aa:bb:03', '52:54:00:aa:bb:04'];

let router: Router;
let authorization: string;
const { call, refused, ...checks } = writeChecks(() => ({ router, authorization }));
/** dhcp/hosts and dhcp/servers reload dnsmasq, then odhcpd. */
const written = (request: RequestOptions, services = RELOAD) => checks.written(request, services);
const dhcp = () => readFileSync(router.path('/etc/config/dhcp'), 'utf8');
const options = (name: string) => Object.fromEntries(parseUci(dhcp()).sections.find((section) => section.name === name)!.options);

const sectionText = (header: string) => sectionOf(dhcp(), header);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

test('dhcp/hosts: one MAC is written as option mac, two as list mac; tag reads as an array and takes a space-separated string', async () => {
  assert.equal((await call({ method: 'GET', path: '/dhcp/hosts' })).json, [], 'the stock configuration has no hosts');
  const nas = await written({ method: 'POST', path: '/dhcp/hosts', body: { id: 'nas', name: 'nas', macs: [M1], ip: '192.168.1.10' } });
  assert.equal(nas, { id: 'nas', managed: true, name: 'nas', macs: [M1], ip: '192.168.1.10', tag: [], match_tags: [], dhcp_option: [] });
  assert.is(sectionText("config host 'nas'"), `config host 'nas'\n\toption name 'nas'\n\toption mac '${M1}'\n\toption ip '192.168.1.10'\n`);
  const tv = await written({ method: 'POST', path: '/dhcp/hosts', body: { id: 'tv', name: 'tv', macs: [M2, M3], ip: '192.168.1.11', tag: ' media  known ' } });
  assert.equal(tv.macs, [M2, M3]);
  assert.equal(tv.tag, ['media', 'known']);
  assert.is(
    sectionText("config host 'tv'"),
    `config host 'tv'\n\toption name 'tv'\n\tlist mac '${M2}'\n\tlist mac '${M3}'\n\toption ip '192.168.1.11'\n\tlist tag 'media'\n\tlist tag 'known'\n`,
  );
  const read = await call({ method: 'GET', path: '/dhcp/hosts/tv' });
  assert.equal(read.json, tv);
  assert.match(read.headers.etag, /^"[0-9a-f]{16}"$/);
  assert.equal(((await call({ method: 'GET', path: '/dhcp/hosts' })).json as Body[]).map((host) => host.id), ['nas', 'tv']);
  // Down to one MAC, the list becomes the option odhcpd reads; a string tag replaces the list.
  const patch = { 'content-type': 'application/json-patch+json' };
  await written({ method: 'PATCH', path: '/dhcp/hosts/tv', headers: patch, body: JSON.stringify([{ op: 'remove', path: '/macs/0' }]) });
  await written({ method: 'PATCH', path: '/dhcp/hosts/tv', body: { tag: 'tv' } });
  assert.is(sectionText("config host 'tv'"), `config host 'tv'\n\toption name 'tv'\n\toption mac '${M3}'\n\toption ip '192.168.1.11'\n\tlist tag 'tv'\n`);
  const cleared = await written({ method: 'PATCH', path: '/dhcp/hosts/tv', body: { tag: '' } });
  assert.equal(cleared.tag, []);
  assert.not.ok('tag' in options('tv'));
});

test('dhcp/hosts: the 2.x MAC fields, hosts that cannot match a client and malformed values are refused', async () => {
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'x', mac: M1, mac_aliases: [M2] } }, 422, ['mac:unknown_field', 'mac_aliases:unknown_field']);
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { ip: '192.168.1.12' } }, 422, ['macs:required']);
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { macs: [M1] } }, 422, ['ip:required']);
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: '12h', macs: [M1] } }, 422, ['name:conflict']);
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'x', macs: ['52-54-00-aa-bb-01'], tag: 'ok bad,tag' } }, 422, ['macs[0]:invalid_format', 'tag:invalid_format']);
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'x', tag: ['a*'], leasetime: '1h30m' } }, 422, ['tag[0]:invalid_format', 'leasetime:invalid_format']);
  // dnsmasq raises a lease under 120 s and overflows past 2^31-1 s: each unit's range is the schema's pattern.
  for (const leasetime of ['60', '119s', '1m', '2147483648', '35791395m', '596524h', '24856d', '3551w']) {
    await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'x', leasetime } }, 422, ['leasetime:invalid_format']);
  }
  for (const leasetime of ['120', '0120', '2m', '2147483647s', '3550w', 'infinite']) {
    const accepted = await call({ method: 'PATCH', path: '/dhcp/servers/lan', body: { leasetime } });
    assert.is(accepted.status, 200, `${leasetime}: ${accepted.body}`);
  }
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'x', dns: true } }, 422, ['dns:conflict']);
  const instance = await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'x', instance: 'nosuch' } }, 422, ['instance:conflict']);
  assert.match(instance.errors[0].message, 'nosuch');
  await refused({ method: 'POST', path: '/dhcp/hosts', body: '{"name":' }, 400, 'bad_request');
});

test('dhcp/hosts: an ip is unique among enabled hosts of a dnsmasq instance; a host sent back unchanged keeps its own', async () => {
  const nas = await written({ method: 'POST', path: '/dhcp/hosts', body: { id: 'nas', name: 'nas', macs: [M1], ip: '192.168.1.10' } });
  const clash = await refused({ method: 'POST', path: '/dhcp/hosts', body: { name: 'other', macs: [M2], ip: '192.168.1.10' } }, 422, ['ip:conflict']);
  assert.match(clash.errors[0].message, 'host nas already has ip 192.168.1.10');
  const before = dhcp();
  assert.equal(await written({ method: 'PUT', path: '/dhcp/hosts/nas', body: nas }), nas, 'the rule skips the section written');
  assert.is(dhcp(), before);
  await written({ method: 'PATCH', path: '/dhcp/hosts/nas', body: { leasetime: '1d' } });
  // A disabled host is skipped by dnsmasq: it may share the address, until it is enabled.
  const spare = await written({ method: 'POST', path: '/dhcp/hosts', body: { name: 'spare', macs: [M2], ip: '192.168.1.10', enabled: false } });
  assert.is(options(spare.id).enable, '0');
  await refused({ method: 'PATCH', path: `/dhcp/hosts/${spare.id}`, body: { enabled: true } }, 422, ['ip:conflict']);
  // A host without instance is in every instance; with instances set, only hosts of one instance clash.
  writeFileSync(router.path('/etc/config/dhcp'), `${dhcp()}\nconfig dnsmasq 'guest'\n\toption domain 'guest'\n`);
  const guest = { name: 'cam', macs: [M3], ip: '192.168.1.10', instance: 'guest' };
  await refused({ method: 'POST', path: '/dhcp/hosts', body: guest }, 422, ['ip:conflict']);
  const main = parseUci(dhcp()).sections.find((section) => section.type === 'dnsmasq')!.name;
  assert.match(main, /^cfg[0-9a-f]{6}$/, 'the stock instance is anonymous; libuci and dnsmasq.init name it alike');
  await written({ method: 'PATCH', path: '/dhcp/hosts/nas', body: { instance: main } });
  const cam = await written({ method: 'POST', path: '/dhcp/hosts', body: guest });
  assert.is(options(cam.id).instance, 'guest');
  await refused({ method: 'POST', path: '/dhcp/hosts', body: { ...guest, name: 'cam2', macs: [M4] } }, 422, ['ip:conflict']);
});

test('dhcp/hosts: DELETE answers 204 with the reload headers and removes the section', async () => {
  const host = await written({ method: 'POST', path: '/dhcp/hosts', body: { name: 'nas', macs: [M1], ip: '192.168.1.10' } });
  assert.match(host.id, /^h_[0-9A-HJKMNP-TV-Z]{26}$/);
  await written({ method: 'DELETE', path: `/dhcp/hosts/${host.id}` });
  assert.is(dhcp(), STOCK);
  await refused({ method: 'DELETE', path: `/dhcp/hosts/${host.id}` }, 404, 'not_found');
  const again = await written({ method: 'POST', path: '/dhcp/hosts', body: { id: 'nas', name: 'nas', macs: [M1], ip: '192.168.1.10' } });
  await written({ method: 'DELETE', path: `/dhcp/hosts/${again.id}` });
  assert.is(dhcp(), STOCK);
});

test('dhcp/servers: GET lan reads the stock section; a PATCH stages network for the interface reference and leaves it byte-identical', async () => {
  const lan = await call({ method: 'GET', path: '/dhcp/servers/lan' });
  assert.is(lan.status, 200, lan.body);
  assert.equal(lan.json, {
    id: 'lan', managed: true, interface: 'lan', start: 100, limit: 150, leasetime: '12h', dhcpv4: 'server', dhcpv6: 'server', ra: 'server',
    ra_flags: ['managed-config', 'other-config'], ra_slaac: true, dns: [], ntp: [], tag: [], dhcp_option: [], dhcp_option_force: [],
    runtime: { leases: 2, leases6: 1 },
  });
  assert.equal(((await call({ method: 'GET', path: '/dhcp/servers' })).json as Body[]).map((server) => [server.id, server.ignore ?? false]), [['lan', false], ['wan', true]]);
  const network = readFileSync(router.path('/etc/config/network'));
  const patched = await written({ method: 'PATCH', path: '/dhcp/servers/lan', body: { leasetime: '24h' } });
  const { runtime: _runtime, ...configured } = lan.json as Body;
  assert.equal(patched, { ...configured, leasetime: '24h' });
  assert.is(dhcp(), STOCK.replace("option leasetime '12h'", "option leasetime '24h'"), 'only the changed option was written');
  assert.equal(readFileSync(router.path('/etc/config/network')), network);
  // A pool start ipcalc.sh moves off the router's address (192.168.1.1) is not refused.
  await written({ method: 'PATCH', path: '/dhcp/servers/lan', body: { start: 1, limit: 10 } });
  assert.equal([options('lan').start, options('lan').limit], ['1', '10']);
});

test('dhcp/servers: domain is one space-separated string (uapi\'s provider), written as one option odhcpd splits, read from a list too', async () => {
  const patched = await written({ method: 'PATCH', path: '/dhcp/servers/lan', body: { domain: ' lan  example.com ' } });
  assert.is(patched.domain, 'lan example.com');
  assert.is(options('lan').domain, 'lan example.com');
  assert.is(dhcp(), STOCK.replace("\tlist ra_flags 'other-config'\n", "\tlist ra_flags 'other-config'\n\toption domain 'lan example.com'\n"));
  await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { domain: ['lan'] } }, 422, ['domain:invalid_type']);
  await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { domain: 'lan ex/ample' } }, 422, ['domain:invalid_format']);
  // dn_comp refuses a name past 253 characters, and odhcpd then drops the interface's whole configuration.
  await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { domain: `lan ${'a.'.repeat(126)}ab` } }, 422, ['domain:invalid_format']);
  await written({ method: 'PATCH', path: '/dhcp/servers/lan', body: { domain: `lan ${'a.'.repeat(125)}abc` } });
  // A UCI list (as LuCI writes it) reads joined; a PUT of the read keeps it.
  writeFileSync(router.path('/etc/config/dhcp'), STOCK.replace("\tlist ra_flags 'other-config'\n", "\tlist ra_flags 'other-config'\n\tlist domain 'lan'\n\tlist domain 'example.com'\n"));
  const read = (await call({ method: 'GET', path: '/dhcp/servers/lan' })).json as Body;
  assert.is(read.domain, 'lan example.com');
  const { runtime: _runtime, id: _id, ...body } = read;
  await written({ method: 'PUT', path: '/dhcp/servers/lan', body });
  assert.equal(options('lan').domain, ['lan', 'example.com']);
  const cleared = await written({ method: 'PATCH', path: '/dhcp/servers/lan', body: { domain: null } });
  assert.not.ok('domain' in cleared);
  assert.is(dhcp(), STOCK);
});

test('dhcp/servers: a pool outside the subnet, around the router address or empty, and a dangling interface are refused', async () => {
  const outside = await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { start: 300 } }, 422, ['start:conflict']);
  assert.match(outside.errors[0].message, 'outside the /24 subnet of lan');
  // A /23 puts 192.168.1.1 at offset 257: inside a pool of offsets 200 to 299.
  const around = await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { netmask: '255.255.254.0', start: 200, limit: 100 } }, 422, ['start:conflict']);
  assert.match(around.errors[0].message, "router's own address");
  await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { limit: 0, netmask: '255.0.255.0' } }, 422, ['limit:out_of_range', 'netmask:conflict']);
  await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { ra_maxinterval: 100, ra_mininterval: 90 } }, 422, ['ra_mininterval:conflict']);
  const dangling = await refused({ method: 'PATCH', path: '/dhcp/servers/lan', body: { interface: 'nosuch' } }, 422, ['interface:conflict']);
  assert.match(dangling.errors[0].message, 'no network interface named nosuch');
  await refused({ method: 'POST', path: '/dhcp/servers', body: { interface: 'nosuch' } }, 422, ['interface:conflict']);
  await refused({ method: 'PUT', path: '/dhcp/servers/lan', body: { start: 100 } }, 422, ['interface:required']);
  // ipcalc.sh gives a /31 the network address only: with the router on it, the pool is empty.
  writeFileSync(router.path('/etc/config/network'), `${readFileSync(router.path('/etc/config/network'), 'utf8')}\nconfig interface 'p2p'\n\toption proto 'static'\n\toption ipaddr '10.0.0.0'\n\toption netmask '255.255.255.254'\n`);
  const empty = await refused({ method: 'POST', path: '/dhcp/servers', body: { interface: 'p2p', start: 0, limit: 1 } }, 422, ['limit:conflict']);
  assert.match(empty.errors[0].message, 'would be empty');
  const created = await written({ method: 'POST', path: '/dhcp/servers', body: { id: 'p2p', interface: 'p2p', ignore: true } });
  assert.equal(options(created.id), { interface: 'p2p', ignore: '1' });
  await written({ method: 'DELETE', path: '/dhcp/servers/p2p' });
  assert.is(dhcp(), STOCK);
});

test('dhcp/dnsmasq: the anonymous stock section is the singleton; server forwarders are written as a UCI list', async () => {
  const read = await call({ method: 'GET', path: '/dhcp/dnsmasq' });
  assert.is(read.status, 200, read.body);
  const stock = read.json as Body;
  assert.not.ok('id' in stock);
  assert.equal([stock.domain, stock.local, stock.server, stock.cachesize, stock.rebind_protection, stock.leasefile], ['lan', '/lan/', [], 1000, true, '/tmp/dhcp.leases']);
  assert.match(read.headers.etag, /^"[0-9a-f]{16}"$/);
  const servers = ['1.1.1.1', '/example.com/192.0.2.53#5353', '2606:4700:4700::1111'];
  assert.equal((await written({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { server: servers } }, ['dnsmasq'])).server, servers);
  const [, stockSection, rest] = /^(\nconfig dnsmasq\n(?:\t[^\n]*\n)*)([^]*)$/.exec(STOCK)!;
  assert.is(dhcp(), `${stockSection}${servers.map((server) => `\tlist server '${server}'\n`).join('')}${rest}`, 'still anonymous, with a list appended');
  await refused({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { server: ['dns.google', '1.1.1.1#99999'] } }, 422, ['server[0]:invalid_format', 'server[1]:invalid_format']);
  await refused({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { server: '1.1.1.1' } }, 422, ['server:invalid_type']);
  await refused({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { minport: 2000, maxport: 1000, cachesize: -1 } }, 422, ['maxport:conflict', 'cachesize:out_of_range']);
  await refused({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { rebind_protection: false, rebind_domain: ['example.com'] } }, 422, ['rebind_domain:conflict']);
  await refused({ method: 'PUT', path: '/dhcp/dnsmasq', body: { ...stock, id: 'x' } }, 422, ['id:unknown_field']);
});

test('dhcp/dnsmasq: a plain option server, which dnsmasq.init ignores, reads as null and survives a PUT of the read', async () => {
  writeFileSync(router.path('/etc/config/dhcp'), STOCK.replace("\toption domain 'lan'\n", "\toption domain 'lan'\n\toption server '1.1.1.1'\n"));
  const read = (await call({ method: 'GET', path: '/dhcp/dnsmasq' })).json as Body;
  assert.is(read.server, null);
  const put = await written({ method: 'PUT', path: '/dhcp/dnsmasq', body: { ...read, cachesize: 500 } }, ['dnsmasq']);
  assert.equal(put, { ...read, cachesize: 500 });
  const stored = parseUci(dhcp()).sections[0];
  assert.is(stored.options.get('server'), '1.1.1.1', 'kept as the plain option it was');
  await written({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { server: ['1.1.1.1'] } }, ['dnsmasq']);
  assert.equal(parseUci(dhcp()).sections[0].options.get('server'), ['1.1.1.1'], 'a write makes it the list dnsmasq.init reads');
});

test('dhcp/dnsmasq: the stock rebind_localhost and resolvfile stay writable once rebind_protection is off and noresolv on', async () => {
  // As the DNS-over-TLS recipes leave it: `uci set dhcp.@dnsmasq[0].noresolv=1`, rebind_protection=0.
  writeFileSync(router.path('/etc/config/dhcp'), STOCK.replace("option rebind_protection '1'", "option rebind_protection '0'").replace("\toption filter_a '0'\n", "\toption filter_a '0'\n\toption noresolv '1'\n"));
  const patched = await written({ method: 'PATCH', path: '/dhcp/dnsmasq', body: { server: ['127.0.0.1#5453'] } }, ['dnsmasq']);
  assert.equal([patched.rebind_protection, patched.rebind_localhost, patched.noresolv, patched.resolvfile], [false, true, true, '/tmp/resolv.conf.d/resolv.conf.auto']);
  const sweep = (await call({ method: 'GET', path: '/diagnostics?validate=1' })).json as Body;
  assert.equal(sweep.invalid_sections, []);
});

test('dhcp/odhcpd: loglevel and maindhcp (written 1 and 0) reload odhcpd, then dnsmasq', async () => {
  const read = await call({ method: 'GET', path: '/dhcp/odhcpd' });
  assert.equal(read.json, { maindhcp: false, leasefile: '/tmp/hosts/odhcpd', leasetrigger: '/usr/sbin/odhcpd-update', loglevel: 4 });
  const services = ['odhcpd', 'dnsmasq'];
  assert.is((await written({ method: 'PATCH', path: '/dhcp/odhcpd', body: { loglevel: 6 } }, services)).loglevel, 6);
  assert.is(dhcp(), STOCK.replace("option loglevel '4'", "option loglevel '6'"));
  await written({ method: 'PATCH', path: '/dhcp/odhcpd', body: { maindhcp: true } }, services);
  assert.is(options('odhcpd').maindhcp, '1');
  await written({ method: 'PATCH', path: '/dhcp/odhcpd', body: { maindhcp: false } }, services);
  assert.is(options('odhcpd').maindhcp, '0');
  await refused({ method: 'PATCH', path: '/dhcp/odhcpd', body: { loglevel: 8, maindhcp: 'yes', leasefile: 'tmp/odhcpd' } }, 422, [
    'loglevel:out_of_range', 'maindhcp:invalid_type', 'leasefile:invalid_format',
  ]);
  // odhcpd takes `true`, but dnsmasq.init's [ "$maindhcp" -gt 0 ] does not: it reads as null, kept by a PUT.
  writeFileSync(router.path('/etc/config/dhcp'), dhcp().replace("option maindhcp '0'", "option maindhcp 'true'"));
  const lenient = (await call({ method: 'GET', path: '/dhcp/odhcpd' })).json as Body;
  assert.is(lenient.maindhcp, null);
  await written({ method: 'PUT', path: '/dhcp/odhcpd', body: lenient }, services);
  assert.is(options('odhcpd').maindhcp, 'true');
});

test('dhcp/odhcpd: a missing section answers 404, and a write creates it with the name dnsmasq.init reads', async () => {
  writeFileSync(router.path('/etc/config/dhcp'), STOCK.replace(/\nconfig odhcpd 'odhcpd'\n(\t[^\n]*\n)*/, ''));
  await refused({ method: 'PATCH', path: '/dhcp/odhcpd', body: { loglevel: 9 } }, 422, ['loglevel:out_of_range']);
  const missing = await call({ method: 'GET', path: '/dhcp/odhcpd' });
  assert.is(missing.status, 404);
  assert.is((missing.json as Body).code, 'not_found');
  await written({ method: 'PATCH', path: '/dhcp/odhcpd', body: { maindhcp: true } }, ['odhcpd', 'dnsmasq']);
  assert.is(sectionText("config odhcpd 'odhcpd'"), "config odhcpd 'odhcpd'\n\toption maindhcp '1'\n");
});

test.run();
