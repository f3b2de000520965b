// Policy routing rules: netifd's `rule` (IPv4) and `rule6` (IPv6) sections, parsed by config.c
// config_parse_rule into iprule.c iprule_add (rule_attr list), installed by system-linux.c
// system_iprule. One resource serves both: `family` is the section type. uapi's Terraform provider
// (internal/provider/network_rule_resource.go) never sends `family`, which then follows the address
// form of `src` (or `dest`), sends `lookup` as an integer, and `action` lookup or goto beside the
// field of that name: netifd resolves `action` as a route type (system_rtn_aton), refuses those
// words and drops the rule, so they write no option and read back from `lookup` and `goto`. `throw`
// (its 2.x enum has it) is no rule action: netifd would send RTN_THROW (9) as the rule's action, past
// the kernel's last, FR_ACT_PROHIBIT (8). Not offered: `sport` and
// `dport` (netifd from 2025-04): OpenWrt 24.10's netifd ignores them, and the rule would then
// match every port. Kernel refusals netifd only logs (the rule is then missing): a `goto` at or
// before its own priority, a `goto` beside `action`, a uid range 0-0.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, text } from '../codecs.js';
import { IPV4, IPV6, PREFIX4, PREFIX6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules, type RuleContext } from '../model.js';
import {
  familyErrors,
  INT32,
  INTERFACE_NAME,
  interfaceSection,
  MARK,
  namedErrors,
  NETIFD_FLAG,
  NETMASK4,
  tableCheck,
  tableField,
  C_INTEGER,
} from './common.js';
import { conflict, given } from '../checks.js';

// iprule.c: src/dest with an explicit prefix (netifd before 3ec5038, 2026-07-02, read a bare
// address as /0 and matched everything).
const PREFIXED = { pattern: `^(${IPV4}/(${PREFIX4}|${NETMASK4})|${IPV6}/${PREFIX6})$` };

const U32 = '(429496729[0-5]|42949672[0-8][0-9]|4294967[01][0-9]{2}|429496[0-6][0-9]{3}|42949[0-5][0-9]{4}|4294[0-8][0-9]{5}|429[0-3][0-9]{6}|42[0-8][0-9]{7}|4[01][0-9]{8}|[1-3][0-9]{9}|[1-9][0-9]{0,8}|0)';

/** getprotobyname names musl knows, as system_resolve_iprule_ipproto resolves them; `0` and `ip` resolve to nothing useful. */
const PROTOCOLS = [
  'icmp', 'igmp', 'ggp', 'ipencap', 'st', 'tcp', 'egp', 'pup', 'udp', 'hmp', 'xns-idp', 'rdp', 'iso-tp4', 'xtp', 'ddp', 'idpr-cmtp',
  'ipv6', 'ipv6-route', 'ipv6-frag', 'idrp', 'rsvp', 'gre', 'esp', 'ah', 'skip', 'ipv6-icmp', 'ipv6-nonxt', 'ipv6-opts', 'rspf',
  'vmtp', 'ospf', 'ipip', 'encap', 'pim', 'sctp', 'udplite',
];
const IPPROTO = { pattern: `^(${PROTOCOLS.join('|')}|25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]?)$` };

function rangeOf(value: string): [number, number] {
  const [start, end] = value.split('-').map(Number);
  return [start, end ?? start];
}

function rangeErrors(body: JsonObject): FieldError[] {
  const value = valueAt(body, 'uidrange');
  if (typeof value !== 'string') return [];
  const [start, end] = rangeOf(value);
  if (start > end) return [conflict('uidrange', `uidrange: the range ${value} ends before it starts; the kernel refuses it`)];
  return start === 0 && end === 0 ? [conflict('uidrange', 'uidrange 0-0 is the kernel\'s "unset"; it refuses the rule')] : [];
}

function actionErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const action = valueAt(body, 'action');
  const target = valueAt(body, 'goto');
  if (typeof target === 'number') {
    if (given(body, 'action') && action !== 'goto') errors.push(conflict('goto', 'goto is an action of its own; the kernel refuses it beside action'));
    if (given(body, 'lookup')) errors.push(conflict('lookup', 'a goto rule does not look a table up; netifd would send the table and the kernel ignore it'));
    const priority = valueAt(body, 'priority');
    if (typeof priority !== 'number') errors.push(conflict('priority', 'a goto rule needs a priority below its target (the kernel refuses backward jumps; without priority netifd numbers rules 1, 2, ...)'));
    else if (target <= priority) errors.push(conflict('goto', 'goto must name a priority after the rule\'s own; the kernel refuses backward jumps'));
  } else if (action === 'goto') errors.push(conflict('action', 'action goto needs goto, the priority to continue at'));
  if (given(body, 'lookup') && given(body, 'action') && action !== 'lookup') errors.push(conflict('lookup', 'a rule with action does not look a table up'));
  if (action === 'lookup' && !given(body, 'lookup')) errors.push(conflict('action', 'action lookup needs lookup, the table to look up'));
  return errors;
}

function prefixErrors(body: JsonObject): FieldError[] {
  const value = valueAt(body, 'suppress_prefixlength');
  return valueAt(body, 'family') !== 'ipv6' && typeof value === 'number' && value > 32
    ? [conflict('suppress_prefixlength', 'an IPv4 prefix length is at most 32')]
    : [];
}

