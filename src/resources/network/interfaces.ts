// Logical interfaces: netifd's `interface` sections (config.c config_parse_interface, then
// interface.c interface_alloc over iface_attrs, the proto handler's own options, and the simple
// device options of device.c). Proto handlers: static (proto.c proto_apply_static_ip_settings),
// dhcp (dhcp.sh), dhcpv6 (odhcp6c dhcpv6.sh), pppoe (ppp.sh), wireguard (wireguard.sh). The fields
// are flat, as uapi's Terraform provider has them (internal/provider/network_interface_resource.go),
// each read only while `proto` is one whose handler reads its option (OWNERS); an option several
// handlers read is one field (`norelease` of dhcp, dhcpv6 and pppoe), and where two give one option
// different types, static keeps `broadcast` and dhcp's flag is `broadcast_flag`.
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
  ownersOf,
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

/**
 * The protos whose handler reads each option this resource models by proto: a field is read under
 * them only, and refused under another (its `when`, with strictWhen). `device` and `ip6prefix` are
 * read under every proto, and refused where the handler ignores them (EVERYWHERE, the rules').
 */
const OWNERS = ownersOf([
  ['static', 'ipaddrs netmask gateway broadcast ip6addrs ip6gw ip6deprecated'],
  ['dhcp', 'hostname clientid vendorid broadcast_flag norelease defaultreqopts reqopts sendopts classlessroute'],
  ['dhcpv6', 'reqaddress reqprefix clientid reqopts noslaaconly forceprefix norelease extendprefix ifaceid userclass vendorclass soltimeout fakeroutes sourcefilter'],
  ['pppoe', 'username password ac service host_uniq padi_attempts padi_timeout keepalive keepalive_adaptive demand holdoff maxfail persist authfail ipv6 reqprefix norelease sourcefilter pppname'],
  ['wireguard', 'private_key listen_port addresses fwmark nohostroute tunlink'],
]);
const EVERYWHERE = { device: ['static', 'dhcp', 'dhcpv6', 'pppoe', 'none'], ip6prefix: ['static', 'dhcpv6', 'wireguard'] };
/*#__NO_SIDE_EFFECTS__*/
const by = (name: string) => ({ field: 'proto', values: OWNERS[name] });
/** A field of the protos whose handlers read its option (OWNERS). */
/*#__NO_SIDE_EFFECTS__*/
const only = (name: string, typed: Parameters<typeof field>[0], description: string, options: Parameters<typeof field>[1] = {}) => field(typed, { ...options, description, when: by(name) });
/*#__NO_SIDE_EFFECTS__*/
const onIn = (name: string, description: string) => only(name, boolean({ ...NETIFD_BOOLEAN, otherwise: true }), description);
/*#__NO_SIDE_EFFECTS__*/
const intIn = (name: string, description: string, range: { minimum: number; maximum: number } = INT32) => only(name, integer(range, C_INTEGER), description);

const PREFIX_REQUEST = { pattern: '^(auto|no|[0-9]|[1-5][0-9]|6[0-4])$' };
// odhcp6c -r keeps each code as 16 bits (htons of strtoul).
const DHCPV6_CODE = '(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';

