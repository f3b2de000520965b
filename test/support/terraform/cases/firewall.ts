// uapi's firewall resources as a Terraform configuration sets them, in provider 3.0's JSON
// (internal/provider/firewall_*_resource.go; redirect match fields are scalars, as the spec says).
import type { ReplayCase } from '../case.js';

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_firewall_zone',
    setup: [{ method: 'POST', path: '/network/interfaces', body: { id: 'guest', proto: 'static', ipaddrs: ['192.168.3.1/24'] } }],
    create: {
      id: 'guest',
      name: 'guest',
      network: ['guest'],
      input: 'REJECT',
      output_policy: 'ACCEPT',
      forward: 'REJECT',
      family: 'ipv4',
      masq: false,
      mtu_fix: true,
    },
    update: { input: 'DROP', output_policy: 'DROP', masq: true, family: 'any', mtu_fix: null },
    imports: 'cfg03dc81',
  },
  {
    resource: 'uapi_firewall_rule',
    create: {
      name: 'Allow-WireGuard',
      target: 'ACCEPT',
      enabled: true,
      match: { src_zone: 'wan', proto: ['udp'], dest_port: ['51820'], family: 'ipv4' },
    },
    update: {
      name: 'Allow-WireGuard-Peers',
      enabled: false,
      match: {
        src_zone: 'wan',
        dest_zone: 'lan',
        proto: ['tcp', 'udp'],
        src_ip: ['198.51.100.0/24', '203.0.113.7'],
        src_port: ['1024-65535'],
        dest_ip: ['192.168.1.10'],
        dest_port: ['51820', '51821'],
        family: 'ipv4',
      },
    },
    imports: 'cfg0592bd',
  },
  {
    resource: 'uapi_firewall_redirect',
    create: {
      name: 'Web-Server',
      target: 'DNAT',
      enabled: true,
      reflection: true,
      reflection_src: 'internal',
      reflection_zone: ['lan'],
      match: { src_zone: 'wan', dest_zone: 'lan', proto: ['tcp'], src_dport: '8080', dest_ip: '192.168.1.10', dest_port: '80', family: 'ipv4' },
    },
    update: {
      reflection_src: 'external',
      match: {
        src_zone: 'wan',
        dest_zone: 'lan',
        proto: ['tcp', 'udp'],
        src_ip: '198.51.100.0/24',
        src_port: '1024-65535',
        src_dport: '8443',
        dest_ip: '192.168.1.11',
        dest_port: '443',
        family: 'ipv4',
      },
    },
  },
  {
    resource: 'uapi_firewall_forwarding',
    setup: [{ method: 'POST', path: '/firewall/zones', body: { id: 'dmz', name: 'dmz', input: 'REJECT', output_policy: 'ACCEPT', forward: 'REJECT' } }],
    create: { src: 'dmz', dest: 'wan', family: 'ipv4' },
    update: { dest: 'lan', enabled: false, family: 'any' },
    imports: 'cfg04ad58',
  },
  {
    resource: 'uapi_firewall_defaults',
    create: {
      input: 'REJECT',
      output_policy: 'ACCEPT',
      forward: 'REJECT',
      drop_invalid: true,
      syn_flood: true,
      synflood_rate: 25,
      synflood_burst: 50,
      tcp_syncookies: true,
      flow_offloading: true,
      flow_offloading_hw: false,
    },
    update: { input: 'DROP', synflood_rate: 100, synflood_burst: 200, drop_invalid: false, flow_offloading: false },
  },
];
