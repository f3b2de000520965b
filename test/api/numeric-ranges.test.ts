// The numeric bounds of issue 28 point 5 through the CGI path: every numeric field holds the range
// the program reading it accepts and uses. Each value just past a bound is a 422 naming the field
// (out_of_range for an integer, invalid_format for a number inside a string, which a pattern
// bounds), with every file under /etc unchanged and nothing reloaded; the bounds themselves are
// written. One router serves every case: the refusals change nothing, and the writes that go
// through touch sections no other case reads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { valueAt, type Json } from '../../src/resources/model.js';
import { installDaemons } from '../support/daemons.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { refused, written } = writeChecks(() => ({ router, authorization }));
/** Cases of one kind: all of them on the native engine, every fourth on the slow one. */
const sample = <T>(cases: T[]): T[] => ((process.env.WRTAPI_ENGINE ?? 'wasm') === 'wasm' ? cases.filter((_, i) => i % 4 === 0) : cases);

const WG_KEY = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';
const DNAT = { match: { src_zone: 'wan', proto: ['tcp'], src_dport: '8080', dest_ip: '192.168.1.10' } };
const SNAT = { target: 'SNAT', match: { dest_zone: 'wan', proto: ['tcp'], src_dip: '192.0.2.1', dest_ip: '192.168.1.10' } };
const NAT = { target: 'SNAT', snat_ip: '192.0.2.1', match: { src_zone: 'wan', proto: ['tcp'] } };
const QUEUE = { interface: 'eth1', script: 'simple.qos' };
const VPN = { client: true, dev: 'tun' };
const DHCP = (fields: Body) => ({ proto: 'dhcp', device: 'eth1', ...fields });
const DHCPV6 = (fields: Body) => ({ proto: 'dhcpv6', device: '@wan', ...fields });

/** A write past a bound: the request and the `field:code` errors of its 422. */
type Refusal = [string, RequestOptions, string[]];
const post = (path: string, body: Body): RequestOptions => ({ method: 'POST', path, body });
const patch = (path: string, body: Body): RequestOptions => ({ method: 'PATCH', path, body });

