// odhcpd's IPv6 leases as its state file holds them (dhcpv6-ia.c dhcpv6_ia_write_statefile, odhcpd
// 2024-05-08, OpenWrt 24.10). The file is the `leasefile` of the odhcpd section, stock
// /tmp/hosts/odhcpd; odhcpd writes none when it is unset. Hosts-file lines (`addr\tname`) precede
// each lease's `#` line, which alone matters:
// `# <ifname> <duid> <iaid> <hostname|-> <valid until|-1 infinite|0 expired> <host or subnet id> <128 (NA) | prefix length (PD)> <addr/len>…`
// A `#` line whose third field is `ipv4` is an odhcpd DHCPv4 lease: not this view's. One item per address.

import type { Field, JsonObject, JsonSchema, LineParser, ResourceDefinition, ViewSource } from '../model.js';

const HEX = /^[0-9a-f]+$/;
const ADDRESS = /^([0-9a-f:]+)\/(\d{1,3})$/;
const BROKEN = 'broken\\x20';

/** One line of the state file; an item's id is its DUID, IAID and address, `_` for each `:`. */
export const parse: LineParser = (line) => {
  if (!line.startsWith('# ')) return [];
  const parts = line.slice(2).split(' ');
  if (parts[2] === 'ipv4') return [];
  if (parts.length < 7) return null;
  const [ifname, duid, iaid, hostname, valid, hostId, length] = parts;
  if (!HEX.test(duid) || !HEX.test(iaid) || !/^(-1|\d{1,12})$/.test(valid) || !/^\d{1,3}$/.test(length)) return null;
  const leases: JsonObject[] = [];
  for (const assigned of parts.slice(7)) {
    const match = ADDRESS.exec(assigned);
    if (!match || !match[1].includes(':')) return null;
    const [, address, prefix] = match;
    const na = length === '128';
    leases.push({
      id: `${duid}_${iaid}_${address.replace(/:/g, '_')}_${prefix}`,
      interface: ifname,
      duid,
      iaid,
      hostname: hostname === '-' ? null : hostname.startsWith(BROKEN) ? hostname.slice(BROKEN.length) : hostname,
      ia_type: na ? 'IA_NA' : 'IA_PD',
      ip: address,
      prefix_length: na ? null : Number(prefix),
      host_id: hostId,
      expires_at: valid === '-1' ? null : Number(valid),
    });
  }
  return leases;
};

const viewField = (schema: JsonSchema, description: string, nullable = false): Field => ({ codec: { kind: 'text' }, schema, description, ...(nullable ? { nullable } : {}) });

/** Where the daemon writes the file (dhcp/servers' lease counts read it too). */
export const source: ViewSource = { option: 'leasefile' };

const definition: ResourceDefinition = {
  path: 'dhcp/leases6',
  package: 'dhcp',
  type: 'odhcpd',
  kind: 'view',
  source,
  reload: [],
  description:
    'IPv6 leases odhcpd has handed out, read from its state file (the `leasefile` of the odhcpd section, stock /tmp/hosts/odhcpd; none when unset): ' +
    'one item per address of an IA, in file order. Read-only. A malformed line is skipped and counted in `X-Skipped-Lines`; no file means no leases.',
  members: {
    interface: viewField({ type: 'string' }, 'The device the lease was handed out on (`br-lan`).'),
    duid: viewField({ type: 'string' }, 'The client\'s DUID, hex.'),
    iaid: viewField({ type: 'string' }, 'The identity association\'s IAID, hex.'),
    hostname: viewField({ type: 'string' }, 'The name the client sent; null when none.', true),
    // odhcpd keeps IA_NA and IA_PD assignments only (its state file tells no other kind): no IA_TA.
    ia_type: viewField({ type: 'string', enum: ['IA_NA', 'IA_PD'] }, '`IA_NA`: an address; `IA_PD`: a delegated prefix.'),
    ip: viewField({ type: 'string' }, 'The address, or the delegated prefix without its length.'),
    prefix_length: viewField({ type: 'integer' }, 'The delegated prefix\'s length; null for an address (IA_NA).', true),
    host_id: viewField({ type: 'string' }, 'Hex: the host part odhcpd assigned (NA), or the subnet id (PD).'),
    expires_at: viewField({ type: 'integer' }, 'When the lease is valid until, seconds since the epoch (0: expired); null for an infinite lease.', true),
  },
  parse,
};

export default definition;
