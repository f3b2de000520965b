import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, FIREWALL4_BOOLEAN, firewall4Family, flagOrText, list, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import {
  ADDRESS,
  COUNTER,
  dateOrderCheck,
  dateOrderErrors,
  DEVICE,
  disabledZoneCheck,
  disabledZoneErrors,
  familyCheck,
  familyErrors,
  HELPER,
  IPSET,
  ipsetCheck,
  ipsetErrors,
  LABEL,
  LIMIT,
  LOG_PREFIX,
  MAC,
  MATCH_MARK_RATE_TIME,
  PORT,
  portProtocolCheck,
  portProtocolErrors,
  PROTOCOL,
  protocols,
  rangeCheck,
  rangeErrors,
  SET_HELPER,
  SET_MARK,
  ZONE_REFERENCE,
} from './common.js';
import { conflict, given, required, strings } from '../checks.js';

// fw4's ICMP type tables (parse_icmptype): a name known to one family only matches in that family.
const ICMP4_TYPES = [
  'any', 'echo-reply', 'pong', 'destination-unreachable', 'network-unreachable', 'host-unreachable', 'protocol-unreachable',
  'port-unreachable', 'fragmentation-needed', 'source-route-failed', 'network-unknown', 'host-unknown', 'network-prohibited',
  'host-prohibited', 'TOS-network-unreachable', 'TOS-host-unreachable', 'communication-prohibited', 'host-precedence-violation',
  'precedence-cutoff', 'source-quench', 'redirect', 'network-redirect', 'host-redirect', 'TOS-network-redirect', 'TOS-host-redirect',
  'echo-request', 'ping', 'router-advertisement', 'router-solicitation', 'time-exceeded', 'ttl-exceeded', 'ttl-zero-during-transit',
  'ttl-zero-during-reassembly', 'parameter-problem', 'ip-header-bad', 'required-option-missing', 'timestamp-request',
  'timestamp-reply', 'address-mask-request', 'address-mask-reply',
];
const ICMP6_TYPES = [
  'destination-unreachable', 'no-route', 'communication-prohibited', 'address-unreachable', 'port-unreachable', 'packet-too-big',
  'time-exceeded', 'ttl-exceeded', 'ttl-zero-during-transit', 'ttl-zero-during-reassembly', 'parameter-problem', 'bad-header',
  'unknown-header-type', 'unknown-option', 'echo-request', 'ping', 'echo-reply', 'pong', 'multicast-listener-query',
  'multicast-listener-report', 'multicast-listener-done', 'router-solicitation', 'router-advertisement', 'neighbour-solicitation',
  'neighbor-solicitation', 'neighbour-advertisement', 'neighbor-advertisement', 'redirect', 'router-renumbering', 'node-info-query',
  'node-info-response', 'inverse-neighbour-discovery-solicitation-message', 'inverse-neighbor-discovery-solicitation-message',
  'inverse-neighbour-discovery-advertisement-message', 'inverse-neighbor-discovery-advertisement-message',
  'v2-multicast-listener-report', 'home-agent-address-discovery-request-message', 'home-agent-address-discovery-reply-message',
  'mobile-prefix-solicitation', 'mobile-prefix-advertisement', 'certification-path-solicitation-message',
  'certification-path-advertisement-message', 'seamoby-protocol-message', 'multicast-router-advertisement',
  'multicast-router-solicitation', 'multicast-router-termination', 'fmipv6-message', 'rpl-control-message',
  'ilnpv6-locator-update-message', 'duplicate-address-request', 'duplicate-address-confirmation', 'mpl-control-message',
  'extended-echo-request', 'extended-ping', 'extended-echo-reply', 'extended-pong',
];
const ICMP_NUMBER = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
// A pure call: see PROTOCOL in common.ts.
const ICMP_TYPE = { pattern: /*#__PURE__*/ (() => `^(${[...new Set([...ICMP4_TYPES, ...ICMP6_TYPES])].join('|')}|${ICMP_NUMBER}(/${ICMP_NUMBER})?)$`)() };
const ICMP_PROTOCOLS = ['icmp', '1', 'icmpv6', 'ipv6-icmp', '58'];
const ICMP6_PROTOCOLS = ['icmpv6', 'ipv6-icmp', '58'];

// parse_dscp upper-cases before it looks the class up.
const DSCP_VALUE = '([Cc][Ss][0-7]|[Bb][Ee]|[Ll][Ee]|[Aa][Ff][1-4][1-3]|[Ee][Ff]|6[0-3]|[1-5]?[0-9]|0[xX][1-3]?[0-9A-Fa-f])';

