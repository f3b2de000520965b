import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, FIREWALL4_BOOLEAN, firewall4Family, flagOrText, list, text, words } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import {
  ADDRESS,
  COUNTER,
  dateOrderCheck,
  dateOrderErrors,
  disabledZoneCheck,
  disabledZoneErrors,
  familyCheck,
  familyErrors,
  HOST,
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
  rangeCheck,
  rangeErrors,
  SET_HELPER,
  ZONE_NAME,
  ZONE_REFERENCE,
} from './common.js';
import { conflict, given, outOfRange, required } from '../checks.js';

const REWRITE_ADDRESS = new RegExp(HOST.pattern);

/** A zone a target needs: present, and a real zone rather than `*`. */
function namedZoneErrors(body: JsonObject, path: string, target: string): FieldError[] {
  if (!given(body, path)) return [required(path, `target ${target} needs ${path}`)];
  return valueAt(body, path) === '*' ? [conflict(path, `target ${target} needs a named zone in ${path}, not *`)] : [];
}

/** The address and port fields a target rewrites to take no `!`, prefix or mask (fw4 skips or ignores them). */
function rewriteErrors(body: JsonObject, address: string, port: string, target: string): FieldError[] {
  const errors: FieldError[] = [];
  const rewrite = valueAt(body, address);
  if (typeof rewrite === 'string' && !REWRITE_ADDRESS.test(rewrite)) {
    errors.push(conflict(address, `${target} rewrites to ${address}: one address or a range, without !, prefix or mask`));
  }
  const rewritePort = valueAt(body, port);
  if (typeof rewritePort === 'string' && rewritePort.startsWith('!')) errors.push(conflict(port, `${target} rewrites to ${port}, which cannot be negated`));
  // The field matches under the other target, where port 0 is a match like any other.
  if (typeof rewritePort === 'string' && /^0([-:]|$)/.test(rewritePort)) errors.push(outOfRange(port, `${target} rewrites to ${port}, a port 1-65535`));
  return errors;
}

function targetErrors(body: JsonObject): FieldError[] {
  if (valueAt(body, 'target') !== 'SNAT') {
    return [...namedZoneErrors(body, 'match.src_zone', 'DNAT'), ...rewriteErrors(body, 'match.dest_ip', 'match.dest_port', 'DNAT')];
  }
  const errors = [...namedZoneErrors(body, 'match.dest_zone', 'SNAT'), ...rewriteErrors(body, 'match.src_dip', 'match.src_dport', 'SNAT')];
  if (!given(body, 'match.src_dip')) errors.push(required('match.src_dip', 'target SNAT needs match.src_dip, the address to rewrite to'));
  for (const path of ['match.src_mac', 'match.helper', 'reflection', 'reflection_src', 'reflection_zone']) {
    if (given(body, path)) errors.push(conflict(path, `${path} applies only to target DNAT`));
  }
  return errors;
}

const PORTS = ['match.src_port', 'match.src_dport', 'match.dest_port'];
const RANGES = [...PORTS, 'match.src_ip', 'match.src_dip', 'match.dest_ip'];
const ADDRESSES = ['match.src_ip', 'match.src_dip', 'match.dest_ip'];
const ZONES = ['match.src_zone', 'match.dest_zone', 'reflection_zone'];

export const rules: Rules = (body, context) => [
  ...targetErrors(body),
  ...portProtocolErrors(body, PORTS),
  ...rangeErrors(body, RANGES),
  ...dateOrderErrors(body, 'match'),
  ...familyErrors(body, 'match.family', ADDRESSES),
  ...disabledZoneErrors(body, context, ZONES),
  ...ipsetErrors(body, context, 'match.ipset'),
];

