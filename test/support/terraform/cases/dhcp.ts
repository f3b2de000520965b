// uapi's dhcp resources as a Terraform configuration sets them, in provider 3.0's JSON
// (internal/provider/dhcp_*_resource.go; dhcp_host `macs` replaces `mac` and `mac_aliases`, and
// `tag` is the array the spec makes it).
import type { ReplayCase } from '../case.js';

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_dhcp_host',
    create: {
      id: 'nas',
      name: 'nas',
      macs: ['52:54:00:12:34:56'],
      ip: '192.168.1.20',
      leasetime: '24h',
      duid: '000100012e5c1a2b525400123456',
      hostid: '20',
      dns: true,
      tag: ['known'],
    },
    update: {
      macs: ['52:54:00:12:34:56', '52:54:00:12:34:57'],
      ip: '192.168.1.21',
      leasetime: 'infinite',
      broadcast: true,
      tag: ['known', 'nas'],
      instance: 'cfg01411c',
    },
  },
  {
    resource: 'uapi_dhcp_server',
    setup: [{ method: 'POST', path: '/network/interfaces', body: { id: 'guest', proto: 'static', ipaddrs: ['192.168.3.1/24'] } }],
    create: {
      id: 'guest',
      interface: 'guest',
      start: 50,
      limit: 100,
      leasetime: '2h',
      dhcpv6: 'server',
      ra: 'server',
      ra_default: 1,
      domain: 'guest.lan',
      dhcp_option: ['option:dns-server,192.168.3.1'],
    },
    update: {
      limit: 50,
      leasetime: '6h',
      dynamicdhcp: false,
      force: true,
      domain: 'guest.lan example.com',
      dhcp_option: ['option:dns-server,192.168.3.1', 'option:ntp-server,192.168.3.1'],
      ra: 'disabled',
      ignore: false,
    },
    imports: 'lan',
  },
  {
    resource: 'uapi_dhcp_dnsmasq',
    create: {
      domain: 'home.arpa',
      local: '/home.arpa/',
      server: ['1.1.1.1', '/corp.example.com/10.8.0.1'],
      address: ['/ads.example.com/0.0.0.0'],
      authoritative: true,
      boguspriv: true,
      domainneeded: true,
      expandhosts: true,
      filterwin2k: false,
      rebind_protection: true,
      readethers: true,
      nonwildcard: true,
      noresolv: false,
      cachesize: 1000,
      port: 53,
      leasefile: '/tmp/dhcp.leases',
      resolvfile: '/tmp/resolv.conf.d/resolv.conf.auto',
    },
    update: { cachesize: 5000, server: ['9.9.9.9'], address: [], noresolv: true, filterwin2k: true },
  },
  {
    resource: 'uapi_dhcp_odhcpd',
    create: { maindhcp: false, leasefile: '/tmp/hosts/odhcpd', leasetrigger: '/usr/sbin/odhcpd-update', loglevel: 4 },
    update: { loglevel: 6 },
  },
];