/** A rule naming an interface netifd does not know waits for it for ever; a disabled one is not known. */
function interfaceErrors(body: JsonObject, context: RuleContext): FieldError[] {
  if (valueAt(body, 'disabled') === true) return [];
  return ['in', 'out'].flatMap((path) => {
    const name = valueAt(body, path);
    const section = typeof name === 'string' ? interfaceSection(context, name) : undefined;
    const disabled = section && (section.options.get('disabled') === '1' || section.options.get('disabled') === 'true');
    return disabled ? [conflict(path, `interface ${name} is disabled; netifd would never install the rule`)] : [];
  });
}

export const rules: Rules = (body, context) => [
  ...familyErrors(body, ['src', 'dest']),
  ...rangeErrors(body),
  ...actionErrors(body),
  ...prefixErrors(body),
  ...interfaceErrors(body, context),
  ...namedErrors(body, context, 'lookup', 'table'),
];

const definition: ResourceDefinition = {
  path: 'network/rules',
  package: 'network',
  type: 'rule',
  typeBy: { field: 'family', types: { ipv4: 'rule', ipv6: 'rule6' }, family: ['src', 'dest'] },
  kind: 'collection',
  idPrefix: 'p_',
  reload: ['network'],
  description:
    'Policy routing rules (ip rule). A rule that matches sends the packet to `lookup`, jumps with `goto`, or drops it per `action`; ' +
    'with none of them it does nothing. A rule with `in` or `out` is installed only while that interface is up.',
  members: {
    family: field(choice(['ipv4', 'ipv6']), {
      description:
        'ipv4 (a `rule` section) or ipv6 (a `rule6` section): the section type, not an option. Changing it keeps the id. ' +
        'Default ipv6 when `src` (or without it `dest`) is an IPv6 prefix, ipv4 when another; without either, ipv4, or on a PUT the section\'s.',
    }),
    priority: field(integer(INT32, C_INTEGER), {
      description: 'Rule priority; lower runs first. Default: the section\'s position among the rules of its family (1, 2, ...), ahead of the main table\'s 32766.',
    }),
    in: field(text(INTERFACE_NAME), { description: 'Match packets arriving on this logical interface (network/interfaces id), by its current device.' }),
    out: field(text(INTERFACE_NAME), { description: 'Match packets leaving through this logical interface (for sockets bound to its device).' }),
    src: field(text(PREFIXED), { description: 'Source prefix `address/len` (IPv4 also `address/dotted-mask`), of the rule\'s family; `/32` or `/128` for one host.' }),
    dest: field(text(PREFIXED), { description: 'Destination prefix, as `src`.' }),
    tos: field(integer({ minimum: 0, maximum: 255 }, C_INTEGER), {
      description: 'TOS (IPv4) or traffic class (IPv6) byte to match. The kernel refuses values outside its TOS or DSCP mask (which depends on its version).',
    }),
    mark: field(text(MARK), { description: 'Firewall mark to match: `value[/mask]`, decimal or 0x hex.' }),
    uidrange: field(text({ pattern: `^${U32}(-${U32})?$` }), { description: 'Socket owner UID or range `start-end` to match.' }),
    ipproto: field(text(IPPROTO), { description: 'IP protocol to match: a name (tcp, udp, icmp, ...) or number 1-255.' }),
    invert: field(boolean(NETIFD_FLAG), { description: 'Apply the rule to packets that do not match. Default false.' }),
    lookup: tableField('Routing table to look the packet up in: a number, or main, default, local or a name from /etc/iproute2/rt_tables.'),
    suppress_prefixlength: field(integer({ minimum: 0, maximum: 128 }, C_INTEGER), {
      description: 'Ignore a `lookup` result whose prefix is this long or shorter (0 ignores default routes).',
    }),
    goto: field(integer({ minimum: 1, maximum: 2147483647 }, C_INTEGER), { description: 'Continue at the rule with this priority, which must come after this rule\'s `priority`.' }),
    action: field(choice(['lookup', 'goto', 'prohibit', 'unreachable', 'blackhole']), {
      implied: { goto: 'goto', lookup: 'lookup' },
      description:
        'lookup (with `lookup`) or goto (with `goto`), which write no option and read back while that field is set; or drop matching ' +
        'packets: prohibit (EACCES), unreachable (ENETUNREACH) or blackhole (silently), not with `lookup` or `goto`.',
    }),
    disabled: field(boolean(NETIFD_FLAG), { description: 'A disabled rule is not installed. netifd reads `1` and `true` as true. Default false.' }),
  },
  references: [
    { field: 'in', package: 'network', type: 'interface' },
    { field: 'out', package: 'network', type: 'interface' },
  ],
  rules,
  checks: [
    '`src` and `dest` are prefixes of `family`.',
    '`uidrange` must not end before it starts, and is not 0-0.',
    '`goto` needs `priority` below it and is not combined with `lookup` or an `action` other than goto; `lookup` is not combined with an `action` other than lookup; `action` lookup and goto need the field of that name.',
    'An IPv4 `suppress_prefixlength` is at most 32.',
    '`in` and `out` must not name a disabled interface (unless the rule is disabled).',
    tableCheck('lookup'),
  ],
};

export default definition;