// The target that reads each set_* option; firewall4 ignores it under any other.
const TARGET_OPTIONS: [string, string][] = [
  ['set_mark', 'MARK'],
  ['set_xmark', 'MARK'],
  ['set_dscp', 'DSCP'],
  ['set_helper', 'HELPER'],
];

/** ICMP types apply only to ICMP protocols; fw4 drops a type its family lacks, which can leave every ICMP type matched. */
function icmpErrors(body: JsonObject): FieldError[] {
  if (!given(body, 'match.icmp_type')) return [];
  const list = protocols(body);
  if (!list.length || !list.every((protocol) => ICMP_PROTOCOLS.includes(protocol))) {
    return [conflict('match.icmp_type', 'match.icmp_type applies only to proto icmp or icmpv6; firewall4 ignores it for other protocols')];
  }
  const declared = valueAt(body, 'match.family');
  const family = list.every((protocol) => ICMP6_PROTOCOLS.includes(protocol)) ? 6 : declared === 'ipv4' ? 4 : declared === 'ipv6' ? 6 : 0;
  if (!family) return [];
  const known = family === 4 ? ICMP4_TYPES : ICMP6_TYPES;
  return strings(body, 'match.icmp_type')
    .filter(([, type]) => !/^\d/.test(type) && !known.includes(type))
    .map(([where, type]) => conflict(where, `${type} is not an IPv${family} ICMP type; firewall4 would ignore it`));
}

function targetErrors(body: JsonObject): FieldError[] {
  const target = valueAt(body, 'target');
  const errors: FieldError[] = [];
  if (target === 'NOTRACK' || target === 'HELPER') {
    if (!given(body, 'match.src_zone')) errors.push(required('match.src_zone', `target ${target} needs a source zone`));
    else if (valueAt(body, 'match.src_zone') === '*') errors.push(conflict('match.src_zone', `target ${target} needs a named source zone, not *`));
  }
  if (target === 'MARK' && !given(body, 'set_mark') && !given(body, 'set_xmark')) errors.push(required('set_mark', 'target MARK needs set_mark or set_xmark'));
  if (target === 'DSCP' && !given(body, 'set_dscp')) errors.push(required('set_dscp', 'target DSCP needs set_dscp'));
  if (target === 'HELPER' && !given(body, 'set_helper')) errors.push(required('set_helper', 'target HELPER needs set_helper'));
  for (const [option, owner] of TARGET_OPTIONS) {
    if (target !== owner && given(body, option)) errors.push(conflict(option, `${option} applies only to target ${owner}`));
  }
  if (given(body, 'set_mark') && given(body, 'set_xmark')) errors.push(conflict('set_xmark', 'firewall4 ignores set_xmark when set_mark is set'));
  return errors;
}

const PORTS = ['match.src_port', 'match.dest_port'];
const RANGES = [...PORTS, 'match.src_ip', 'match.dest_ip'];
const ZONES = ['match.src_zone', 'match.dest_zone'];

export const rules: Rules = (body, context) => [
  ...targetErrors(body),
  ...portProtocolErrors(body, PORTS),
  ...icmpErrors(body),
  ...rangeErrors(body, RANGES),
  ...dateOrderErrors(body, 'match'),
  ...familyErrors(body, 'match.family', ['match.src_ip', 'match.dest_ip']),
  ...disabledZoneErrors(body, context, ZONES),
  ...ipsetErrors(body, context, 'match.ipset'),
];

