// dnsmasq's IPv4 leases as its lease file holds them (lease.c lease_update_file, dnsmasq 2.90, OpenWrt
// 24.10): one line per lease, `<expires> <hwaddr> <ipv4> <hostname> <client-id>`, single spaces. The
// file is the `leasefile` of the first dnsmasq section (dnsmasq.init: `--dhcp-leasefile`), stock and
// default /tmp/dhcp.leases. A `duid <hex>` line (the server's own DUID) and lines for IPv6 addresses
// (dnsmasq's own DHCPv6, which stock OpenWrt leaves to odhcpd) hold no IPv4 lease; a line dnsmasq
// would not read is malformed. A client's DUID is in its client id when that is RFC 4361's: type 255,
// a 4-byte IAID, then the DUID (2 to 130 bytes).

import type { Field, JsonObject, JsonSchema, LineParser, ResourceDefinition, ViewSource } from '../model.js';

// A read parses a page of lines of a file of up to thousands of leases, and each QuickJS regular
// expression match or split costs thousands of instructions: one pattern reads a whole lease line
// (the address four octets of 0-255 without a leading zero), and only a line it does not read is
// split, to tell a line holding no lease from a malformed one. Literals, so that wrtapi-bytecode
// keeps them compiled.
const LEASE = /^(0|[1-9]\d*) ([0-9a-f]{2}(?:-|-?[0-9a-f:]+)) ((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)) ([^ ]*) ([^ ]*)(?: |$)/;
const HWADDR = /^[0-9a-f]{2}(-|-?[0-9a-f:]+)$/;
const NODE_CLIENT_ID = /^ff(:[0-9a-f]{2}){6,134}$/;

/** A line that is no IPv4 lease: the server's `duid` line, or an IPv6 address's (dnsmasq's own DHCPv6). */
function holdsNoLease(line: string): boolean {
  const parts = line.split(' ');
  return parts[0] === 'duid' || (parts.length >= 5 && HWADDR.test(parts[1]) && parts[2].includes(':'));
}

/** One line of the lease file; its id is its address, unique in the file, dots as `_`. */
export const parse: LineParser = (line) => {
  const fields = LEASE.exec(line);
  // An expiry past 2^53 does not read back as the number written.
  if (fields === null || String(+fields[1]) !== fields[1]) return holdsNoLease(line) ? [] : null;
  // By index: destructuring would walk QuickJS's iterator protocol.
  const at = +fields[1];
  const hwaddr = fields[2];
  const clientId = fields[9];
  // Ethernet is written `xx:xx:xx:xx:xx:xx`; another hardware type `<type>-<bytes>`.
  const ethernet = hwaddr.length === 17 && !hwaddr.includes('-');
  const lease: JsonObject = {
    id: `${fields[4]}_${fields[5]}_${fields[6]}_${fields[7]}`,
    ip: fields[3],
    mac: ethernet ? hwaddr : null,
    hwaddr,
    hostname: fields[8] === '*' ? null : fields[8],
    client_id: clientId === '*' ? null : clientId,
    duid: clientId.startsWith('ff:') && NODE_CLIENT_ID.test(clientId) ? clientId.slice(15).replace(/:/g, '') : null,
    expires_at: at === 0 ? null : at,
  };
  return [lease];
};

const viewField = (schema: JsonSchema, description: string, nullable = false): Field => ({ codec: { kind: 'text' }, schema, description, ...(nullable ? { nullable } : {}) });

/** Where the daemon writes the file (dhcp/servers' lease counts read it too). */
export const source: ViewSource = { option: 'leasefile', default: '/tmp/dhcp.leases' };

const definition: ResourceDefinition = {
  path: 'dhcp/leases',
  package: 'dhcp',
  type: 'dnsmasq',
  kind: 'view',
  source,
  countdown: { member: 'expires_in', until: 'expires_at' },
  reload: [],
  description:
    'IPv4 leases dnsmasq has handed out, read from its lease file (the `leasefile` of the first dnsmasq section, default /tmp/dhcp.leases), in file order. ' +
    'Read-only. A malformed line is skipped and counted in `X-Skipped-Lines`; no file means no leases.',
  members: {
    ip: viewField({ type: 'string' }, 'The leased IPv4 address. The item id is this address with `_` for each dot.'),
    mac: viewField({ type: 'string' }, 'The client\'s Ethernet MAC address, lower-case; null for another hardware type.', true),
    hwaddr: viewField({ type: 'string' }, 'The hardware address as dnsmasq wrote it: `xx:xx:...` for Ethernet, else `<type>-<bytes>`.'),
    hostname: viewField({ type: 'string' }, 'The name the client sent; null when none.', true),
    client_id: viewField({ type: 'string' }, 'The DHCP client identifier, `xx:...`; null when none.', true),
    duid: viewField(
      { type: 'string' },
      'The client\'s DHCPv6 DUID, plain hex as dhcp/leases6 and dhcp/hosts `duid` write it, from an RFC 4361 client identifier (`ff`, the IAID, the DUID); null for any other.',
      true,
    ),
    expires_at: viewField({ type: 'integer' }, 'When the lease expires, seconds since the epoch; null for an infinite lease.', true),
    expires_in: viewField({ type: 'integer' }, 'Seconds until the lease expires at the time of the read, at least 0; null for an infinite lease.', true),
  },
  parse,
};

export default definition;
