// `dhcp` sections (one per served interface) as dnsmasq.init dhcp_add and odhcpd config.c
// config_parse_interface read them (OpenWrt 24.10).
// Options both read use the spellings both accept (UCI_BLOB_BOOLEAN, integers in decimal).

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, list, SHELL_BOOLEAN, text, UCI_BLOB_BOOLEAN, words } from '../codecs.js';
import { IPV4, IPV6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import {
  DHCP_OPTION,
  DOMAIN_NAME,
  INSTANCE,
  INTERFACE_NAME,
  LEASETIME,
  prefixOf,
  staticAddress,
  TAG,
} from './common.js';
import { conflict, given, optionText } from '../checks.js';
import { runtimeOf } from './lease_counts.js';

export { runtimeOf };

const MODES = ['server', 'relay', 'hybrid', 'disabled'];
const flag = (description: string) => field(boolean(UCI_BLOB_BOOLEAN), { description });
const NOT_UNSPECIFIED = '(?!0\\.0\\.0\\.0$)(?!::$)';
/** A search domain of at most 253 characters: odhcpd drops the interface's whole configuration on a name dn_comp refuses. */
const SEARCH_DOMAIN = { pattern: `^(?![A-Za-z0-9_.-]{254})${DOMAIN_NAME}$` };

/**
 * ipcalc.sh as dhcp_add runs it: the pool is `start` to `start + limit - 1` inside the interface's
 * subnet, `start` taken modulo the subnet size, the end clamped below the broadcast address. When
 * ipcalc.sh fails (empty pool, router address inside the pool) 24.10's dhcp_add still appends a
 * --dhcp-range from unset or stale START/END, which dnsmasq refuses or misapplies. The write
 * stages `network` with `dhcp`, as the `interface` reference names it.
 */
function poolErrors(body: JsonObject, context: RuleContext): FieldError[] {
  if (valueAt(body, 'ignore') === true || valueAt(body, 'dhcpv4') === 'disabled') return [];
  const interfaceName = valueAt(body, 'interface');
  if (typeof interfaceName !== 'string') return [];
  const section = context.read('network').sections.find((candidate) => candidate.type === 'interface' && candidate.name === interfaceName);
  if (!section || optionText(section.options.get('proto')) !== 'static') return [];
  const ipaddr = section.options.get('ipaddr');
  const first = typeof ipaddr === 'string' ? ipaddr.split(/\s+/)[0] : ipaddr?.[0];
  const override = valueAt(body, 'netmask');
  const own = first === undefined ? undefined : staticAddress(first, typeof override === 'string' ? override : optionText(section.options.get('netmask')));
  if (!own) return [];
  const start = typeof valueAt(body, 'start') === 'number' ? (valueAt(body, 'start') as number) : 100;
  const limit = typeof valueAt(body, 'limit') === 'number' ? (valueAt(body, 'limit') as number) : 150;
  const size = 2 ** (32 - own.prefix);
  const errors: FieldError[] = [];
  if (start >= size) {
    errors.push(conflict('start', `start ${start} is outside the /${own.prefix} subnet of ${interfaceName}; dnsmasq would use ${start % size}`));
  }
  const network4 = own.address - (own.address % size);
  const lower = own.prefix <= 30 ? network4 + 1 : network4;
  // ipcalc.sh: a /31 or /32 pool is the network address alone.
  const upper = own.prefix <= 30 ? network4 + size - 2 : network4;
  let first4 = Math.max(network4 + (start % size), lower);
  if (first4 === own.address) first4 += 1;
  let last4 = Math.min(first4 + limit - 1, upper);
  if (last4 === own.address) last4 -= 1;
  if (first4 > last4) errors.push(conflict('limit', `the pool of ${interfaceName} would be empty`));
  else if (first4 <= own.address && own.address <= last4) {
    errors.push(conflict('start', `the pool of ${interfaceName} would contain the router's own address`));
  }
  return errors;
}

function netmaskErrors(body: JsonObject): FieldError[] {
  const netmask = valueAt(body, 'netmask');
  return typeof netmask === 'string' && prefixOf(netmask) === undefined ? [conflict('netmask', `${netmask} is not a contiguous netmask`)] : [];
}

/** odhcpd's calc_adv_interval and calc_ra_lifetime replace values that do not fit together. */
function raErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const max = typeof valueAt(body, 'ra_maxinterval') === 'number' ? (valueAt(body, 'ra_maxinterval') as number) : 600;
  const min = valueAt(body, 'ra_mininterval');
  if (typeof min === 'number' && min > (max * 3) / 4) {
    errors.push(conflict('ra_mininterval', `ra_mininterval must be at most 3/4 of ra_maxinterval (${max}); odhcpd would use ${max >= 9 ? Math.floor(max / 3) : max}`));
  }
  const lifetime = valueAt(body, 'ra_lifetime');
  if (typeof lifetime === 'number' && lifetime > 0 && lifetime < max) {
    errors.push(conflict('ra_lifetime', `ra_lifetime must be 0 or at least ra_maxinterval (${max}); odhcpd would raise it`));
  }
  if (given(body, 'ra_management') && (given(body, 'ra_flags') || given(body, 'ra_slaac'))) {
    errors.push(conflict('ra_management', 'odhcpd ignores the deprecated ra_management when ra_flags or ra_slaac is set'));
  }
  return errors;
}