const definition: ResourceDefinition = {
  path: 'firewall/redirects',
  package: 'firewall',
  type: 'redirect',
  kind: 'collection',
  idPrefix: 'd_',
  reload: ['firewall'],
  description:
    'Port forwards (DNAT, the default) with NAT loopback (reflection), and legacy source NAT (SNAT; new source NAT belongs in ' +
    'firewall/nat). `match` holds the redirect\'s addresses and ports: on a DNAT `match.dest_ip`/`match.dest_port` are the rewrite ' +
    'target and the others what the original packet is matched on. On an SNAT the roles swap: `match.dest_ip`/`match.dest_port` ' +
    'match the original destination and `match.src_dip`/`match.src_dport` are the rewrite source. An unset `match.family` means ' +
    'IPv4 only unless the addresses say otherwise.',
  members: {
    name: field(text(LABEL), { description: 'Label in the ruleset comments and log prefixes; default the section id.' }),
    enabled: field(boolean(FIREWALL4_BOOLEAN), { description: 'A disabled redirect is ignored by firewall4. Default true.' }),
    target: field(choice(['DNAT', 'SNAT'], { prefixes: true }), {
      description: 'DNAT (default): forward to `match.dest_ip`/`match.dest_port`. SNAT: rewrite the source to `match.src_dip`.',
    }),
    reflection: field(boolean(FIREWALL4_BOOLEAN), {
      description: 'DNAT: NAT loopback, so internal hosts reach the forward by its external address. Needs `match.dest_ip`, a destination zone (given or guessed) and masquerading on the source zone. Default true.',
    }),
    reflection_src: field(choice(['internal', 'external'], { prefixes: true }), { description: 'DNAT: source address of reflected traffic, the router\'s internal (default) or external one.' }),
    reflection_zone: field(list(ZONE_NAME), { description: 'DNAT: zones reflection rules are made for; default `match.dest_zone`.' }),
    log: field(flagOrText(FIREWALL4_BOOLEAN, LOG_PREFIX), { description: 'Log matching packets: true logs with the prefix `<name>: `, a string is the prefix itself.' }),
    log_limit: field(text(LIMIT), { description: 'Rate limit of the log messages, as `match.limit`.' }),
    counter: COUNTER,
    match: {
      description: 'What the original packet is matched on, and the DNAT target. Every field but `proto` is a single value.',
      fields: {
        src_zone: field(text(ZONE_REFERENCE), { option: 'src', description: 'DNAT: the zone the traffic arrives from (required, not `*`).' }),
        dest_zone: field(text(ZONE_REFERENCE), { option: 'dest', description: 'DNAT: the zone of `dest_ip`, guessed from its subnet when unset. SNAT: the outbound zone (required, not `*`).' }),
        family: field(firewall4Family(), { description: 'Address family; unset means IPv4 unless the addresses are IPv6.' }),
        proto: field(list(PROTOCOL), { description: 'Protocols: names, numbers 0-255, `all`, or `tcpudp`. Default tcp and udp. Ports apply only with tcp and udp.' }),
        src_ip: field(text(ADDRESS), { description: 'Source address: address, `addr/prefix`, `addr/mask` or range `a-b`; `!` negates.' }),
        // firewall4 reads a list; the spec makes every match field but proto a scalar.
        src_mac: field(words(MAC), { description: 'DNAT: source MAC addresses, space-separated in one string; `!` negates.' }),
        src_port: field(text(PORT), { description: 'Source port or range; `!` negates.' }),
        src_dip: field(text(ADDRESS), {
          description: 'DNAT: the external (original destination) address to match, also used by reflection; `!` negates. SNAT: the address to rewrite the source to (required; no `!`, prefix or mask).',
        }),
        src_dport: field(text(PORT), { description: 'DNAT: the external port or range to match; `!` negates. SNAT: the source port to rewrite to (no `!`).' }),
        dest_ip: field(text(ADDRESS), {
          description: 'DNAT: internal address or range to forward to (no `!`, prefix or mask); unset redirects to the router itself. SNAT: destination address to match.',
        }),
        dest_port: field(text(PORT), { description: 'DNAT: internal port or range to forward to (no `!`); default `src_dport`. SNAT: destination port to match.' }),
        ipset: field(text(IPSET), { description: 'A declared firewall ipset to match, optionally with directions: `name [src|dest[,...]]`; `!` negates.' }),
        helper: field(text(SET_HELPER), { description: 'DNAT: conntrack helper to match, by name (no `!`).' }),
        ...MATCH_MARK_RATE_TIME,
      },
    },
  },
  references: [
    { field: 'match.src_zone', package: 'firewall', type: 'zone', by: 'name', except: ['*'] },
    { field: 'match.dest_zone', package: 'firewall', type: 'zone', by: 'name', except: ['*'] },
    { field: 'reflection_zone', package: 'firewall', type: 'zone', by: 'name' },
  ],
  rules,
  checks: [
    '`target` DNAT (the default) needs a named `match.src_zone` (not `*`); its `match.dest_ip` is one address or a range, without `!`, prefix or mask, and `match.dest_port` takes no `!` and no port 0.',
    '`target` SNAT needs a named `match.dest_zone` (not `*`) and `match.src_dip`, one address or a range without `!`, prefix or mask; `match.src_dport` takes no `!` and no port 0; `match.src_mac`, `match.helper`, `reflection`, `reflection_src` and `reflection_zone` only with DNAT.',
    portProtocolCheck(PORTS),
    rangeCheck(RANGES),
    dateOrderCheck('match'),
    familyCheck('match.family', ADDRESSES),
    disabledZoneCheck(ZONES),
    ipsetCheck('match.ipset'),
  ],
};

export default definition;
