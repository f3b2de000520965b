// The `dnsmasq` section as dnsmasq.init dnsmasq_start reads it (OpenWrt 24.10, dnsmasq 2.90). Every
// value lands in a dnsmasq config line; one dnsmasq refuses stops dnsmasq at start, and with it the
// router's DNS and DHCPv4. Several `dnsmasq` sections are several instances: the singleton is the
// first, the default instance (anonymous in the stock configuration). The list options are read
// with config_list_foreach, which ignores a plain `option`: they are `listOnly`.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, integer, list, SHELL_BOOLEAN, text } from '../codecs.js';
import { IPV4, IPV6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import {
  ADDRESS_OVERRIDE,
  DHCP_OPTION,
  DOMAIN,
  PATH,
  REBIND_DOMAIN,
  SERVER,
} from './common.js';
import { conflict, given } from '../checks.js';

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });
const PORT = { minimum: 0, maximum: 65535 };
const INT = { minimum: 0, maximum: 2147483647 };
const POSITIVE = { minimum: 1, maximum: 2147483647 };
const ADDRESS = { pattern: `^(${IPV4}|${IPV6})$` };
/** A network interface name, or a device name (append_interface falls back to the literal name). */
const INTERFACE_OR_DEVICE = { pattern: '^[A-Za-z0-9_.-]{1,15}$' };

/**
 * Rules see the whole merged section, so a rule on a stock value would refuse every later write of
 * it. The stock `rebind_localhost '1'` stays when a user turns `rebind_protection` off, and the stock
 * `resolvfile` when a user sets `noresolv` (the DNS-over-TLS recipes do): dnsmasq.init ignores them
 * then, and they are accepted. Only `rebind_domain`, which nothing writes by default, is refused
 * without rebind protection.
 */
function rebindErrors(body: JsonObject): FieldError[] {
  if (valueAt(body, 'rebind_protection') !== false || !given(body, 'rebind_domain')) return [];
  return [conflict('rebind_domain', 'rebind_domain applies only with rebind_protection')];
}

/** dnsmasq.c main: with one of them set, the other one 0 or unset stands for 1024 or 65535; it exits when max < min. */
function portRangeErrors(body: JsonObject): FieldError[] {
  const min = Number(valueAt(body, 'minport') ?? 0);
  const max = Number(valueAt(body, 'maxport') ?? 0);
  return max && max < (min || 1024) ? [conflict('maxport', `maxport is below minport (${min || 1024})`)] : [];
}

export const rules: Rules = (body) => [...rebindErrors(body), ...portRangeErrors(body)];

const LIST_ONLY = { listOnly: true };