export const rules: Rules = (body, context) => [
  ...netmaskErrors(body),
  ...raErrors(body),
  ...poolErrors(body, context),
];

const definition: ResourceDefinition = {
  path: 'dhcp/servers',
  package: 'dhcp',
  type: 'dhcp',
  kind: 'collection',
  idPrefix: 'd_',
  reload: ['dnsmasq', 'odhcpd'],
  description:
    'DHCP, DHCPv6 and router advertisement service of one network interface. dnsmasq serves DHCPv4 (unless odhcpd\'s `maindhcp`), ' +
    'odhcpd serves DHCPv6, RA and NDP proxying as `dhcpv6`, `ra` and `ndp` say. ' +
    '`runtime`: `{leases, leases6}`, the active leases in dnsmasq\'s lease file within the interface\'s static subnets and in odhcpd\'s on its device.',
  runtimeOf,
  members: {
    interface: field(text(INTERFACE_NAME), { required: true, description: 'The network interface (network/interfaces id) served.' }),
    ignore: field(boolean(SHELL_BOOLEAN), {
      description: 'dnsmasq serves no DHCPv4 on the interface (odhcpd does not read it: `dhcpv6`, `ra` and `ndp` still apply). Default false.',
    }),
    start: field(integer({ minimum: 0, maximum: 2147483647 }), {
      description: 'First pool address, as an offset into the interface\'s subnet (100 is .100 in a /24). Default 100.',
    }),
    limit: field(integer({ minimum: 1, maximum: 2147483647 }), {
      description: 'Number of pool addresses; the pool ends below the subnet\'s broadcast address at the latest. Default 150.',
    }),
    leasetime: field(text(LEASETIME), { description: 'Lease time, e.g. `3600`, `12h` or `infinite`. Default 12h.' }),
    dynamicdhcp: flag('Give pool addresses to unknown clients; false serves only dhcp/hosts. Default true.'),
    netmask: field(text({ pattern: `^(${IPV4}|[12]?[0-9]|3[0-2])$` }), {
      description: 'Netmask (dotted or prefix length) dnsmasq uses for the pool instead of the interface\'s. Default: the interface\'s.',
    }),
    force: field(boolean(SHELL_BOOLEAN), {
      description: 'Serve DHCPv4 even when another DHCP server answers on the interface (dnsmasq probes once per boot). Default false.',
    }),
    dhcpv4: field(choice(['server', 'disabled']), {
      description: '`disabled` turns DHCPv4 off on the interface; `server` serves it (by odhcpd only with `maindhcp`). Default server.',
    }),
    dhcpv6: field(choice(MODES), { description: 'odhcpd\'s DHCPv6. Default disabled.' }),
    ra: field(choice(MODES), { description: 'odhcpd\'s router advertisements. Default disabled.' }),
    ndp: field(choice(['relay', 'hybrid', 'disabled']), { description: 'odhcpd\'s NDP proxy. Default disabled.' }),
    master: flag('This interface is the upstream (master) side for relay and hybrid modes. Default false.'),
    ra_flags: field(list({ enum: ['managed-config', 'other-config', 'home-agent', 'none'] }), {
      description: 'RA flags: managed-config (M), other-config (O), home-agent, or `none`. Default other-config.',
    }),
    ra_slaac: flag('Let clients form SLAAC addresses in the advertised prefixes. Default true.'),
    ra_management: field(integer({ minimum: 0, maximum: 2 }), {
      description: 'Deprecated: 0 SLAAC + O flag, 1 SLAAC + M and O, 2 M and O without SLAAC. Ignored when `ra_flags` or `ra_slaac` is set.',
    }),
    ra_default: field(integer({ minimum: 0, maximum: 2 }), {
      description: 'Advertise a default route: 0 only with an upstream default route, 1 also without one, 2 also without a public prefix. Default 0.',
    }),
    ra_preference: field(choice(['high', 'medium', 'low', 'default']), { description: 'Router preference in RAs (`default` is medium). Default medium.' }),
    ra_maxinterval: field(integer({ minimum: 4, maximum: 1800 }), { description: 'Longest time between RAs in seconds. Default 600.' }),
    ra_mininterval: field(integer({ minimum: 3, maximum: 1350 }), { description: 'Shortest time between RAs in seconds, at most 3/4 of `ra_maxinterval`. Default 200.' }),
    ra_lifetime: field(integer({ minimum: 0, maximum: 9000 }), {
      description: 'Router lifetime in RAs, seconds: 0 (not a default router) or at least `ra_maxinterval`. Default 3 x ra_maxinterval.',
    }),
    ra_useleasetime: flag('Use `leasetime` as the preferred and valid lifetime of advertised prefixes. Default false.'),
    ra_mtu: field(integer({ minimum: 1280, maximum: 65535 }), { description: 'MTU advertised in RAs. Default: none advertised.' }),
    ra_hoplimit: field(integer({ minimum: 0, maximum: 255 }), { description: 'Hop limit advertised in RAs; 0 leaves it to clients. Default 0.' }),
    ra_reachabletime: field(integer({ minimum: 0, maximum: 3600000 }), { description: 'Reachable time in RAs, milliseconds; 0 unspecified. Default 0.' }),
    ra_retranstime: field(integer({ minimum: 0, maximum: 60000 }), { description: 'Retransmit timer in RAs, milliseconds; 0 unspecified. Default 0.' }),
    ra_dns: flag('Announce DNS servers and search domains in RAs. Default true.'),
    ra_offlink: flag('Advertise prefixes without the on-link flag. Default false.'),
    ra_advrouter: flag('Set the router-address flag in prefix information. Default false.'),
    ra_pref64: field(text({ pattern: `^${IPV6}/(32|40|48|56|64|96)$` }), { description: 'NAT64 prefix announced in RAs (PREF64), e.g. `64:ff9b::/96`.' }),
    dns: field(list({ pattern: `^${NOT_UNSPECIFIED}(${IPV4}|${IPV6})$` }), {
      description: 'DNS servers odhcpd announces (IPv4 for its DHCPv4, IPv6 for DHCPv6 and RA). Default: the router\'s own addresses.',
    }),
    dns_service: flag('Announce the router itself as DNS server when `dns` is empty. Default true.'),
    // odhcpd reads a list (libubox splits a plain option on blanks); uapi's provider sends one string.
    domain: field(words(SEARCH_DOMAIN), {
      description: 'DNS search domains odhcpd announces, space-separated in one string (`lan example.com`). Default: the upstream interface\'s.',
    }),
    preferred_lifetime: field(text(LEASETIME), { description: 'Preferred lifetime of DHCPv6 addresses and RA prefixes (minimum 60 s). Default 7d.' }),
    dhcpv6_na: flag('Hand out DHCPv6 addresses (IA_NA). Default true.'),
    dhcpv6_pd: flag('Delegate DHCPv6 prefixes (IA_PD). Default true.'),
    dhcpv6_pd_min_len: field(integer({ minimum: 1, maximum: 62 }), { description: 'Shortest prefix length to delegate. Default: no minimum.' }),
    dhcpv6_assignall: flag('Assign addresses from every prefix, not only the preferred one. Default true.'),
    dhcpv6_hostidlength: field(integer({ minimum: 12, maximum: 64 }), { description: 'Bits of random interface identifier in DHCPv6 addresses. Default 12.' }),
    ndproxy_routing: flag('Learn routes to proxied neighbours. Default true.'),
    ndproxy_slave: flag('Proxy neighbours on this interface without announcing its own addresses. Default false.'),
    ntp: field(list({ pattern: `^${NOT_UNSPECIFIED}(${IPV4}|${IPV6}|${DOMAIN_NAME})$` }), {
      description: 'NTP servers odhcpd announces: addresses (DHCPv4 and DHCPv6) or names (DHCPv6 only).',
    }),
    networkid: field(text(TAG), { description: 'dnsmasq tag set on this pool\'s clients. Default: the `interface` name.' }),
    tag: field(list(TAG), { description: 'The pool serves only clients carrying all these dnsmasq tags.' }),
    dhcp_option: field(list(DHCP_OPTION), { description: 'DHCP options for this pool (dnsmasq syntax, e.g. `option:dns-server,192.168.1.2`).' }),
    dhcp_option_force: field(list(DHCP_OPTION), { description: 'DHCP options sent even when clients do not ask for them.' }),
    instance: field(text(INSTANCE), { description: 'The dnsmasq instance serving this pool. Default: every instance.' }),
  },
  references: [
    { field: 'interface', package: 'network', type: 'interface' },
    { field: 'instance', package: 'dhcp', type: 'dnsmasq' },
  ],
  rules,
  checks: [
    '`netmask` must be contiguous.',
    '`ra_mininterval` at most 3/4 of `ra_maxinterval`; `ra_lifetime` 0 or at least `ra_maxinterval`; `ra_management` not with `ra_flags` or `ra_slaac`.',
    'For a static `interface`: `start` inside its subnet, and the pool of `start` and `limit` neither empty nor containing the router\'s address.',
  ],
};

export default definition;
