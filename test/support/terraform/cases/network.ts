// The network resources as a Terraform configuration sets them, in provider 3.0's JSON
// (internal/provider/network_*_resource.go): every interface proto the provider's enum and wrtapi
// share (static, dhcp, dhcpv6, pppoe, none, wireguard), a bridge and an 802.1Q device, IPv4, IPv6
// and blackhole routes, policy rules (lookup, goto, a drop), a bridge VLAN and a WireGuard peer.
// Tables are integers, as the provider sends them; `family` is never set. Imports adopt the stock
// lan, wan and wan6 interfaces and the stock br-lan device.
import type { ReplayCase } from '../case.js';

const WG_PRIVATE = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';
const PEER_PUBLIC = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';
const PEER_PUBLIC_2 = 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=';
const PRESHARED = 'FpCyhws9cxwWoV4xELtfJvjJN+zQVRPISllRWgeopVE=';

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_network_interface',
    title: 'static',
    create: {
      id: 'tf_lan',
      proto: 'static',
      device: 'eth2',
      ipaddrs: ['10.20.0.1'],
      netmask: '255.255.255.0',
      gateway: '10.20.0.254',
      dns: ['9.9.9.9', '2620:fe::fe'],
      auto: true,
      defaultroute: false,
      peerdns: false,
      delegate: true,
      ip4table: 'main',
      ip6table: 'main',
      ip6assign: 64,
      ip6hint: '20',
      ip6ifaceid: '::1',
      metric: 10,
      mtu: 1500,
    },
    update: { ipaddrs: ['10.20.0.1', '10.21.0.1/24'], dns: ['1.1.1.1'], metric: 20, mtu: 1400, ip6hint: '21', auto: false },
    imports: 'lan',
  },
  {
    resource: 'uapi_network_interface',
    title: 'dhcp',
    create: { id: 'tf_wan', proto: 'dhcp', device: 'eth3', hostname: 'edge', clientid: '01:02:03:04:05:06', peerdns: true, defaultroute: true, metric: 5 },
    update: { hostname: 'edge-2', clientid: '01-02-03-04-05-07', metric: 6, dns: ['192.0.2.53'] },
    imports: 'wan',
  },
  {
    resource: 'uapi_network_interface',
    title: 'dhcpv6',
    create: { id: 'tf_wan6', proto: 'dhcpv6', device: '@wan', reqaddress: 'try', reqprefix: 'auto', clientid: '000300010203040506' },
    update: { reqaddress: 'force', reqprefix: '56', ip6ifaceid: 'eui64' },
    imports: 'wan6',
  },
  {
    resource: 'uapi_network_interface',
    title: 'pppoe',
    create: { id: 'tf_ppp', proto: 'pppoe', device: 'eth1', reqprefix: 'auto', peerdns: false, mtu: 1492 },
    update: { reqprefix: '56', mtu: 1480, defaultroute: false },
  },
  {
    resource: 'uapi_network_interface',
    title: 'none',
    create: { id: 'tf_none', proto: 'none', device: 'eth5' },
    update: { auto: false },
  },
  {
    resource: 'uapi_network_interface',
    title: 'wireguard',
    create: { id: 'wg_tf', proto: 'wireguard', private_key: WG_PRIVATE, listen_port: 51820, addresses: ['10.90.0.1/24', 'fd00:90::1/64'], nohostroute: true, mtu: 1420 },
    update: { listen_port: 51821, addresses: ['10.90.0.1/24'], nohostroute: false },
  },
  {
    resource: 'uapi_network_wireguard_peer',
    setup: [{ method: 'POST', path: '/network/interfaces', body: { id: 'wg_peers', proto: 'wireguard', private_key: WG_PRIVATE, listen_port: 51830, addresses: ['10.91.0.1/24'] } }],
    create: {
      interface: 'wg_peers',
      public_key: PEER_PUBLIC,
      allowed_ips: ['10.91.0.2/32', 'fd00:91::2/128'],
      description: 'laptop',
      endpoint_host: 'peer.example.net',
      endpoint_port: 51820,
      persistent_keepalive: 25,
      preshared_key: PRESHARED,
      route_allowed_ips: true,
      disabled: false,
    },
    update: { public_key: PEER_PUBLIC_2, allowed_ips: ['10.91.0.3/32'], description: 'phone', endpoint_port: 51821, persistent_keepalive: 0, route_allowed_ips: false, disabled: true },
  },
  {
    resource: 'uapi_network_device',
    title: 'bridge',
    create: { name: 'br-tf', type: 'bridge', ports: ['eth4'], mtu: 1500, ipv6: true, macaddr: '02:00:00:00:10:01' },
    update: { ports: ['eth4', 'eth5'], mtu: 1400, ipv6: false },
    imports: 'cfg030f15',
  },
  {
    resource: 'uapi_network_device',
    title: '8021q',
    create: { name: 'eth1.30', type: '8021q', ifname: 'eth1', vid: 30 },
    update: { vid: 31, mtu: 1496 },
  },
  {
    resource: 'uapi_network_route',
    title: 'IPv4',
    create: { interface: 'lan', target: '10.30.0.0', netmask: '255.255.0.0', gateway: '192.168.1.30', source: '192.168.1.1', metric: 10, mtu: 1400, table: 100, type: 'unicast' },
    update: { gateway: '192.168.1.31', metric: 20, table: 254 },
  },
  {
    resource: 'uapi_network_route',
    title: 'IPv6',
    create: { interface: 'lan', target: 'fd00:30::/64', gateway: 'fd4c:7e19:a3b2::30', metric: 5, table: 100 },
    update: { target: 'fd00:31::/64', metric: 6, mtu: 1400 },
  },
  {
    resource: 'uapi_network_route',
    title: 'blackhole',
    create: { target: '198.51.100.0/24', interface: 'wan', type: 'blackhole' },
    update: { type: 'unreachable', metric: 1 },
  },
  {
    resource: 'uapi_network_rule',
    title: 'lookup',
    create: { action: 'lookup', lookup: 100, src: '192.168.1.0/24', in: 'lan', priority: 1000, mark: '0x10/0xff', invert: false },
    update: { lookup: 101, priority: 1001, invert: true },
  },
  {
    resource: 'uapi_network_rule',
    title: 'goto',
    create: { action: 'goto', goto: 3000, priority: 2000, dest: '10.40.0.0/16', out: 'wan' },
    update: { goto: 3100 },
  },
  {
    resource: 'uapi_network_rule',
    title: 'IPv6 drop',
    create: { action: 'unreachable', src: 'fd00:40::/64', priority: 4000 },
    update: { action: 'prohibit' },
  },
  {
    resource: 'uapi_network_bridge_vlan',
    create: { device: 'br-lan', vlan: 40, ports: ['eth0:t'] },
    update: { ports: ['eth0:u*'], vlan: 41 },
  },
];
