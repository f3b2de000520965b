// The `unbound` section as the unbound package of OpenWrt 24.10 reads it (openwrt/packages
// net/unbound, unbound 1.22.0, 86bbce8ecd): unbound.sh unbound_uci, and the @unbound[0] reads of
// unbound.init service_triggers (iface_trig, trigger, trigger_interface), odhcpd.sh (dhcp_link,
// dhcp4_slaac6, domain, exclude_ipv6_ga) and stopping.sh (validator, validator_ntp, root_age).
//
// unbound.sh applies every `unbound` section in turn, and an option a later one lacks falls back to
// its default; the other scripts read the first. The singleton is the first (stock `ub_main`).
// Out-of-range numbers are not refused by the scripts but replaced: edns_size outside 512-4096 by
// 1232, a listen_port other than 53 outside 1024-10240 by 53, a ttl_min over 1800 by 300; a
// verbosity outside 0-5 is not written, a rate_limit of 1-10 disables the limit, more than 2 threads
// run as 2. odhcpd.sh and stopping.sh test dhcp4_slaac6, exclude_ipv6_ga, validator and
// validator_ntp as numbers: only 1 and 0 work there. prefetch_root is read but used by nothing.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, list, SHELL_BOOLEAN, text } from '../codecs.js';
import { IPV6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { outOfRange } from '../checks.js';
import { DOMAIN_NAME, INTERFACE_NAME } from './common.js';

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });
const numericFlag = (description: string) => field(boolean({ truthy: ['1'], falsy: ['0'] }), { description });
const level = (maximum: number, description: string) => field(integer({ minimum: 0, maximum }), { description });
const interfaces = (description: string, listOnly = true) => field(list(INTERFACE_NAME, { listOnly }), { description });
const INT = { minimum: 0, maximum: 2147483647 };

/** The two values the scripts keep only in part of their range. */
function rangeErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const port = valueAt(body, 'listen_port');
  if (typeof port === 'number' && port !== 53 && port < 1024) errors.push(outOfRange('listen_port', 'listen_port must be 53 or 1024-10240; unbound.sh listens on 53 instead'));
  const rate = valueAt(body, 'rate_limit');
  if (typeof rate === 'number' && rate > 0 && rate < 11) errors.push(outOfRange('rate_limit', 'rate_limit must be 0 or 11-99999; unbound.sh applies no limit below 11'));
  return errors;
}

export const rules: Rules = (body) => rangeErrors(body);

