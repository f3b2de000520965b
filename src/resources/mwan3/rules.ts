// `rule` sections of the mwan3 package as mwan3 2.11.16 (openwrt/packages openwrt-24.10,
// net/mwan3/files) reads them in lib/mwan3/mwan3.sh mwan3_set_user_iptables_rule: config_get with
// its defaults, `sticky` tested with -eq 1, `logging` compared with "1". The section NAME names the
// chain mwan3_rule_<name> and the ipsets mwan3_rule_ipv4_<name>; mwan3 skips a rule whose name passes
// 15 characters. mwan3 loads every rule in one iptables-restore: one value iptables refuses (a
// protocol, port or address it cannot parse, an ipset that does not exist) and no rule applies.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, text } from '../codecs.js';
import { BYTE, PORT_NUMBER } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { conflict, given, outOfRange, strings } from '../checks.js';
import { ADDRESS4, ADDRESS6, BUILTIN_POLICIES, familyErrors, idLengthErrors } from './common.js';

/** iptables' own protocol names and the common ones musl's getprotobyname knows, or a number. */
const PROTOCOLS = ['all', 'tcp', 'udp', 'udplite', 'icmp', 'icmpv6', 'ipv6-icmp', 'esp', 'ah', 'sctp', 'mh', 'ipv6-mh', 'gre', 'igmp', 'ipip', 'ospf', 'pim'];
const ADDRESS = `(${ADDRESS4}|${ADDRESS6})`;
const PORTS = `${PORT_NUMBER}(:${PORT_NUMBER})?`;
const PORT_FIELDS = ['src_port', 'dest_port'];
const ADDRESS_FIELDS = ['src_ip', 'dest_ip'];

/** mwan3 drops the ports of a protocol other than tcp and udp; multiport takes 15 ports, a range counting two. */
function portErrors(body: JsonObject): FieldError[] {
  const proto = valueAt(body, 'proto');
  return PORT_FIELDS.flatMap((path) => {
    if (!given(body, path)) return [];
    if (proto !== 'tcp' && proto !== 'udp') return [conflict(path, `${path} applies only to proto tcp or udp; mwan3 ignores it otherwise`)];
    const [[, ports]] = strings(body, path);
    return ports.split(',').length + ports.split(':').length - 1 > 15 ? [outOfRange(path, `${path} holds more than 15 ports (a range counts two)`)] : [];
  });
}

/** mwan3 greps addresses for IPv4 and IPv6 forms: an IPv6 address holding an IPv4 one is both, and skipped in each. */
function embeddedErrors(body: JsonObject): FieldError[] {
  return ADDRESS_FIELDS.flatMap((path) => strings(body, path))
    .filter(([, value]) => value.split(',').some((item) => item.includes(':') && item.includes('.')))
    .map(([where]) => conflict(where, `${where}: mwan3 skips an IPv6 address written with an embedded IPv4 one`));
}

export const rules: Rules = (body, { id }) => [
  ...idLengthErrors(id, 15, 'mwan3 skips a longer rule'),
  ...portErrors(body),
  ...familyErrors(body, valueAt(body, 'family'), ADDRESS_FIELDS),
  ...embeddedErrors(body),
];

const definition: ResourceDefinition = {
  path: 'mwan3/rules',
  package: 'mwan3',
  type: 'rule',
  kind: 'collection',
  shortIds: { prefix: 'r_', length: 15 },
  reload: ['mwan3'],
  daemonPackage: 'mwan3',
  description: 'Traffic matches, in order: the first that matches a connection routes it by its `use_policy`.',
  members: {
    family: field(choice(['any', 'ipv4', 'ipv6']), { description: 'Address family matched. Default any.' }),
    proto: field(text({ pattern: `^(${PROTOCOLS.join('|')}|${BYTE})$` }), { description: 'Protocol name or number. Default all.' }),
    src_ip: field(text({ pattern: `^${ADDRESS}(,${ADDRESS})*$` }), { description: 'Source addresses or prefixes, comma-separated.' }),
    src_port: field(text({ pattern: `^${PORTS}(,${PORTS})*$` }), { description: 'Source ports or ranges `N:M`, comma-separated; tcp and udp only.' }),
    src_iface: field(text({ pattern: '^[A-Za-z0-9_]+$', maxLength: 32 }), { description: 'Incoming network/interfaces id; the rule applies while it has a device.' }),
    dest_ip: field(text({ pattern: `^${ADDRESS}(,${ADDRESS})*$` }), { description: 'Destination addresses or prefixes, comma-separated.' }),
    dest_port: field(text({ pattern: `^${PORTS}(,${PORTS})*$` }), { description: 'Destination ports or ranges `N:M`, comma-separated; tcp and udp only.' }),
    ipset: field(text({ pattern: '^[A-Za-z0-9_.:-]{1,31}$' }), { description: 'An ipset of destinations, which must exist when mwan3 starts.' }),
    sticky: field(boolean({ truthy: ['1'] }), { description: 'Keep a source on the interface it first used, with a policy section. Default false.' }),
    timeout: field(integer({ minimum: 0, maximum: 2147483 }), { description: 'Seconds a `sticky` source stays; 0 for ever. Default 600.' }),
    use_policy: field(text({ pattern: '^[A-Za-z0-9_]+$', maxLength: 32 }), {
      description: 'A mwan3/policies id, or default (main table), unreachable or blackhole. Unset: the rule is skipped.',
    }),
    logging: field(boolean({ truthy: ['1'] }), { description: 'Log matches, with `globals` logging. Default false.' }),
  },
  references: [
    { field: 'use_policy', package: 'mwan3', type: 'policy', except: BUILTIN_POLICIES },
    { field: 'src_iface', package: 'network', type: 'interface' },
  ],
  rules,
  checks: [
    'The `id` has at most 15 characters.',
    '`src_port` and `dest_port` only with `proto` tcp or udp, at most 15 ports each (a range counts two).',
    '`src_ip` and `dest_ip` of one family, and of `family` when given; no IPv6 address with an embedded IPv4 one.',
  ],
};

export default definition;
