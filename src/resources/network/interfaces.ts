// Logical interfaces: netifd's `interface` sections (config.c config_parse_interface, then
// interface.c interface_alloc over iface_attrs, the proto handler's own options, and the simple
// device options of device.c). Proto handlers: static (proto.c proto_apply_static_ip_settings),
// dhcp (dhcp.sh), dhcpv6 (odhcp6c dhcpv6.sh), pppoe (ppp.sh), wireguard (wireguard.sh). The
// handlers share option names with different meanings (`norelease` is a BOOL for dhcp and pppoe,
// the string "1" for dhcpv6), so each proto's options are a group read only while `proto` selects it.
// Not modelled (a PUT deletes them): legacy `ifname` (the device before OpenWrt 21.02), legacy
// `type bridge` with its bridge options, jail*, host_device, tags, renew, carrier_loss_delay,
// ip6prefix extras; pppd_options, connect, disconnect (arbitrary pppd options and scripts run as
// root: not offered through the API).

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, list, text } from '../codecs.js';
import { IPV4, IPV6, PREFIX4, PREFIX6 } from '../addresses.js';
import { valueAt, type Field, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import {
  ANY_ADDRESS,
  DEVICE_NAME,
  DEVICE_OR_ALIAS,
  INT32,
  INTERFACE_DISABLED,
  INTERFACE_NAME,
  IPV4_ADDRESS,
  IPV4_CIDR,
  IPV6_ADDRESS,
  IPV6_CIDR,
  MAC,
  namedErrors,
  NETIFD_BOOLEAN,
  NETIFD_FLAG,
  NETMASK,
  onlyWith,
  onlyWithCheck,
  STRING_ONE,
  TABLE,
  tableCheck,
  WIREGUARD_KEY,
  C_INTEGER,
} from './common.js';
import { conflict, given, strings } from '../checks.js';

const PROTOS = ['static', 'dhcp', 'dhcpv6', 'pppoe', 'wireguard', 'none'];
// A BOOL netifd drops when it is neither 1/true nor 0/false, so its default (true) applies.
/*#__NO_SIDE_EFFECTS__*/
const on = (description: string) => field(boolean({ ...NETIFD_BOOLEAN, otherwise: true }), { description });
/*#__NO_SIDE_EFFECTS__*/
const off = (description: string) => field(boolean(NETIFD_FLAG), { description });
/*#__NO_SIDE_EFFECTS__*/
const int = (description: string, range: { minimum: number; maximum: number } = INT32) => field(integer(range, C_INTEGER), { description });
const NO_BLANKS = { pattern: '^[^\\s]+$', maxLength: 255 };
const HEX_PAIRS = { pattern: '^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2})*$', maxLength: 255 };
const DOMAIN = { pattern: '^[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\\.?$', maxLength: 253 };
const U32 = '(429496729[0-5]|42949672[0-8][0-9]|4294967[01][0-9]{2}|429496[0-6][0-9]{3}|42949[0-5][0-9]{4}|4294[0-8][0-9]{5}|429[0-3][0-9]{6}|42[0-8][0-9]{7}|4[01][0-9]{8}|[1-3][0-9]{9}|[1-9][0-9]{0,8}|0)';
/**
 * static ip6prefix (proto.c parse_prefix_option): `prefix/1-64[,preferred[,valid]]`, lifetimes in
 * seconds, 4294967295 for ever; strtoul reads a longer one differently on 32- and 64-bit targets.
 */
const IP6PREFIX = { pattern: `^${IPV6}/([1-9]|[1-5][0-9]|6[0-4])(,${U32}(,${U32})?)?$` };
/** udhcpc -O and -x: a name, or an option code below 255 (a larger number is read as an unknown name, and udhcpc exits). */
const DHCP_CODE = '(25[0-4]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]?|0[xX](0?[1-9A-Fa-f]|[1-9A-Ea-e][0-9A-Fa-f]|[Ff][0-9A-Ea-e])|[A-Za-z][A-Za-z0-9]*)';

const DHCP: Record<string, Field> = {
  hostname: field(text({ pattern: '^(\\*|[A-Za-z0-9][A-Za-z0-9._-]{0,252})$' }), { description: 'Host name sent to the server; `*` sends none. Default the router\'s host name.' }),
  clientid: field(text(HEX_PAIRS), { description: 'Client identifier (option 61) as hex bytes, `:` or `-` between bytes allowed. Default the MAC address.' }),
  vendorid: field(text(NO_BLANKS), { description: 'Vendor class identifier (option 60), without blanks (older dhcp.sh split it). Default udhcpc\'s.' }),
  broadcast: off('Ask the server to broadcast its replies. Default false.'),
  norelease: off('Do not send DHCPRELEASE when the interface goes down. Default false.'),
  defaultreqopts: on('Request udhcpc\'s default options. Default true.'),
  reqopts: field(list({ pattern: `^${DHCP_CODE}$` }, { joined: true }), { description: 'More options to request, by number (1-254) or udhcpc name. Written as one space-separated option: dhcp.sh ignores a list.' }),
  sendopts: field(list({ pattern: `^${DHCP_CODE}:[^\\s]+$` }), { description: 'Options to send, each `code:hexvalue` (code 1-254) or `name:value` as udhcpc -x takes them.' }),
  classlessroute: on('Request classless static routes (option 121). Default true.'),
};

const DHCPV6: Record<string, Field> = {
  reqaddress: field(choice(['try', 'force', 'none']), { description: 'Request an address (IA_NA): try, force (keep soliciting until one is offered) or none. Default try.' }),
  reqprefix: field(text({ pattern: '^(auto|no|[0-9]|[1-5][0-9]|6[0-4])$' }), { description: 'Request a delegated prefix: auto (any length), a length hint 0-64, or no. Default auto.' }),
  clientid: field(text({ pattern: '^([0-9A-Fa-f]{2}){1,130}$' }), { description: 'DUID to send, as hex without separators. Default derived by odhcp6c.' }),
  // odhcp6c -r keeps each code as 16 bits (htons of strtoul).
  reqopts: field(list({ pattern: '^(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})$' }, { joined: true }), {
    description: 'More options to request, by number 1-65535. Written as one space-separated option: dhcpv6.sh ignores a list.',
  }),
  noslaaconly: field(boolean(STRING_ONE), { description: 'Do not settle for configuration by router advertisements (SLAAC) alone; keep asking DHCPv6. Only `1` is true. Default false.' }),
  forceprefix: field(boolean(STRING_ONE), { description: 'Require a delegated prefix. Only `1` is true. Default false.' }),
  norelease: field(boolean(STRING_ONE), { description: 'Do not send RELEASE when going down. Only `1` is true (unlike dhcp and pppoe). Default false.' }),
  extendprefix: field(boolean(STRING_ONE), { description: 'Use a /64 delegated prefix on the WAN itself. Only `1` is true. Default false.' }),
  ifaceid: field(text(IPV6_ADDRESS), { description: 'Interface identifier for addresses, as an IPv6 address (`::1:2`). Default from the MAC address.' }),
  userclass: field(text(NO_BLANKS), { description: 'User class (option 15) to send, without blanks.' }),
  vendorclass: field(text(NO_BLANKS), { description: 'Vendor class (option 16) to send, without blanks.' }),
  soltimeout: int('Maximum SOLICIT timeout, seconds. Default 120.', { minimum: 1, maximum: 2147483647 }),
  fakeroutes: on('Add default routes from router advertisements even without a prefix. Default true.'),
  sourcefilter: on('Restrict the default route to traffic from the delegated prefix. Default true.'),
};

const PPPOE: Record<string, Field> = {
  username: field(text({ maxLength: 255 }), { description: 'PAP/CHAP user name.' }),
  password: field(text({ maxLength: 255 }), { secret: true, description: 'PAP/CHAP password. Write-only (pppd also shows it in its command line to local users).' }),
  ac: field(text({ maxLength: 255 }), { description: 'Access concentrator name to connect to. Default any.' }),
  service: field(text({ maxLength: 255 }), { description: 'PPPoE service name. Default any.' }),
  host_uniq: field(text({ pattern: '^([0-9A-Fa-f]{2})+$', maxLength: 64 }), { description: 'Host-Uniq tag, hex bytes.' }),
  padi_attempts: int('PADI retries before giving up. Default pppd\'s (3).', { minimum: 1, maximum: 2147483647 }),
  padi_timeout: int('Seconds to wait for PADO. Default pppd\'s (5).', { minimum: 1, maximum: 2147483647 }),
  keepalive: field(text({ pattern: '^[0-9]{1,5}([ ,][0-9]{1,5})?$' }), { description: 'LCP echo `failures[ interval]`: reconnect after that many unanswered echoes sent every interval seconds; 0 failures off. Default `5 1`.' }),
  keepalive_adaptive: on('Skip LCP echoes while traffic flows. Default true.'),
  demand: int('Dial on demand and hang up after this many idle seconds; 0 stays connected. Default 0.'),
  holdoff: int('Seconds to wait before reconnecting. Default pppd\'s.'),
  maxfail: int('Give up after this many failed attempts; 0 never. Default 0 with persist, else 1.'),
  persist: field(boolean(NETIFD_BOOLEAN), { description: 'Keep reconnecting (pppd persist/nopersist). Default unset.' }),
  authfail: off('After an authentication failure, stop retrying until the interface is restarted. Default false.'),
  ipv6: field(choice(['auto', '1', '0']), { description: 'IPv6: auto (IPv6CP and a DHCPv6 client), 1 (IPv6CP only), 0 (off). Default auto.' }),
  reqprefix: field(text({ pattern: '^(auto|no|[0-9]|[1-5][0-9]|6[0-4])$' }), { description: 'With ipv6 auto: prefix to request by DHCPv6, as dhcpv6 `reqprefix`.' }),
  norelease: off('With ipv6 auto: do not send a DHCPv6 RELEASE. Default false.'),
  sourcefilter: on('With ipv6 auto: restrict the default route to the delegated prefix. Default true.'),
  pppname: field(text(DEVICE_NAME), { description: 'Name of the PPP device. Default pppoe-<id>, which pppd cuts at 15 characters.' }),
};

const WIREGUARD: Record<string, Field> = {
  private_key: field(text(WIREGUARD_KEY), { secret: true, description: 'The interface\'s private key (wg genkey). Write-only.' }),
  listen_port: int('UDP port to listen on. Default a random port.', { minimum: 1, maximum: 65535 }),
  addresses: field(list({ pattern: `^(${IPV4}(/${PREFIX4})?|${IPV6}(/${PREFIX6})?)$` }), { description: 'Addresses of the interface, `address[/prefix]` (a bare address is /32 or /128).' }),
  fwmark: field(text({ pattern: `^(off|0[xX][0-9A-Fa-f]{1,8}|${U32})$` }), { description: 'Firewall mark of the tunnel\'s own packets: decimal, 0x hex or off.' }),
  nohostroute: field(boolean(STRING_ONE), { description: 'Do not add host routes to the peers\' endpoints. Only `1` is true. Default false.' }),
  tunlink: field(text(INTERFACE_NAME), { description: 'Interface the endpoint host routes go through. Default the one holding the route.' }),
};


// dhcp.sh reads `ipaddr` and `broadcast` as a requested address and flag: the static fields apply to static only.
const STATIC = { field: 'proto', values: ['static'] };
/*#__NO_SIDE_EFFECTS__*/
const staticOnly = (typed: Parameters<typeof field>[0], options: Parameters<typeof field>[1]) => field(typed, { ...options, when: STATIC });
const OWNERS: Record<string, string[]> = {
  ...Object.fromEntries(['ipaddrs', 'netmask', 'gateway', 'broadcast', 'ip6addrs', 'ip6gw', 'ip6deprecated'].map((name) => [name, ['static']])),
  ip6prefix: ['static', 'dhcpv6', 'wireguard'],
  device: ['static', 'dhcp', 'dhcpv6', 'pppoe', 'none'],
  // The groups by name, not by their declarations: a write loads these rules without the fields.
  dhcp: ['dhcp'],
  dhcpv6: ['dhcpv6'],
  pppoe: ['pppoe'],
  wireguard: ['wireguard'],
};

/** The 16-bit words of an IPv6 address. */
function words(address: string): number[] {
  const [head, tail] = address.split('::');
  const part = (text?: string) => (text ? text.split(':').flatMap((word) => (word.includes('.') ? [0, 0] : [parseInt(word, 16)])) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
}

function addressErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (given(body, 'gateway') && !given(body, 'ipaddrs')) errors.push(conflict('gateway', 'netifd ignores gateway without an IPv4 address in ipaddrs'));
  if (given(body, 'ip6gw') && !given(body, 'ip6addrs')) errors.push(conflict('ip6gw', 'netifd ignores ip6gw without an address in ip6addrs'));
  for (const [where, address] of strings(body, 'ip6addrs')) {
    if (/^[Ff][Ff]/.test(address)) errors.push(conflict(where, 'a multicast address cannot be assigned; netifd fails the interface'));
  }
  const id = valueAt(body, 'ip6ifaceid');
  if (typeof id === 'string' && id !== 'random' && id !== 'eui64' && words(id).slice(0, 4).some(Boolean)) {
    errors.push(conflict('ip6ifaceid', 'an interface id has its upper 64 bits zero (::1, ::2:3); netifd would fall back to ::1'));
  }
  return errors;
}

function protoErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const errors = onlyWith(body, 'proto', OWNERS);
  if (valueAt(body, 'proto') === 'wireguard' && context.id !== undefined && context.id.length > 15) {
    errors.push(conflict('proto', `a wireguard interface's id is its device name, at most 15 characters; ${context.id} is longer`));
  }
  return errors;
}