const definition: ResourceDefinition = {
  path: 'unbound/server',
  package: 'unbound',
  type: 'unbound',
  kind: 'singleton',
  reload: ['unbound'],
  daemonPackage: 'unbound-daemon',
  description: 'The recursive resolver Unbound, as its UCI scripts build unbound.conf (the first `unbound` section, stock `ub_main`).',
  members: {
    manual_conf: flag('Ignore UCI and run /etc/unbound/unbound.conf as it is. Default false.'),
    listen_port: field(integer({ minimum: 53, maximum: 10240 }), { description: 'DNS port, 53 or 1024-10240. Default 53.' }),
    interface_auto: flag('Answer on the address each query came to. Default true.'),
    localservice: flag('Answer only clients of the router\'s LAN subnets. Default true.'),
    protocol: field(choice(['mixed', 'ip4_only', 'ip6_only', 'ip6_local', 'ip6_prefer', 'default']), { description: 'IP families used. Default mixed.' }),
    recursion: field(choice(['passive', 'aggressive', 'default']), { description: 'Prefetching profile. Default passive.' }),
    resource_limits: field(choice(['tiny', 'small', 'medium', 'large', 'default']), { option: 'resource', description: 'Memory profile. Default small.' }),
    num_threads: field(integer({ minimum: 1, maximum: 2 }), { description: 'Threads (2 needs libevent). Default 1.' }),
    edns_size: field(integer({ minimum: 512, maximum: 4096 }), { description: 'EDNS buffer size in bytes. Default 1232.' }),
    rate_limit: field(integer({ minimum: 0, maximum: 99999 }), { description: 'Queries per second (per client half); 0 or 11-99999, 0 for none. Default 0.' }),
    ttl_min: field(integer({ minimum: 0, maximum: 1800 }), { description: 'Minimum cache TTL in seconds. Default 120.' }),
    ttl_neg_max: field(integer(INT), { description: 'Maximum negative cache TTL in seconds. Default 1000.' }),
    verbosity: level(5, 'Log level 0-5. Default 1.'),
    extended_stats: flag('Keep extended statistics for unbound-control. Default false.'),
    hide_binddata: flag('Refuse id.server and version.bind queries. Default true.'),
    query_minimize: flag('QNAME minimisation. Default false.'),
    query_min_strict: flag('Strict QNAME minimisation, with `query_minimize`. Default false.'),
    // A number the scripts compare with -gt; above 2 acts as 2.
    rebind_protection: field(choice(['0', '1', '2', '3']), {
      description: 'Drop upstream answers with private addresses: 0 off, 1 RFC 1918 and ULA, 2 (or 3) also the LAN\'s global /64s. Default 1.',
    }),
    rebind_localhost: flag('Also drop upstream answers with loopback addresses. Default false.'),
    dnssec_enabled: field(boolean({ truthy: ['1'], falsy: ['0'] }), { option: 'validator', description: 'DNSSEC validation. Default false.' }),
    validator_ntp: numericFlag('Skip DNSSEC time checks until NTP has set the clock. Default true.'),
    root_age: field(integer(INT), { description: 'Days between copies of the root key to flash; over 90 never. Default 9.' }),
    domain_insecure: field(list({ pattern: `^${DOMAIN_NAME}\\.?$`, maxLength: 254 }, { listOnly: true }), { description: 'Domains exempt from DNSSEC validation.' }),
    dns64: flag('DNS64 synthesis of AAAA records. Default false.'),
    dns64_prefix: field(text({ pattern: `^${IPV6}/(9[0-6]|[1-8]?[0-9])$` }), { description: 'DNS64 prefix. Default 64:ff9b::/96.' }),
    domain: field(text({ pattern: `^${DOMAIN_NAME}$`, maxLength: 253 }), { description: 'Local domain. Default lan.' }),
    domain_type: field(choice(['static', 'refuse', 'deny', 'inform_deny', 'transparent', 'typetransparent', 'inform']), {
      description: 'Unbound local-zone type of the local domain. Default static.',
    }),
    add_local_fqdn: level(4, 'Router names in DNS on LAN addresses: 0 none to 4 `iface.host.domain`. Default 0.'),
    add_wan_fqdn: level(4, 'As `add_local_fqdn` on `iface_wan` addresses. Default 0.'),
    add_extra_dns: level(3, 'Serve dhcp `domain` (1), also `mxhost`/`srvhost` (2), also `cname` (3) records. Default 0.'),
    dhcp_link: field(choice(['none', 'dnsmasq', 'odhcpd']), { description: 'DHCP server whose host names are served. Default none.' }),
    dnsmasq_link_dns: flag('Legacy form of `dhcp_link` dnsmasq, read only with `dhcp_link` none. Default false.'),
    dhcp4_slaac6: numericFlag('With `dhcp_link` odhcpd, also name the SLAAC addresses of DHCPv4 clients. Default false.'),
    exclude_ipv6_ga: numericFlag('With `dhcp_link` odhcpd, leave global IPv6 addresses out. Default false.'),
    unbound_control: level(4, 'unbound-control access: 0 none, 1 local plain, 2 local TLS, 3-4 network TLS. Default 0.'),
    iface_lan: interfaces('Further LAN interfaces beyond the DHCP pools\'.'),
    iface_wan: interfaces('WAN interfaces, for `add_wan_fqdn`.'),
    iface_trig: interfaces('Interfaces whose coming up reloads Unbound.', false),
    trigger: interfaces('Legacy form of `iface_trig`.', false),
    trigger_interface: interfaces('Legacy form of `iface_trig`.', false),
  },
  rules,
  checks: ['`listen_port` is 53 or 1024-10240; `rate_limit` is 0 or 11-99999.'],
};

export default definition;
