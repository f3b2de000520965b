// snmpd, mwan3 and openvpn as Terraform configurations set them (provider 3.0 JSON). The emulated
// router has the packages' shipped files (test/fixtures/uci/upstream): the imports adopt their
// stock sections, the anonymous snmpd agent among them.
import type { ReplayCase } from '../case.js';

const CERTS = { ca: '/etc/openvpn/pki/ca.crt', cert: '/etc/openvpn/pki/server.crt', key: '/etc/openvpn/pki/server.key' };

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_snmpd_agent',
    create: { agentaddress: ['udp:127.0.0.1:1161'] },
    update: { agentaddress: ['udp:127.0.0.1:1161', 'unix:/var/run/snmpd-agent.sock'] },
    imports: 'cfg018054',
  },
  {
    resource: 'uapi_snmpd_com2sec',
    create: { id: 'noc_ro', secname: 'noc', source: '10.20.0.0/16', community: 'n0c-read' },
    update: { source: '10.20.30.0/24', community: 'n0c-read-2' },
    imports: 'public',
  },
  {
    resource: 'uapi_snmpd_com2sec',
    title: 'a host name source; the stock com2sec6 imports (the provider, which has no family, creates com2sec only)',
    create: { secname: 'ro', source: 'nms.example.net', community: 'n0c-host' },
    update: { source: 'nms2.example.net' },
    imports: 'public6',
  },
  {
    resource: 'uapi_snmpd_group',
    create: { group: 'noc', version: 'v2c', secname: 'rw' },
    update: { version: 'v1' },
    imports: 'public_v1',
  },
  {
    resource: 'uapi_snmpd_group',
    title: 'version and secname left to the stock v2c and ro',
    create: { group: 'readers' },
    update: { secname: 'rw' },
  },
  {
    resource: 'uapi_snmpd_access',
    create: { group: 'private', context: 'none', version: 'v2c', level: 'noauth', prefix: 'exact', read: 'all', write: 'all', notify: 'none' },
    update: { version: 'any', write: 'none', notify: 'all' },
    imports: 'public_access',
  },
  {
    resource: 'uapi_snmpd_access',
    title: 'only the group: the other words are the stock public_access ones',
    create: { group: 'public' },
    update: { level: 'auth', prefix: 'prefix' },
  },
  {
    resource: 'uapi_snmpd_system',
    create: { sys_location: 'Rack 4, Room 2', sys_contact: 'noc@example.net', sys_name: 'edge1', sys_descr: 'edge router', sys_object_id: '.1.3.6.1.4.1.8072.3.2.10' },
    update: { sys_location: 'Rack 5' },
  },
  {
    resource: 'uapi_mwan3_globals',
    create: { mmx_mask: '0x3F00', logging: true, loglevel: 'notice' },
    update: { loglevel: 'info', logging: false },
  },
  {
    resource: 'uapi_mwan3_interface',
    setup: [{ method: 'POST', path: '/network/interfaces', body: { id: 'wanc', proto: 'dhcp', device: 'eth2' } }],
    create: {
      id: 'wanc', enabled: true, family: 'ipv4', track_ip: ['1.1.1.1', '9.9.9.9'], track_method: 'ping', reliability: 1, probe_count: 2, size: 56, max_ttl: 60,
      timeout: 4, interval: 10, failure_interval: 5, recovery_interval: 5, keep_failure_interval: true, down: 3, up: 3, check_quality: true,
      failure_latency: 1000, recovery_latency: 500, failure_loss: 40, recovery_loss: 10, flush_conntrack: ['ifdown'],
    },
    update: { probe_count: 3, interval: 15, track_ip: ['1.1.1.1'], flush_conntrack: ['ifup', 'disconnected'], enabled: false },
    imports: 'wan',
  },
  {
    resource: 'uapi_mwan3_member',
    create: { interface: 'wan', metric: 1, weight: 2 },
    update: { metric: 2, weight: 5 },
    imports: 'wan_m1_w3',
  },
  {
    resource: 'uapi_mwan3_policy',
    create: { use_members: ['wan_m1_w3', 'wanb_m1_w2'], last_resort: 'unreachable' },
    update: { use_members: ['wan_m1_w3'], last_resort: 'default' },
    imports: 'balanced',
  },
  {
    resource: 'uapi_mwan3_rule',
    create: {
      family: 'ipv4', proto: 'tcp', src_ip: '192.168.1.0/24', src_port: '1024:65535', dest_ip: '203.0.113.0/24', dest_port: '443', sticky: true, timeout: 600,
      logging: true, use_policy: 'balanced',
    },
    update: { dest_port: '80,443', sticky: false, use_policy: 'wan_only' },
    imports: 'https',
  },
  {
    resource: 'uapi_mwan3_rule',
    title: 'an ipset of destinations to a built-in policy',
    create: { family: 'ipv6', ipset: 'vpn_dst', use_policy: 'unreachable' },
    update: { use_policy: 'blackhole' },
  },
  {
    resource: 'uapi_openvpn_instance',
    title: 'a routed server with its own client pool',
    create: {
      id: 'office', enabled: true, dev: 'tun', proto: 'udp', port: 1194, local: '0.0.0.0', server: '10.8.0.0 255.255.255.0 nopool', topology: 'subnet',
      ifconfig_pool: '10.8.0.100 10.8.0.199 255.255.255.0', ...CERTS, dh: 'none', crl_verify: '/etc/openvpn/pki/crl.pem', tls_crypt: '/etc/openvpn/pki/tc.key',
      keepalive: '10 60', client_to_client: true, duplicate_cn: false, push: ['route 192.168.1.0 255.255.255.0', 'dhcp-option DNS 192.168.1.1'],
      cipher: 'AES-256-GCM', ncp_ciphers: 'AES-256-GCM:CHACHA20-POLY1305', ncp_disable: false, auth: 'SHA256', persist_key: true, persist_tun: true,
      user: 'nobody', group: 'nogroup', status: '/tmp/openvpn-office.status 30', log_append: '/tmp/openvpn-office.log', verb: 3, mute: 20,
    },
    update: { verb: 4, keepalive: '10 120', duplicate_cn: true, push: ['route 192.168.1.0 255.255.255.0'], ncp_ciphers: 'AES-256-GCM' },
    imports: 'sample_server',
  },
  {
    resource: 'uapi_openvpn_instance',
    title: 'a client',
    create: {
      enabled: true, client: true, dev: 'tun', dev_type: 'tun', proto: 'udp', remote: ['vpn.example.com 1194'], rport: 1194, nobind: true, ...CERTS,
      tls_auth: '/etc/openvpn/pki/ta.key 1', remote_cert_tls: 'server', verify_x509_name: 'vpn.example.com name', comp_lzo: 'no', ping: 10, ping_restart: 60,
      float: true, log: '/tmp/openvpn-client.log', route: ['10.10.0.0 255.255.0.0'], route_gateway: 'vpn_gateway',
    },
    update: { ping: 15, remote: ['vpn.example.com 1194', 'vpn2.example.com 443 tcp-client'], float: false },
    imports: 'sample_client',
  },
  {
    resource: 'uapi_openvpn_instance',
    title: 'a bridged server on tap with a PKCS#12 bundle',
    create: {
      enabled: true, dev: 'tap0', dev_type: 'tap', proto: 'udp', lport: 1195, server_bridge: '192.168.1.1 255.255.255.0 192.168.1.200 192.168.1.220',
      tls_server: true, ca: '/etc/openvpn/pki/ca.crt', pkcs12: '/etc/openvpn/pki/bridge.p12', dh: 'none', keepalive: '10 60', compress: 'stub-v2',
    },
    update: { server_bridge: 'nogw', lport: 1196 },
  },
  {
    resource: 'uapi_openvpn_instance',
    title: 'a point-to-point TLS client with static tunnel addresses',
    create: {
      enabled: true, dev: 'tun', proto: 'udp', remote: ['peer.example.com'], rport: 1197, tls_client: true, ifconfig: '10.4.0.2 10.4.0.1', ...CERTS,
      remote_cert_tls: 'server', ping: 10, ping_restart: 120,
    },
    update: { ifconfig: '10.4.0.6 10.4.0.5', ping_restart: 90 },
  },
];