export const rules: Rules = (body, context) => [
  ...protoErrors(body, context),
  ...addressErrors(body),
  ...namedErrors(body, context, 'ip4table', 'table'),
  ...namedErrors(body, context, 'ip6table', 'table'),
];

const definition: ResourceDefinition = {
  path: 'network/interfaces',
  package: 'network',
  type: 'interface',
  kind: 'collection',
  idPrefix: 'i_',
  reload: ['network'],
  description:
    'Logical interfaces: a device, a protocol that configures it (static addresses, DHCP, DHCPv6, PPPoE, WireGuard) and the routes, ' +
    'DNS and IPv6 prefix delegation around it. Firewall zones, routes, rules and DHCP pools refer to interfaces by id.',
  members: {
    proto: field(text({ pattern: '^[a-z0-9_-]+$', maxLength: 32 }), {
      description:
        'How the interface is configured: static, dhcp, dhcpv6, pppoe, wireguard or none (default), whose options this resource models, ' +
        'or another proto handler the router has installed (l2tp, 6in4, ...), whose options a PUT keeps as they are.',
    }),
    device: field(text(DEVICE_OR_ALIAS), {
      description: 'The device (eth0, br-lan, lan1, eth0.10, ...) or `@<interface>` for another interface\'s device (dhcpv6 on `@wan`). Not for wireguard, which creates its own.',
    }),
    disabled: field(boolean(INTERFACE_DISABLED), {
      description: 'A disabled interface is ignored by netifd entirely. Written as 1/0; netifd reads only `1` as true (`true` too from 2026-07). Default false.',
    }),
    auto: on('Bring the interface up at boot and on reload. Default true.'),
    force_link: field(boolean(NETIFD_BOOLEAN), { description: 'Set addresses and routes even while the device has no carrier. Default true for static, else false.' }),
    ipaddrs: staticOnly(list(IPV4_CIDR, { singleAsOption: true }), {
      option: 'ipaddr',
      description: 'static: IPv4 addresses, `address[/prefix]` (or `/dotted-mask`); without a prefix `netmask` applies. An invalid one fails the interface.',
    }),
    ipaddr: staticOnly(text(), {
      readOnly: true,
      description: 'static: the legacy scalar form of `ipaddrs`, read-only: its one address; null when the option is a list. Write `ipaddrs`.',
    }),
    netmask: staticOnly(text(NETMASK), { description: 'static: prefix of the `ipaddrs` given without one, dotted contiguous mask or length. Default 32.' }),
    gateway: staticOnly(text(IPV4_ADDRESS), { description: 'static: IPv4 default gateway (needs an address in `ipaddrs`).' }),
    broadcast: staticOnly(text(IPV4_ADDRESS), { description: 'static: IPv4 broadcast address. Default derived.' }),
    ip6addrs: staticOnly(list(IPV6_CIDR, { singleAsOption: true }), { option: 'ip6addr', description: 'static: IPv6 addresses `address[/prefix]` (default /128); not multicast.' }),
    ip6gw: staticOnly(text(IPV6_ADDRESS), { description: 'static: IPv6 default gateway (needs an address in `ip6addrs`).' }),
    ip6deprecated: staticOnly(boolean(NETIFD_FLAG), { description: 'static: mark the IPv6 addresses deprecated (not preferred as source). Default false.' }),
    ip6prefix: field(list(IP6PREFIX), {
      description: 'static, dhcpv6, wireguard: IPv6 prefixes routed to this router to delegate downstream, `prefix/len`. dhcpv6 takes one (older odhcp6c handlers read a single option).',
    }),
    dns: field(list(ANY_ADDRESS), { description: 'DNS servers (IPv4 or IPv6), added to those the protocol learns. netifd drops a value that is not an address.' }),
    dns_search: field(list(DOMAIN), { description: 'DNS search domains.' }),
    dns_metric: int('Priority of this interface\'s DNS servers in resolv.conf; lower first. Default 0.'),
    peerdns: on('Use the DNS servers the protocol (DHCP, PPP) learns. Default true.'),
    defaultroute: on('Install the default route the protocol learns. Default true.'),
    metric: int('Metric of the interface\'s routes (and default for its static routes). Default 0.'),
    ip4table: field(text(TABLE), { description: 'Routing table for the interface\'s IPv4 routes. Default main.' }),
    ip6table: field(text(TABLE), { description: 'Routing table for the interface\'s IPv6 routes. Default main.' }),
    delegate: on('Take part in IPv6 prefix delegation (and let dhcp/dhcpv6/pppoe child tunnels delegate). Default true.'),
    ip6assign: int('Assign a prefix of this length (0-64) to this interface from the delegated prefixes; 0 none. Default none.', { minimum: 0, maximum: 64 }),
    ip6hint: field(text({ pattern: '^[0-7]?[0-9A-Fa-f]{1,7}$' }), { description: 'Subnet id (hex) wanted for the `ip6assign` prefix. Default the first free.' }),
    ip6ifaceid: field(text({ pattern: `^(random|eui64|${IPV6})$` }), { description: 'Interface id of the router\'s address in assigned prefixes: an id such as `::1`, `eui64` or `random`. Default ::1.' }),
    ip6class: field(list(INTERFACE_NAME), { description: 'Delegate only prefixes of these classes (source interfaces, or `local` for ULA). Default all.' }),
    ip6weight: int('Weight in prefix assignment order; higher first. Default 0.'),
    mtu: int('MTU: of the device (static, dhcp, dhcpv6), of the PPP link (pppoe, default 1492) or of the tunnel (wireguard). Default the device\'s.', { minimum: 68, maximum: 65535 }),
    macaddr: field(text(MAC), { description: 'MAC address to give the device (legacy; prefer network/devices).' }),
    zone: field(text({ pattern: '^[A-Za-z_.][A-Za-z0-9/_.-]*$', maxLength: 47 }), { description: 'Firewall zone to add the interface to, as an alternative to the zone\'s network list.' }),
    dhcp: { description: 'DHCPv4 client (udhcpc) options.', fields: DHCP, when: { field: 'proto', values: ['dhcp'] } },
    dhcpv6: { description: 'DHCPv6 client (odhcp6c) options.', fields: DHCPV6, when: { field: 'proto', values: ['dhcpv6'] } },
    pppoe: { description: 'PPPoE (pppd) options.', fields: PPPOE, when: { field: 'proto', values: ['pppoe'] } },
    wireguard: { description: 'WireGuard options. Peers are network/wireguard_peers.', fields: WIREGUARD, when: { field: 'proto', values: ['wireguard'] } },
  },
  references: [
    { field: 'zone', package: 'firewall', type: 'zone', by: 'name' },
    // A device the interface names may be a plain kernel device; a device section it names stays.
    { field: 'device', package: 'network', type: 'device', by: 'name', guardOnly: true },
  ],
  runtime: {
    object: 'network.interface',
    method: 'dump',
    items: ['interface'],
    key: 'interface',
    fields: ['up', 'pending', 'available', 'uptime', 'l3_device', 'device', 'proto', 'ipv4-address', 'ipv6-address', 'ipv6-prefix-assignment', 'route', 'dns-server', 'errors'],
  },
  mgmtPath: { fields: ['disabled', 'proto', 'ipaddrs', 'netmask'] },
  openUnless: { field: 'proto', values: PROTOS },
  // netifd names a wireguard interface's kernel device after it: at most 15 characters.
  shortIds: { when: { field: 'proto', values: ['wireguard'] }, prefix: 'wg_', length: 14 },
  rules,
  checks: [
    onlyWithCheck('proto', OWNERS),
    '`gateway` needs `ipaddrs`; `ip6gw` needs `ip6addrs`; `ip6addrs` are not multicast.',
    '`ip6ifaceid` is random, eui64 or an id with the upper 64 bits zero.',
    'A wireguard interface\'s id has at most 15 characters.',
    tableCheck('ip4table'),
    tableCheck('ip6table'),
  ],
};

export default definition;