/** The options of the dhcp, dhcpv6, pppoe and wireguard handlers; one option several read is one field. */
const PROTO_FIELDS: Record<string, Field> = {
  hostname: only('hostname', text({ pattern: '^(\\*|[A-Za-z0-9][A-Za-z0-9._-]{0,252})$' }), 'Host name sent to the server; `*` sends none. Default the router\'s host name.'),
  clientid: only('clientid', text({ ...HEX_PAIRS, maxLength: 260 }), 'Hex bytes: dhcp\'s client id (option 61, `:` or `-` between bytes allowed; default the MAC address), dhcpv6\'s DUID (no separators).'),
  vendorid: only('vendorid', text(NO_BLANKS), 'Vendor class identifier (option 60), without blanks. Default udhcpc\'s.'),
  // dhcp.sh's `broadcast` flag; static's `broadcast` is an address.
  broadcast_flag: only('broadcast_flag', boolean(NETIFD_FLAG), 'Ask for broadcast replies (option `broadcast`). Default false.', { option: 'broadcast' }),
  // A BOOL for dhcp and pppoe, the string "1" for dhcpv6: `true` means yes to the first, no to the other.
  norelease: only('norelease', boolean({ truthy: ['1'], falsy: ['0', 'false'] }), 'Send no release when going down. Default false. A stored `true` reads null: dhcp and pppoe take it as true, dhcpv6 as false.'),
  defaultreqopts: onIn('defaultreqopts', 'Request udhcpc\'s default options. Default true.'),
  reqopts: only('reqopts', list({ pattern: `^(${DHCP_CODE}|${DHCPV6_CODE})$` }, { joined: true }), 'More options to request: dhcp 1-254 or udhcpc names, dhcpv6 1-65535. Written as one option: the handlers ignore a list.'),
  sendopts: only('sendopts', list({ pattern: `^${DHCP_CODE}:[^\\s]+$` }), 'Options to send, each `code:hexvalue` (code 1-254) or `name:value` as udhcpc -x takes them.'),
  classlessroute: onIn('classlessroute', 'Request classless static routes (option 121). Default true.'),
  reqaddress: only('reqaddress', choice(['try', 'force', 'none']), 'Request an address (IA_NA): try, force (keep soliciting until one is offered) or none. Default try.'),
  reqprefix: only('reqprefix', text(PREFIX_REQUEST), 'Request a delegated prefix: auto (any length), a length hint 0-64, or no. Default auto.'),
  noslaaconly: only('noslaaconly', boolean(STRING_ONE), 'Keep asking DHCPv6 rather than settle for SLAAC alone. Only `1` is true. Default false.'),
  forceprefix: only('forceprefix', boolean(STRING_ONE), 'Require a delegated prefix. Only `1` is true. Default false.'),
  extendprefix: only('extendprefix', boolean(STRING_ONE), 'Use a /64 delegated prefix on the WAN itself. Only `1` is true. Default false.'),
  ifaceid: only('ifaceid', text(IPV6_ADDRESS), 'Interface identifier for addresses, as an IPv6 address (`::1:2`). Default from the MAC address.'),
  userclass: only('userclass', text(NO_BLANKS), 'User class (option 15) to send, without blanks.'),
  vendorclass: only('vendorclass', text(NO_BLANKS), 'Vendor class (option 16) to send, without blanks.'),
  soltimeout: intIn('soltimeout', 'Maximum SOLICIT timeout, seconds. Default 120.', { minimum: 1, maximum: 2147483647 }),
  fakeroutes: onIn('fakeroutes', 'Add default routes from router advertisements even without a prefix. Default true.'),
  sourcefilter: onIn('sourcefilter', 'Restrict the default route to traffic from the delegated prefix. Default true.'),
  username: only('username', text({ maxLength: 255 }), 'PAP/CHAP user name.'),
  password: only('password', text({ maxLength: 255 }), 'PAP/CHAP password. Write-only (pppd also shows it in its command line to local users).', { secret: true }),
  ac: only('ac', text({ maxLength: 255 }), 'Access concentrator name to connect to. Default any.'),
  service: only('service', text({ maxLength: 255 }), 'PPPoE service name. Default any.'),
  host_uniq: only('host_uniq', text({ pattern: '^([0-9A-Fa-f]{2})+$', maxLength: 64 }), 'Host-Uniq tag, hex bytes.'),
  padi_attempts: intIn('padi_attempts', 'PADI retries before giving up. Default pppd\'s (3).', { minimum: 1, maximum: 2147483647 }),
  padi_timeout: intIn('padi_timeout', 'Seconds to wait for PADO. Default pppd\'s (5).', { minimum: 1, maximum: 2147483647 }),
  keepalive: only('keepalive', text({ pattern: '^[0-9]{1,5}([ ,][0-9]{1,5})?$' }), 'LCP echo `failures[ interval]`: reconnect after that many unanswered echoes sent every interval seconds; 0 failures off. Default `5 1`.'),
  keepalive_adaptive: onIn('keepalive_adaptive', 'Skip LCP echoes while traffic flows. Default true.'),
  demand: intIn('demand', 'Dial on demand and hang up after this many idle seconds; 0 stays connected. Default 0.'),
  holdoff: intIn('holdoff', 'Seconds to wait before reconnecting. Default pppd\'s.'),
  maxfail: intIn('maxfail', 'Give up after this many failed attempts; 0 never. Default 0 with persist, else 1.'),
  persist: only('persist', boolean(NETIFD_BOOLEAN), 'Keep reconnecting (pppd persist/nopersist). Default unset.'),
  authfail: only('authfail', boolean(NETIFD_FLAG), 'After an authentication failure, stop retrying until the interface is restarted. Default false.'),
  ipv6: only('ipv6', choice(['auto', '1', '0']), 'IPv6: auto (IPv6CP and a DHCPv6 client), 1 (IPv6CP only), 0 (off). Default auto.'),
  pppname: only('pppname', text(DEVICE_NAME), 'Name of the PPP device. Default pppoe-<id>, which pppd cuts at 15 characters.'),
  private_key: only('private_key', text(WIREGUARD_KEY), 'The interface\'s private key (wg genkey). Write-only.', { secret: true }),
  listen_port: intIn('listen_port', 'UDP port to listen on. Default a random port.', { minimum: 1, maximum: 65535 }),
  addresses: only('addresses', list({ pattern: `^(${IPV4}(/${PREFIX4})?|${IPV6}(/${PREFIX6})?)$` }), 'Addresses of the interface, `address[/prefix]` (a bare address is /32 or /128).'),
  fwmark: only('fwmark', text({ pattern: `^(off|0[xX][0-9A-Fa-f]{1,8}|${U32})$` }), 'Firewall mark of the tunnel\'s own packets: decimal, 0x hex or off.'),
  nohostroute: only('nohostroute', boolean(STRING_ONE), 'Do not add host routes to the peers\' endpoints. Only `1` is true. Default false.'),
  tunlink: only('tunlink', text(INTERFACE_NAME), 'Interface the endpoint host routes go through. Default the one holding the route.'),
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

/** What one proto's handler takes of an option several read (the schema takes what any of them does). */
function sharedErrors(body: JsonObject): FieldError[] {
  const proto = valueAt(body, 'proto');
  const errors: FieldError[] = [];
  const clientid = valueAt(body, 'clientid');
  if (typeof clientid === 'string' && (proto === 'dhcpv6' ? /[:-]/.test(clientid) : clientid.length > 255)) {
    errors.push(conflict('clientid', proto === 'dhcpv6' ? 'a dhcpv6 DUID is hex without separators' : 'a dhcp client id is at most 255 characters'));
  }
  for (const [where, code] of strings(body, 'reqopts')) {
    if (proto === 'dhcpv6' ? !/^\d+$/.test(code) : /^\d+$/.test(code) && Number(code) > 254) {
      errors.push(conflict(where, proto === 'dhcpv6' ? 'dhcpv6 takes option numbers 1-65535' : 'dhcp takes option numbers 1-254 (udhcpc takes a larger one for a name and exits)'));
    }
  }
  return errors;
}

function protoErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const errors = onlyWith(body, 'proto', EVERYWHERE);
  if (valueAt(body, 'proto') === 'wireguard' && context.id !== undefined && context.id.length > 15) {
    errors.push(conflict('proto', `a wireguard interface's id is its device name, at most 15 characters; ${context.id} is longer`));
  }
  return errors;
}

