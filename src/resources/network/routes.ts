// Static routes: netifd's `route` (IPv4) and `route6` (IPv6) sections, parsed by config.c
// config_parse_route into interface-ip.c interface_ip_add_route (route_attr list) and installed by
// system-linux.c system_rt. One resource serves both: `family` is the section type. uapi's
// Terraform provider (internal/provider/network_route_resource.go) never sends `family`, which then
// follows the address form of `target` (or `gateway`), and sends `table` as an integer.
// Not modelled: `valid` (a lifetime in seconds; netifd before 2026-07 ignored it on configured
// routes, later ones expire the route after it: the meaning depends on the version).

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules, type RuleContext } from '../model.js';
import {
  ANY_ADDRESS,
  ANY_CIDR,
  familyErrors,
  hostBitsSet,
  INT32,
  INTERFACE_NAME,
  interfaceSection,
  namedErrors,
  NETIFD_FLAG,
  NETMASK,
  prefixLength,
  ROUTE_PROTO,
  tableCheck,
  tableField,
  C_INTEGER,
} from './common.js';
import { conflict, given } from '../checks.js';

/** Route types netifd resolves (system_rtn_aton) that the kernel installs; nat, xresolve and failed_policy it refuses. */
const TYPES = ['unicast', 'local', 'broadcast', 'anycast', 'multicast', 'blackhole', 'unreachable', 'prohibit', 'throw'];
/** Types system_rt installs without a device; the kernel refuses a gateway on them. */
const NO_NEXTHOP = ['blackhole', 'unreachable', 'prohibit', 'throw'];

function familyOf(body: JsonObject): 4 | 6 {
  return valueAt(body, 'family') === 'ipv6' ? 6 : 4;
}

function maskErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const family = familyOf(body);
  const target = valueAt(body, 'target');
  const netmask = valueAt(body, 'netmask');
  if (typeof netmask === 'string') {
    if (family === 6 && netmask.includes('.')) errors.push(conflict('netmask', 'a dotted netmask is IPv4 only; give route6 prefixes in target as addr/len'));
    if (family === 4 && !netmask.includes('.') && Number(netmask) > 32) errors.push(conflict('netmask', 'an IPv4 prefix length is at most 32'));
    if (typeof target === 'string' && target.includes('/') && prefixLength(target.split('/')[1]) !== prefixLength(netmask)) {
      errors.push(conflict('netmask', 'target carries its own prefix length, which netifd uses instead of netmask; give one of them'));
    }
  }
  if (typeof target === 'string' && hostBitsSet(target, typeof netmask === 'string' ? netmask : undefined)) {
    errors.push(conflict('target', `${target} has host bits set; give the network address (netifd versions disagree on such a target)`));
  }
  return errors;
}

function sourceErrors(body: JsonObject): FieldError[] {
  const source = valueAt(body, 'source');
  if (typeof source !== 'string' || familyOf(body) === 6 || !source.includes('/') || source.endsWith('/32')) return [];
  return [conflict('source', 'an IPv4 source is the preferred source address of the route; netifd ignores a prefix there (and drops the address with /0)')];
}

function typeErrors(body: JsonObject): FieldError[] {
  const type = valueAt(body, 'type');
  const errors: FieldError[] = [];
  if (typeof type === 'string' && NO_NEXTHOP.includes(type) && given(body, 'gateway')) {
    errors.push(conflict('gateway', `a ${type} route has no next hop; the kernel refuses a gateway on it`));
  }
  return errors;
}

function mtuErrors(body: JsonObject): FieldError[] {
  const mtu = valueAt(body, 'mtu');
  return familyOf(body) === 6 && typeof mtu === 'number' && mtu < 1280 ? [conflict('mtu', 'an IPv6 route MTU is at least 1280')] : [];
}

/** netifd drops a route naming an interface it does not know (a disabled one included), and binds one without interface to `loopback`. */
function interfaceErrors(body: JsonObject, context: RuleContext): FieldError[] {
  if (valueAt(body, 'disabled') === true) return [];
  const name = valueAt(body, 'interface');
  const section = interfaceSection(context, typeof name === 'string' ? name : 'loopback');
  if (!section) return typeof name === 'string' ? [] : [conflict('interface', 'without interface netifd binds the route to the interface loopback, which is not configured')];
  return section.options.get('disabled') === '1' || section.options.get('disabled') === 'true'
    ? [conflict('interface', `interface ${section.name} is disabled; netifd would drop the route`)]
    : [];
}