const definition: ResourceDefinition = {
  path: 'firewall/rules',
  package: 'firewall',
  type: 'rule',
  kind: 'collection',
  idPrefix: 'r_',
  reload: ['firewall'],
  description:
    'Traffic rules. `match` selects packets: with `src_zone` and `dest_zone` forwarded traffic, with `src_zone` only traffic to the ' +
    'router, with `dest_zone` only or neither traffic from the router. `target` decides what happens to them.',
  members: {
    name: field(text(LABEL), { description: 'Label in the ruleset comments and log prefixes; default the section id.' }),
    enabled: field(boolean(FIREWALL4_BOOLEAN), { description: 'A disabled rule is ignored by firewall4. Default true.' }),
    target: field(choice(['ACCEPT', 'REJECT', 'DROP', 'NOTRACK', 'HELPER', 'MARK', 'DSCP'], { prefixes: true }), {
      description:
        'ACCEPT, REJECT or DROP; NOTRACK (needs `match.src_zone`); HELPER (needs `match.src_zone` and `set_helper`); MARK (needs ' +
        '`set_mark` or `set_xmark`); DSCP (needs `set_dscp`). Unset: the rule only counts matching packets.',
    }),
    set_mark: field(text(SET_MARK), { description: 'MARK: zero the bits of `mask` (default all), then OR in `value`: `value[/mask]`, decimal or 0x hex.' }),
    set_xmark: field(text(SET_MARK), { description: 'MARK: zero the bits of `mask` (default all), then XOR in `value`: `value[/mask]`, decimal or 0x hex.' }),
    set_dscp: field(text({ pattern: `^${DSCP_VALUE}$` }), { description: 'DSCP: the class (CS0-CS7, BE, LE, AF11-AF43, EF) or value 0-63 to set.' }),
    set_helper: field(text(SET_HELPER), { description: 'HELPER: the conntrack helper to assign, by its name in /usr/share/firewall4/helpers.' }),
    device: field(text(DEVICE), { description: 'Network device to match, incoming or outgoing per `direction`; `eth*` matches a prefix.' }),
    direction: field(choice(['in', 'out', 'ingress', 'egress']), { description: '`in` (same as `ingress`, the default) or `out` (`egress`): how `device` is matched.' }),
    log: field(flagOrText(FIREWALL4_BOOLEAN, LOG_PREFIX), { description: 'Log matching packets: true logs with the prefix `<name>: `, a string is the prefix itself.' }),
    log_limit: field(text(LIMIT), { description: 'Rate limit of the log messages, as `match.limit`.' }),
    counter: COUNTER,
    match: {
      description: 'What the rule matches. Every given field must match; a list matches any of its items, and its `!` items exclude.',
      fields: {
        src_zone: field(text(ZONE_REFERENCE), { option: 'src', description: 'Source zone, or `*` for any zone.' }),
        dest_zone: field(text(ZONE_REFERENCE), { option: 'dest', description: 'Destination zone, or `*` for any zone.' }),
        family: field(firewall4Family(), { description: 'Address family; default: as the addresses, zones and ICMP types imply, else both.' }),
        proto: field(list(PROTOCOL), {
          description: 'Protocols: names (tcp, udp, icmp, icmpv6, esp, gre, ...), numbers 0-255, `all`, or `tcpudp`. Default tcp and udp.',
        }),
        src_ip: field(list(ADDRESS), { description: 'Source addresses: address, `addr/prefix`, `addr/mask` or range `a-b`; `!` negates.' }),
        src_mac: field(list(MAC), { description: 'Source MAC addresses; `!` negates.' }),
        src_port: field(list(PORT), { description: 'Source ports or ranges (`N-M`); `!` negates. Only with tcp and udp.' }),
        dest_ip: field(list(ADDRESS), { description: 'Destination addresses, as `src_ip`.' }),
        dest_port: field(list(PORT), { description: 'Destination ports or ranges (`N-M`); `!` negates. Only with tcp and udp.' }),
        icmp_type: field(list(ICMP_TYPE), { description: 'ICMP types by name or as `type[/code]` (0-255). Only with proto icmp or icmpv6.' }),
        dscp: field(text({ pattern: `^!?${DSCP_VALUE}$` }), { description: 'DSCP class or value 0-63 to match; `!` negates.' }),
        ipset: field(text(IPSET), { description: 'A declared firewall ipset to match, optionally with directions: `name [src|dest[,...]]`; `!` negates.' }),
        helper: field(text(HELPER), { description: 'Conntrack helper to match, by name; `!` negates.' }),
        ...MATCH_MARK_RATE_TIME,
      },
    },
  },
  references: [
    { field: 'match.src_zone', package: 'firewall', type: 'zone', by: 'name', except: ['*'] },
    { field: 'match.dest_zone', package: 'firewall', type: 'zone', by: 'name', except: ['*'] },
  ],
  rules,
  checks: [
    '`target` NOTRACK and HELPER need a named `match.src_zone` (not `*`); MARK needs `set_mark` or `set_xmark`; DSCP needs `set_dscp`; HELPER needs `set_helper`.',
    '`set_mark`, `set_xmark`, `set_dscp` and `set_helper` only with their target (MARK, MARK, DSCP, HELPER); `set_xmark` not with `set_mark`.',
    portProtocolCheck(PORTS),
    '`match.icmp_type` only with `match.proto` icmp or icmpv6, and each named type of the family `match.family` or the protocols imply.',
    rangeCheck(RANGES),
    dateOrderCheck('match'),
    familyCheck('match.family', ['match.src_ip', 'match.dest_ip']),
    disabledZoneCheck(ZONES),
    ipsetCheck('match.ipset'),
  ],
};

export default definition;