export const rules: Rules = (body, context) => [
  ...protoErrors(body, context),
  ...sharedErrors(body),
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
    // dhcp.sh reads `ipaddr` and `broadcast` as a requested address and flag: these apply to static only.
    ipaddrs: only('ipaddrs', list(IPV4_CIDR, { singleAsOption: true }), 'IPv4 addresses, `address[/prefix]` (or `/dotted-mask`); without a prefix `netmask` applies.', {
      option: 'ipaddr',
    }),
    ipaddr: only('ipaddrs', text(), 'The legacy scalar form of `ipaddrs`, read-only: its one address; null when the option is a list. Write `ipaddrs`.', { readOnly: true }),
    netmask: only('netmask', text(NETMASK), 'Prefix of the `ipaddrs` given without one, dotted contiguous mask or length. Default 32.'),
    gateway: only('gateway', text(IPV4_ADDRESS), 'IPv4 default gateway (needs an address in `ipaddrs`).'),
    broadcast: only('broadcast', text(IPV4_ADDRESS), 'IPv4 broadcast address. Default derived.'),
    ip6addrs: only('ip6addrs', list(IPV6_CIDR, { singleAsOption: true }), 'IPv6 addresses `address[/prefix]` (default /128); not multicast.', { option: 'ip6addr' }),
    ip6gw: only('ip6gw', text(IPV6_ADDRESS), 'IPv6 default gateway (needs an address in `ip6addrs`).'),
    ip6deprecated: only('ip6deprecated', boolean(NETIFD_FLAG), 'Mark the IPv6 addresses deprecated (not preferred as source). Default false.'),
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
    ...PROTO_FIELDS,
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
    fields: ['up', 'pending', 'available', 'uptime', 'l3_device', 'device', 'proto', 'ipv4-address', 'ipv6-address', 'ipv6-prefix', 'ipv6-prefix-assignment', 'route', 'dns-server', 'errors'],
  },
  mgmtPath: { fields: ['disabled', 'proto', 'ipaddrs', 'netmask'] },
  openUnless: { field: 'proto', values: PROTOS },
  strictWhen: true,
  // netifd names a wireguard interface's kernel device after it: at most 15 characters.
  shortIds: { when: { field: 'proto', values: ['wireguard'] }, prefix: 'wg_', length: 14 },
  rules,
  checks: [
    onlyWithCheck('proto', EVERYWHERE),
    '`clientid`: no separators under dhcpv6, at most 255 characters under dhcp; `reqopts`: numbers under dhcpv6, 1-254 or names under dhcp.',
    '`gateway` needs `ipaddrs`; `ip6gw` needs `ip6addrs`; `ip6addrs` are not multicast.',
    '`ip6ifaceid` is random, eui64 or an id with the upper 64 bits zero.',
    'A wireguard interface\'s id has at most 15 characters.',
    tableCheck('ip4table'),
    tableCheck('ip6table'),
  ],
};

export default definition;