export const rules: Rules = (body, context) => [
  ...familyErrors(body, ['target', 'gateway', 'source']),
  ...maskErrors(body),
  ...sourceErrors(body),
  ...typeErrors(body),
  ...mtuErrors(body),
  ...interfaceErrors(body, context),
  ...namedErrors(body, context, 'table', 'table'),
  ...namedErrors(body, context, 'proto', 'proto'),
];

const definition: ResourceDefinition = {
  path: 'network/routes',
  package: 'network',
  type: 'route',
  typeBy: { field: 'family', types: { ipv4: 'route', ipv6: 'route6' }, family: ['target', 'gateway'] },
  kind: 'collection',
  idPrefix: 'r_',
  reload: ['network'],
  description:
    'Static routes. netifd installs a route while its interface is up, into `table` (default the interface\'s ip4table/ip6table, ' +
    'else main). A route netifd cannot parse is dropped without a trace, so every value is checked here.',
  members: {
    family: field(choice(['ipv4', 'ipv6']), {
      description:
        'ipv4 (a `route` section) or ipv6 (a `route6` section): the section type, not an option. Changing it keeps the id. ' +
        'Default ipv6 when `target` (or without it `gateway`) is an IPv6 address, else ipv4.',
    }),
    interface: field(text(INTERFACE_NAME), {
      description:
        'The logical interface (network/interfaces id) the route belongs to: installed while it is up, through its device, with its ' +
        'metric and table as defaults. Omitted: bound to the `loopback` interface and to no device (the kernel finds it from `gateway`).',
    }),
    target: field(text(ANY_CIDR), {
      required: true,
      description:
        'Destination: `address/prefix` (`0.0.0.0/0` or `::/0` for a default route), or an address with `netmask`; a bare address is a ' +
        'host route. IPv4 as a network address (no host bits).',
    }),
    netmask: field(text(NETMASK), { description: 'IPv4 prefix of a `target` given without one: dotted contiguous mask or length. Default 32 (128 for IPv6).' }),
    gateway: field(text(ANY_ADDRESS), { description: 'Next hop, of the route\'s family. Omitted (or 0.0.0.0 / ::): directly connected on the interface.' }),
    metric: field(integer(INT32, C_INTEGER), { description: 'Route metric (kernel priority); lower wins. Default the interface\'s `metric`, else 0.' }),
    mtu: field(integer({ minimum: 68, maximum: 65520 }, C_INTEGER), { description: 'Path MTU for the destination; the kernel clamps above 65520. IPv6 at least 1280. Default the device\'s.' }),
    table: tableField('Routing table: a number 1-4294967295, or `main`, `default`, `local` or a name from /etc/iproute2/rt_tables. Default the interface\'s table, else main.'),
    source: field(text(ANY_CIDR), {
      description:
        'IPv4: the preferred source address for traffic using the route (no prefix). IPv6: a source prefix `addr[/len]` the route is ' +
        'restricted to (source-specific routing).',
    }),
    onlink: field(boolean(NETIFD_FLAG), { description: 'Treat `gateway` as on-link even when no address of the interface covers it. Default false.' }),
    type: field(choice(TYPES), {
      description:
        'unicast (default), local, broadcast, anycast, multicast, or a route that drops: blackhole (silently), unreachable, prohibit, ' +
        'throw (continue with the next rule). local, broadcast and anycast go to the local table unless `table` is given.',
    }),
    proto: field(text(ROUTE_PROTO), { description: 'Routing protocol tag: 0-255, unspec, kernel, boot, static, or a name from /etc/iproute2/rt_protos. Default static.' }),
    disabled: field(boolean(NETIFD_FLAG), { description: 'A disabled route is not installed. netifd reads `1` and `true` as true. Default false.' }),
  },
  references: [{ field: 'interface', package: 'network', type: 'interface' }],
  rules,
  checks: [
    '`target`, `gateway` and `source` are addresses of `family`.',
    '`netmask` is a dotted mask for IPv4 only and at most 32 for IPv4; not with a `target` that carries another prefix length.',
    'An IPv4 `target` has no host bits set.',
    'An IPv4 `source` carries no prefix (or /32).',
    '`gateway` not with `type` blackhole, unreachable, prohibit or throw.',
    'An IPv6 `mtu` is at least 1280.',
    '`interface` must not name a disabled interface; without `interface` an interface `loopback` must exist (unless the route is disabled).',
    tableCheck('table'),
    '`proto` names a number, unspec, kernel, boot, static or a name /etc/iproute2/rt_protos gives a protocol 0-255.',
  ],
};

export default definition;