const REFUSED: Refusal[] = [
  ['dropbear port 0 (dropbear would bind a port the kernel picks)', post('/dropbear/instances', { port: 0 }), ['port:out_of_range']],
  ['dnsmasq dnsforwardmax 0 (nothing forwarded)', patch('/dhcp/dnsmasq', { dnsforwardmax: 0 }), ['dnsforwardmax:out_of_range']],
  ['dnsmasq dhcpleasemax 0 (no lease given)', patch('/dhcp/dnsmasq', { dhcpleasemax: 0 }), ['dhcpleasemax:out_of_range']],
  ['dnsmasq server port 0', patch('/dhcp/dnsmasq', { server: ['192.0.2.53#0'] }), ['server[0]:invalid_format']],
  ['dnsmasq local port 65536', patch('/dhcp/dnsmasq', { local: '/example/192.0.2.53#65536' }), ['local:invalid_format']],
  ['dnsmasq maxport below the 1024 an unset minport stands for', patch('/dhcp/dnsmasq', { maxport: 1023 }), ['maxport:conflict']],
  ['firewall zone log 4 (bits 1 and 2 only)', post('/firewall/zones', { name: 'ranged', log: 4 }), ['log:out_of_range']],
  ['firewall nat snat_port 0', post('/firewall/nat', { ...NAT, snat_port: '0' }), ['snat_port:invalid_format']],
  ['firewall nat snat_port range from 0', post('/firewall/nat', { ...NAT, snat_port: '0-1024' }), ['snat_port:invalid_format']],
  ['firewall DNAT to port 0', post('/firewall/redirects', { match: { ...DNAT.match, dest_port: '0' } }), ['match.dest_port:out_of_range']],
  ['firewall DNAT to a range from 0', post('/firewall/redirects', { match: { ...DNAT.match, dest_port: '0-80' } }), ['match.dest_port:out_of_range']],
  ['firewall SNAT to source port 0', post('/firewall/redirects', { ...SNAT, match: { ...SNAT.match, src_dport: '0' } }), ['match.src_dport:out_of_range']],
  ['wireguard listen_port 0', post('/network/interfaces', { id: 'wg_r', proto: 'wireguard', private_key: WG_KEY, listen_port: 0 }), ['listen_port:out_of_range']],
  ['ip6prefix lifetime past 32 bits', patch('/network/interfaces/lan', { ip6prefix: ['fd00:1::/48,4294967296'] }), ['ip6prefix[0]:invalid_format']],
  // reqopts is one field for dhcp and dhcpv6: a number dhcpv6 takes is a conflict under dhcp.
  ['dhcp reqopts 255 (udhcpc takes it for a name and exits)', post('/network/interfaces', { id: 'r4', ...DHCP({ reqopts: ['255'] }) }), ['reqopts[0]:conflict']],
  ['dhcp reqopts 0', post('/network/interfaces', { id: 'r4', ...DHCP({ reqopts: ['0'] }) }), ['reqopts[0]:invalid_format']],
  ['dhcp reqopts 0xff', post('/network/interfaces', { id: 'r4', ...DHCP({ reqopts: ['0xff'] }) }), ['reqopts[0]:invalid_format']],
  ['dhcp sendopts code 255', post('/network/interfaces', { id: 'r4', ...DHCP({ sendopts: ['255:01'] }) }), ['sendopts[0]:invalid_format']],
  ['dhcpv6 reqopts 65536 (odhcp6c keeps 16 bits)', post('/network/interfaces', { id: 'r6', ...DHCPV6({ reqopts: ['65536'] }) }), ['reqopts[0]:invalid_format']],
  ['route table 0 (RT_TABLE_UNSPEC, which netifd refuses)', post('/network/routes', { interface: 'lan', target: '10.70.0.0/16', table: 0 }), ['table:out_of_range']],
  ['rule lookup past 32 bits', post('/network/rules', { src: '10.70.0.0/16', lookup: 4294967296 }), ['lookup:out_of_range']],
  ['8021q vid 4095 (the kernel refuses it)', post('/network/devices', { name: 'eth1.4095', type: '8021q', ifname: 'eth1', vid: 4095 }), ['vid:out_of_range']],
  ['system log_port 0', patch('/system', { log_ip: '192.0.2.9', log_port: 0 }), ['log_port:out_of_range']],
  ['system cronloglevel past crond\'s int', patch('/system', { cronloglevel: 2147483648 }), ['cronloglevel:out_of_range']],
  ['system log sizes past logd\'s KiB * 1024', patch('/system', { log_size: 2097152, log_buffer_size: 2097152 }), ['log_size:out_of_range', 'log_buffer_size:out_of_range']],
  ['uhttpd listen port 0', post('/uhttpd/instances', { listen_http: ['0'], listen_https: ['192.168.1.1:0'] }), ['listen_http[0]:invalid_format', 'listen_https[0]:invalid_format']],
  ['uhttpd timers past seconds * 1000', post('/uhttpd/instances', { listen_http: ['8088'], script_timeout: 2147484, network_timeout: 2147484, http_keepalive: 2147484 }), [
    'script_timeout:out_of_range', 'network_timeout:out_of_range', 'http_keepalive:out_of_range',
  ]],
  ['uhttpd network_timeout 0 and max_requests 0', post('/uhttpd/instances', { listen_http: ['8088'], network_timeout: 0, max_requests: 0 }), ['network_timeout:out_of_range', 'max_requests:out_of_range']],
  ['uhttpd tcp_keepalive past TCP_KEEPINTVL', post('/uhttpd/instances', { listen_http: ['8088'], tcp_keepalive: 32768 }), ['tcp_keepalive:out_of_range']],
  ['prometheus http_keepalive past uhttpd\'s', patch('/prometheus_node_exporter_lua/config', { http_keepalive: 2147484 }), ['http_keepalive:out_of_range']],
  ['unbound interface port 0', patch('/unbound/srv', { interface_bind: ['192.168.1.1@0'] }), ['interface_bind[0]:invalid_format']],
  ['snmpd agent port 0', post('/snmpd/agents', { agentaddress: ['udp:0'] }), ['agentaddress[0]:invalid_format']],
  ['snmpd bare agent port 0', post('/snmpd/agents', { agentaddress: ['udp6:[::1]:1161', '0'] }), ['agentaddress[1]:invalid_format']],
  ['openvpn remote port 0', post('/openvpn/instances', { ...VPN, remote: ['vpn.example.com 0'] }), ['remote[0]:invalid_format']],
  ['sqm queue limits 0 (every packet dropped)', post('/sqm/queues', { ...QUEUE, ilimit: 0, elimit: 0 }), ['ilimit:out_of_range', 'elimit:out_of_range']],
  ['sqm queue limit past 32 bits', post('/sqm/queues', { ...QUEUE, ilimit: 4294967296 }), ['ilimit:out_of_range']],
  ['usteer debug_level 6', patch('/usteer/config', { debug_level: 6 }), ['debug_level:out_of_range']],
  ['usteer load_kick_threshold 101 %', patch('/usteer/config', { load_kick_threshold: 101 }), ['load_kick_threshold:out_of_range']],
  ['usteer load_kick_reason_code 0', patch('/usteer/config', { load_kick_reason_code: 0 }), ['load_kick_reason_code:out_of_range']],
  ['usteer load_kick_reason_code past 16 bits', patch('/usteer/config', { load_kick_reason_code: 65536 }), ['load_kick_reason_code:out_of_range']],
  ['mwan3 rt_table_lookup 0 (ip lists every table)', patch('/mwan3/globals', { rt_table_lookup: ['0'] }), ['rt_table_lookup[0]:invalid_format']],
  ['mwan3 rt_table_lookup past 32 bits', patch('/mwan3/globals', { rt_table_lookup: ['4294967296'] }), ['rt_table_lookup[0]:invalid_format']],
];

