// `com2sec` and `com2sec6` sections as /etc/init.d/snmpd snmpd_com2sec_add and snmpd_com2sec6_add
// read them (openwrt/packages 24.10 net/net-snmp/files/snmpd.init): both take `secname`, `source` and
// `community` alike and write `com2sec` (IPv4 clients) or `com2sec6` (IPv6 clients) lines, so one
// resource serves both, told apart by `family`, the section type (as network/routes does route6).
// uapi's provider has no `family`: a write without it takes the family of a literal `source`
// (`fd00::/64` is a com2sec6); for `default` or a host name a create is a `com2sec` (the stock file's
// and the script's first kind), and a PUT keeps the section's type.
// snmpd (net-snmp 5.9.4 netsnmp_udp_parse_security, netsnmp_udp6_parse_security) skips a line whose
// source it cannot parse or resolve, whose mask leaves host bits set, or that keeps the example
// values NETWORK and COMMUNITY; com2sec6 silently skips an IPv4 source.

import type { FieldError } from '../../http/errors.js';
import { choice, field, text } from '../codecs.js';
import { IPV4, IPV6, PREFIX4, PREFIX6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { conflict } from '../checks.js';
import { COMMUNITY, HOSTNAME, NAME } from './common.js';

const SOURCE = {
  pattern: `^(default|!?(${IPV4}(/(${PREFIX4}|${IPV4}))?|${IPV6}(/(${PREFIX6}|${IPV6}))?|${HOSTNAME}(/(${PREFIX6}|${IPV4}|${IPV6}))?))$`,
  maxLength: 300,
};

/** An address as bits, IPv6 with `::` and an embedded IPv4 address expanded. */
function bits(address: string): string {
  if (!address.includes(':')) return address.split('.').map((byte) => Number(byte).toString(2).padStart(8, '0')).join('');
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${(Number(a) * 256 + Number(b)).toString(16)}:${(Number(c) * 256 + Number(d)).toString(16)}`);
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => parseInt(group, 16).toString(2).padStart(16, '0')).join('');
}

function sourceErrors(body: JsonObject): FieldError[] {
  const source = valueAt(body, 'source');
  if (typeof source !== 'string' || source === 'default') return [];
  if (source.startsWith('NETWORK')) return [conflict('source', 'snmpd refuses a source starting NETWORK, the example value')];
  const ipv6 = valueAt(body, 'family') === 'ipv6';
  const [host, mask] = source.replace(/^!/, '').split('/');
  const literal = new RegExp(`^(${IPV4}|${IPV6})$`).test(host);
  if (literal && host.includes(':') !== ipv6) return [conflict('source', ipv6 ? 'com2sec6 skips an IPv4 source' : 'an IPv6 source needs family ipv6')];
  if (mask === undefined) return [];
  // A literal's mask is the format check's; a host name's is read by the family.
  if (!ipv6 && !literal && (mask.includes(':') || Number(mask) > 32)) return [conflict('source', 'an IPv4 mask is a dotted mask or 0 to 32')];
  const width = ipv6 ? 128 : 32;
  const maskBits = /^\d+$/.test(mask) ? '1'.repeat(+mask).padEnd(width, '0') : bits(mask);
  if (!literal || maskBits.length !== width) return [];
  const hostBits = bits(host);
  return [...maskBits].some((bit, i) => bit === '0' && hostBits[i] === '1') ? [conflict('source', `${source} has host bits set; snmpd skips it`)] : [];
}

export const rules: Rules = (body) => [
  ...sourceErrors(body),
  ...(valueAt(body, 'community') === 'COMMUNITY' ? [conflict('community', 'snmpd refuses COMMUNITY, the example value')] : []),
];

const definition: ResourceDefinition = {
  path: 'snmpd/com2secs',
  package: 'snmpd',
  type: 'com2sec',
  typeBy: { field: 'family', types: { ipv4: 'com2sec', ipv6: 'com2sec6' }, family: ['source'] },
  kind: 'collection',
  idPrefix: 'c_',
  reload: ['snmpd'],
  daemonPackage: 'snmpd',
  description: 'SNMPv1/v2c communities: requests from `source` with `community` act as the security name `secname`, which snmpd/groups place in a group.',
  members: {
    family: field(choice(['ipv4', 'ipv6']), {
      description: 'ipv4 (a `com2sec` section) or ipv6 (a `com2sec6` section): the section type, not an option. Default: the family of a literal `source`; else ipv4 on create, and a PUT keeps the type.',
    }),
    secname: field(text(NAME), { required: true, description: 'Security name the requests act as.' }),
    source: field(text(SOURCE), {
      required: true,
      description: '`default` (any client), or a host name or address with an optional `/prefix` or mask; `!` negates. Of `family`, no host bits.',
    }),
    community: field(text(COMMUNITY), { required: true, description: 'Community string the client sends.' }),
  },
  rules,
  checks: [
    'A literal `source` address is of `family`, with an IPv4 mask of 0 to 32 and no host bits set; it does not start with NETWORK.',
    '`community` is not COMMUNITY.',
  ],
};

export default definition;
