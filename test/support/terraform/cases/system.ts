// The system singleton and its time servers as a Terraform configuration sets them
// (internal/provider/system_resource.go, system_timeserver_resource.go).
import type { ReplayCase } from '../case.js';

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_system',
    create: {
      hostname: 'edge-01',
      description: 'Edge router, rack 2',
      notes: 'Uplink on port 4.',
      timezone: 'CET-1CEST,M3.5.0,M10.5.0/3',
      zonename: 'Europe/Berlin',
      log_size: 256,
      urandom_seed: true,
    },
    update: {
      hostname: 'edge-02',
      notes: 'Uplink on port 4.\nCall ops before a reboot.',
      log_ip: '192.0.2.10',
      log_proto: 'udp',
      log_remote: true,
      urandom_seed: false,
    },
  },
  // sysntpd reads only the section named ntp, which the stock router has: the first case frees it.
  {
    resource: 'uapi_system_timeserver',
    title: 'named ntp',
    setup: [{ method: 'DELETE', path: '/system/timeservers/ntp' }],
    create: { id: 'ntp', server: ['0.de.pool.ntp.org', '1.de.pool.ntp.org'], enabled: true, use_dhcp: false },
    update: { server: ['ntp.example.net', '192.0.2.123'], enable_server: true, interface: 'lan' },
  },
  {
    resource: 'uapi_system_timeserver',
    title: 'without id, which names ntp',
    create: { server: ['time.example.com'], enable_server: false },
    update: { enabled: false, use_dhcp: true },
  },
];