/** A write of the bounds themselves: the request, the init scripts it reloads, and the fields whose values the answer must echo. */
type Acceptance = [string, RequestOptions, string[], string[]];

const ACCEPTED: Acceptance[] = [
  ['dropbear port 1', post('/dropbear/instances', { id: 'd_low', port: 1 }), ['dropbear'], ['port']],
  ['dnsmasq minimums and server ports 1-65535 (a source port 0 stays random)', patch('/dhcp/dnsmasq', {
    dnsforwardmax: 1, dhcpleasemax: 1, maxport: 1024, server: ['192.0.2.53#1', '192.0.2.54#65535@192.0.2.1#0'],
  }), ['dnsmasq'], ['dnsforwardmax', 'dhcpleasemax', 'maxport', 'server']],
  ['firewall zone log 3', post('/firewall/zones', { name: 'ranged', log: 3 }), ['firewall'], ['log']],
  ['firewall nat snat_port 1-65535', post('/firewall/nat', { ...NAT, snat_port: '1-65535' }), ['firewall'], ['snat_port']],
  ['firewall DNAT to 1-65535, matching port 0', post('/firewall/redirects', { match: { ...DNAT.match, src_dport: '0', dest_port: '1-65535' } }), ['firewall'], ['match.dest_port', 'match.src_dport']],
  ['firewall SNAT from port 65535, matching port 0', post('/firewall/redirects', { ...SNAT, match: { ...SNAT.match, dest_port: '0', src_dport: '65535' } }), ['firewall'], ['match.dest_port', 'match.src_dport']],
  ['wireguard listen_port 1', post('/network/interfaces', { id: 'wg_r', proto: 'wireguard', private_key: WG_KEY, listen_port: 1 }), ['network'], ['listen_port']],
  ['ip6prefix lifetimes 0 and 4294967295', patch('/network/interfaces/lan', { ip6prefix: ['fd00:1::/48,0,4294967295'] }), ['network'], ['ip6prefix']],
  ['dhcp option codes 1-254, in hex and by name', post('/network/interfaces', { id: 'r4', ...DHCP({ reqopts: ['1', '254', '0xfe', 'staticroutes'], sendopts: ['1:01', '254:01'] }) }), ['network'], ['reqopts', 'sendopts']],
  ['dhcpv6 option codes 1-65535', post('/network/interfaces', { id: 'r6', ...DHCPV6({ reqopts: ['1', '65535'] }) }), ['network'], ['reqopts']],
  ['route table 4294967295', post('/network/routes', { interface: 'lan', target: '10.71.0.0/16', table: 4294967295 }), ['network'], ['table']],
  ['rule lookup 1', post('/network/rules', { src: '10.71.0.0/16', lookup: 1 }), ['network'], ['lookup']],
  ['8021q vid 4094', post('/network/devices', { name: 'eth1.4094', type: '8021q', ifname: 'eth1', vid: 4094 }), ['network'], ['vid']],
  ['8021q vid 0 (priority tags)', post('/network/devices', { name: 'eth1.0', type: '8021q', ifname: 'eth1', vid: 0 }), ['network'], ['vid']],
  ['system bounds', patch('/system', { log_ip: '192.0.2.9', log_port: 1, cronloglevel: 2147483647, log_size: 2097151, log_buffer_size: 2097151 }), ['system', 'log'], [
    'log_port', 'cronloglevel', 'log_size', 'log_buffer_size',
  ]],
  ['uhttpd ports 1-65535 and timer maximums', post('/uhttpd/instances', {
    id: 'u_range', listen_http: ['1', '[::1]:65535'], script_timeout: 2147483, network_timeout: 1, http_keepalive: 2147483, tcp_keepalive: 32767, max_requests: 1,
  }), ['uhttpd'], ['listen_http', 'script_timeout', 'network_timeout', 'http_keepalive', 'tcp_keepalive', 'max_requests']],
  ['uhttpd network_timeout maximum, 0 for no script timeout and no connection limit', post('/uhttpd/instances', {
    id: 'u_range2', listen_http: ['8089'], network_timeout: 2147483, script_timeout: 0, max_connections: 0,
  }), ['uhttpd'], ['network_timeout', 'script_timeout', 'max_connections']],
  ['prometheus http_keepalive maximum', patch('/prometheus_node_exporter_lua/config', { http_keepalive: 2147483 }), ['prometheus-node-exporter-lua'], ['http_keepalive']],
  ['unbound interface ports 1-65535', patch('/unbound/srv', { interface_bind: ['192.168.1.1@1', 'br-lan@65535'] }), ['unbound-uci-ext'], ['interface_bind']],
  ['snmpd agent ports 1-65535', post('/snmpd/agents', { agentaddress: ['udp:1', 'udp6:[::1]:65535'] }), ['snmpd'], ['agentaddress']],
  ['openvpn remote ports 1-65535', post('/openvpn/instances', { ...VPN, remote: ['vpn.example.com 1', 'vpn2.example.com 65535 udp'] }), ['openvpn'], ['remote']],
  ['sqm queue limits 1 and 4294967295', post('/sqm/queues', { ...QUEUE, ilimit: 1, elimit: 4294967295 }), ['sqm'], ['ilimit', 'elimit']],
  ['usteer maximums', patch('/usteer/config', { debug_level: 5, load_kick_threshold: 100, load_kick_reason_code: 65535 }), ['usteer'], ['debug_level', 'load_kick_threshold', 'load_kick_reason_code']],
  ['usteer load_kick_reason_code 1', patch('/usteer/config', { load_kick_reason_code: 1 }), ['usteer'], ['load_kick_reason_code']],
  ['mwan3 rt_table_lookup 1 and 4294967295', patch('/mwan3/globals', { rt_table_lookup: ['1', '4294967295'] }), ['mwan3'], ['rt_table_lookup']],
];

test.before(async () => {
  router = await newRouter();
  await installDaemons(router);
  authorization = `Bearer ${await router.mint('admin', ['*:rw'], ['--rate', '100000', '--burst', '100000'])}`;
});
test.after(async () => {
  await router.cleanup();
});

for (const [name, request, errors] of sample(REFUSED)) {
  test(`refused: ${name}`, async () => {
    await refused(request, 422, errors);
  });
}

for (const [name, request, services, fields] of sample(ACCEPTED)) {
  test(`written: ${name}`, async () => {
    const answer = await written(request, services);
    for (const path of fields) assert.equal(valueAt(answer as Json, path), valueAt(request.body as Json, path), `${name}: ${path}`);
  });
}

test.run();