const definition: ResourceDefinition = {
  path: 'dhcp/dnsmasq',
  package: 'dhcp',
  type: 'dnsmasq',
  kind: 'singleton',
  reload: ['dnsmasq'],
  description:
    'The DNS forwarder and DHCP server (the first `dnsmasq` section, the stock anonymous one): upstream servers, local domain, ' +
    'address overrides, rebind protection and cache.',
  members: {
    disabled: flag('Do not run this dnsmasq instance: the router then answers no DNS and no DHCPv4. Default false.'),
    domain: field(text(DOMAIN), { description: 'Local domain: added to DHCP client names and to the router\'s resolv.conf search list. Stock `lan`.' }),
    local: field(text(SERVER), { description: 'Domains answered from local data only, never forwarded: `/lan/`. Stock `/lan/`.' }),
    expandhosts: flag('Add `domain` to plain names from /etc/hosts and the hosts files. Stock true, default false.'),
    server: field(list(SERVER, LIST_ONLY), {
      description:
        'Upstream DNS servers: `address[#port][@device]`, or `/domain/address` for one domain, `/domain/` to keep a domain local, ' +
        '`/domain/#` to use the resolv-file servers for it. Added to those of `resolvfile`.',
    }),
    address: field(list(ADDRESS_OVERRIDE, LIST_ONLY), {
      description: 'Fixed answers: `/domain/[domain/]address` answers the domains and their subdomains with the address; `#` the zero address, nothing NXDOMAIN.',
    }),
    noresolv: flag('Do not read upstream servers from `resolvfile`; only `server` is used. Default false.'),
    resolvfile: field(text(PATH), {
      description: 'File listing upstream servers; ignored with `noresolv`. Default /tmp/resolv.conf.d/resolv.conf.auto (the WAN\'s).',
    }),
    strictorder: flag('Query upstream servers in the order listed rather than the fastest. Default false.'),
    allservers: flag('Query all upstream servers at once and take the first answer. Default false.'),
    domainneeded: flag('Never forward plain names without a dot. Stock true, default false.'),
    boguspriv: flag('Never forward reverse lookups of private address ranges (RFC 1918 and RFC 6761 names). Default true.'),
    filterwin2k: flag('Do not forward Windows dial-on-demand queries (SRV and SOA). Default false.'),
    localise_queries: flag('Answer names from /etc/hosts with the address on the interface the query came in. Stock true, default false.'),
    rebind_protection: flag('Drop upstream answers that point into private ranges (DNS rebinding protection). Default true.'),
    rebind_localhost: flag(
      'With `rebind_protection`, still accept upstream answers in 127.0.0.0/8 (for DNS blocklists); ignored without it. Stock true, default false.',
    ),
    rebind_domain: field(list(REBIND_DOMAIN, LIST_ONLY), { description: 'With `rebind_protection`, domains whose upstream answers may point into private ranges.' }),
    localservice: flag('Answer DNS only from hosts on directly attached networks. Stock true, default false.'),
    nonwildcard: flag('Bind only the addresses of the interfaces served, following changes (bind-dynamic). Default true.'),
    interface: field(list(INTERFACE_OR_DEVICE, LIST_ONLY), { description: 'Listen only on these interfaces (network interface or device names). Default: all.' }),
    notinterface: field(list(INTERFACE_OR_DEVICE, LIST_ONLY), { description: 'Never listen on these interfaces (network interface or device names).' }),
    listen_address: field(list(ADDRESS, LIST_ONLY), { description: 'Listen only on these addresses (with `interface`: on either).' }),
    port: field(integer(PORT), { description: 'DNS port; 0 turns DNS off (DHCP only). Default 53.' }),
    queryport: field(integer(PORT), { description: 'Fixed source port of upstream queries; 0 one OS-chosen port. Default: random ports.' }),
    minport: field(integer(PORT), { description: 'Lowest random source port of upstream queries. Default (and 0) 1024.' }),
    maxport: field(integer(PORT), { description: 'Highest random source port of upstream queries, not below `minport`. Default (and 0) 65535.' }),
    cachesize: field(integer({ minimum: 0, maximum: 5000000 }), { description: 'DNS cache entries; 0 disables the cache. Stock 1000, default 150.' }),
    nonegcache: flag('Do not cache negative answers. Default false.'),
    local_ttl: field(integer(INT), { description: 'TTL of answers from /etc/hosts and DHCP leases, seconds. Default 0.' }),
    max_ttl: field(integer(INT), { description: 'Largest TTL given to clients, seconds. Default: none.' }),
    min_cache_ttl: field(integer({ minimum: 0, maximum: 3600 }), { description: 'Cache answers at least this long, seconds (at most 3600). Default 0.' }),
    max_cache_ttl: field(integer(INT), { description: 'Cache answers at most this long, seconds. Default: none.' }),
    // dnsmasq forwards nothing with --dns-forward-max=0 and gives no lease with --dhcp-lease-max=0.
    dnsforwardmax: field(integer(POSITIVE), { description: 'Concurrent upstream queries. Default 150.' }),
    ednspacket_max: field(integer({ minimum: 512, maximum: 65535 }), { description: 'Largest EDNS.0 UDP packet to upstream servers, bytes. Stock and default 1232.' }),
    filter_aaaa: flag('Remove AAAA (IPv6) records from answers. Default false.'),
    filter_a: flag('Remove A (IPv4) records from answers. Default false.'),
    nohosts: flag('Do not read /etc/hosts. Default false.'),
    addnhosts: field(list(PATH, LIST_ONLY), { description: 'Further hosts files (or directories of them) to read.' }),
    bogusnxdomain: field(list(ADDRESS, LIST_ONLY), { description: 'Turn upstream answers with these addresses into NXDOMAIN.' }),
    logqueries: flag('Log every DNS query (to syslog). Default false.'),
    dnssec: flag('Validate DNSSEC. Needs the dnsmasq-full package: with stock dnsmasq the init script fails and the write is rolled back. Default false.'),
    dnsseccheckunsigned: flag('With `dnssec`, also check that unsigned answers really are unsigned. Default true.'),
    authoritative: flag('This is the only DHCP server on the network: answer unknown clients at once. Stock true, default false.'),
    readethers: flag('Also take static leases from /etc/ethers. Stock true, default false.'),
    leasefile: field(text(PATH), { description: 'Lease database, the source of dhcp/leases. Default /tmp/dhcp.leases.' }),
    dhcpleasemax: field(integer(POSITIVE), { description: 'Most DHCP leases at once. Default 1000.' }),
    sequential_ip: flag('Give pool addresses in order instead of hashed from the MAC. Default false.'),
    noping: flag('Do not ping an address before offering it. Default false.'),
    rapidcommit: flag('Allow DHCPv4 rapid commit (two-message exchange). Default false.'),
    logdhcp: flag('Log DHCP exchanges in detail. Default false.'),
    quietdhcp: flag('Do not log routine DHCP messages. Default false.'),
    fqdn: flag('Register DHCP clients in DNS only with their full name. Default false.'),
    dhcpbogushostname: flag('Ignore host names from DHCP clients that are known bogus (localhost and similar). Default true.'),
    add_local_domain: flag('Put `domain` into the router\'s own resolv.conf search list. Default true.'),
    add_local_hostname: flag('Publish the router\'s host name for its LAN addresses. Default true.'),
    dhcp_option: field(list(DHCP_OPTION), { description: 'DHCP options for every pool (dnsmasq syntax).' }),
    dhcp_option_force: field(list(DHCP_OPTION), { description: 'DHCP options sent to every client even unasked.' }),
  },
  rules,
  checks: [
    '`rebind_domain` only with `rebind_protection`.',
    '`maxport` not below `minport` (1024 when 0 or unset).',
  ],
};

export default definition;
