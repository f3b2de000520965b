// Value shapes and checks the dhcp package's readers
// share, as OpenWrt 24.10 reads them: dnsmasq.init (dnsmasq 2.90-r4), odhcpd 2024-05-08 (a2988231)
// through libuci's uci_to_blob, and /lib/functions.sh. A pattern accepts what every reader of the
// option accepts, minus what one of them would apply other than as written, or what makes dnsmasq
// refuse its whole configuration (dnsmasq exits at start on a bad line: no DNS, no DHCP).

import type { UciSection } from '../../uci/index.js';
import { IPV4, IPV6, numberRange, PORT_NUMBER, SERVICE_PORT } from '../addresses.js';
import { boolean, SHELL_BOOLEAN } from '../codecs.js';
import { readOption } from '../options.js';
import type { RuleContext } from '../model.js';

// ---------------------------------------------------------------------------------------------
// Names and identifiers

/**
 * One DNS label as odhcpd_valid_hostname takes it (odhcpd.c): letters and digits, `-` and `_` inside
 * only, at most 63 characters. dnsmasq's legal_hostname is looser (it checks the first label only).
 */
const LABEL = '[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?';

/** A host name odhcpd accepts for a static lease (else it drops the whole host section). */
export const HOST_NAME = { pattern: `^${LABEL}(\\.${LABEL})*$`, maxLength: 253 };

/**
 * A domain for dnsmasq's --domain, --local, --server, --address, --rebind-domain-ok and odhcpd's
 * `domain`: labels of letters, digits, `_` and `-`, at most 63 each. dnsmasq's check_name takes any
 * printable ASCII, but the init script word-splits these values and dnsmasq uses `/`, `,` and `#`
 * as separators, so other characters would not be applied as written.
 */
const DOMAIN_LABEL = '[A-Za-z0-9_-]{1,63}';
export const DOMAIN_NAME = `${DOMAIN_LABEL}(\\.${DOMAIN_LABEL})*`;
export const DOMAIN = { pattern: `^${DOMAIN_NAME}$`, maxLength: 253 };

/**
 * A dnsmasq tag (set:/tag: name). The init script word-splits tag lists and lets the shell glob
 * them, and `,` separates dnsmasq's fields: none of these characters.
 */
export const TAG = { pattern: '^[^\\s,*?\\[\\]\'"\\\\]+$', maxLength: 64 };

/** A network interface section name (uciname). */
export const INTERFACE_NAME = { pattern: '^[A-Za-z0-9_]+$', maxLength: 32 };

/** A dnsmasq instance: the name of a `dnsmasq` section (libuci's cfgXXXXXX for an anonymous one). */
export const INSTANCE = { pattern: '^[A-Za-z0-9_]+$', maxLength: 32 };

/**
 * A MAC for dnsmasq's --dhcp-host (parse_hex): six groups of one or two hex digits, or `*` for any
 * byte, separated by `:`. `-` separators are refused: without a `:` dnsmasq reads the token as a
 * host name. odhcpd (ether_aton_r) takes no wildcard, see `macs` on dhcp/hosts.
 */
export const MAC = { pattern: '^([0-9A-Fa-f]{1,2}|\\*)(:([0-9A-Fa-f]{1,2}|\\*)){5}$' };

/**
 * A DHCPv6 DUID, 2 to 130 bytes: plain hex (as LuCI writes it) or `:`-separated bytes. odhcpd
 * (odhcpd_unhexlify) reads both; dnsmasq, only when it serves DHCPv6 itself, reads plain hex as
 * text, see the report.
 */
export const DUID = { pattern: '^(([0-9A-Fa-f]{2}){2,130}|[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){1,129})$' };

/** The interface identifier of a static DHCPv6 address: hex, at most 64 bits, optional `0x`. */
export const HOSTID = { pattern: '^(0x)?[0-9A-Fa-f]{1,16}$' };

/** An absolute path: dnsmasq.init passes it unquoted to procd's jail mounts, so no whitespace. */
export const PATH = { pattern: '^/[^\\s]*$', maxLength: 255 };

// ---------------------------------------------------------------------------------------------
// Times

/**
 * A lease time: seconds, or a number with a lower-case unit s, m, h, d or w, or `infinite`.
 * dnsmasq also takes upper-case units, but odhcpd's parse_leasetime does not (it drops the host or
 * keeps its default); decimals and compound forms (`1h30m`) make dnsmasq read a host name instead.
 * dnsmasq raises a lease under 120 s to 120 s (odhcpd to 60 s), and multiplies in a C int, which
 * overflows past 2^31-1 seconds: neither is applied as written, so each unit holds that range.
 */
export const LEASETIME = {
  pattern:
    `^(0*(${numberRange(120, 2147483647)}s?|${numberRange(2, 35791394)}m|${numberRange(1, 596523)}h|${numberRange(1, 24855)}d|${numberRange(1, 3550)}w)|infinite)$`,
};

// ---------------------------------------------------------------------------------------------
// dnsmasq option syntaxes

/** `/dom/[dom/]...`: the domain part of --server, --local and --address; `#` and `` (empty) are dnsmasq wildcards. */
const DOMAINS = `/((#|\\*?\\.?${DOMAIN_NAME})?/)+`;
const SERVER_ADDRESS = `(${IPV4}|${IPV6}(%[A-Za-z0-9_.@-]{1,15})?)`;
const INTERFACE_DEVICE = '[A-Za-z0-9_.-]{1,15}';

/**
 * --server / --local (parse_server): `[/domain/...]`, then an upstream address with `#port`, `@device`
 * and/or `@source[#port]`, or `#` (the resolv-file servers), or nothing (answer locally only).
 * Host names are left out: dnsmasq resolves them once at start, before it serves DNS itself. The
 * server's port is 1-65535; a source port 0 is dnsmasq's default, a random port.
 */
export const SERVER = {
  pattern:
    `^(${DOMAINS})?(#|${SERVER_ADDRESS}(#${SERVICE_PORT})?(@(${INTERFACE_DEVICE}@)?(${IPV4}|${IPV6}|${INTERFACE_DEVICE})(#${PORT_NUMBER})?)?)?$`,
  minLength: 1,
};

/** --address: `/domain/[domain/]...` then an IPv4 or IPv6 address, `#` (the zero address) or nothing (NXDOMAIN). */
export const ADDRESS_OVERRIDE = { pattern: `^(${DOMAINS})(${IPV4}|${IPV6}|#)?$` };

/** --rebind-domain-ok: one domain or `/dom/[dom/]`. */
export const REBIND_DOMAIN = { pattern: `^/?${DOMAIN_NAME}(/${DOMAIN_NAME})*/?$` };

// dnsmasq 2.90 dhcp-common.c opttab and opttab6: the names `option:`/`option6:` resolve.
const OPTION4_NAMES = [
  'netmask', 'time-offset', 'router', 'dns-server', 'log-server', 'lpr-server', 'hostname', 'boot-file-size', 'domain-name',
  'swap-server', 'root-path', 'extension-path', 'ip-forward-enable', 'non-local-source-routing', 'policy-filter',
  'max-datagram-reassembly', 'default-ttl', 'mtu', 'all-subnets-local', 'broadcast', 'router-discovery', 'router-solicitation',
  'static-route', 'trailer-encapsulation', 'arp-timeout', 'ethernet-encap', 'tcp-ttl', 'tcp-keepalive', 'nis-domain', 'nis-server',
  'ntp-server', 'vendor-encap', 'netbios-ns', 'netbios-dd', 'netbios-nodetype', 'netbios-scope', 'x-windows-fs', 'x-windows-dm',
  'requested-address', 'lease-time', 'option-overload', 'message-type', 'server-identifier', 'parameter-request', 'message',
  'max-message-size', 'vendor-class', 'client-id', 'tftp-server', 'bootfile-name', 'mobile-ip-home', 'smtp-server', 'pop3-server',
  'nntp-server', 'irc-server', 'user-class', 'rapid-commit', 'agent-id', 'client-arch', 'client-interface-id', 'client-machine-id',
  'posix-timezone', 'tzdb-timezone', 'ipv6-only', 'subnet-select', 'domain-search', 'sip-server', 'classless-static-route',
  'vendor-id-encap', 'tftp-server-address', 'server-ip-address',
];
const OPTION6_NAMES = [
  'client-id', 'server-id', 'ia-na', 'ia-ta', 'iaaddr', 'oro', 'preference', 'unicast', 'status', 'rapid-commit', 'user-class',
  'vendor-class', 'vendor-opts', 'sip-server-domain', 'sip-server', 'dns-server', 'domain-search', 'nis-server', 'nis-domain',
  'sntp-server', 'information-refresh-time', 'posix-timezone', 'tzdb-timezone', 'ntp-server', 'bootfile-url', 'bootfile-param',
];
const BYTE_NUMBER = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';

/**
 * --dhcp-option: `[tag:name,]...[encap:N,|vi-encap:N,|vendor:class,]` then an option number, or
 * `option:name` / `option6:name|number`, then its values. The value syntax per option is not
 * checked here (see REPORT.md: dnsmasq refuses a malformed value at start).
 */
export const DHCP_OPTION = {
  pattern:
    `^(((tag|net):!?[^,\\s]+|encap:${BYTE_NUMBER}|vi-encap:[0-9]{1,10}|vendor:[^,\\r\\n]*),)*` +
    `(${BYTE_NUMBER}|option:(${OPTION4_NAMES.join('|')})|option6:(${OPTION6_NAMES.join('|')}|${PORT_NUMBER}))(,[^\\r\\n]*)?$`,
};

// ---------------------------------------------------------------------------------------------
// Rules helpers (as firewall/common.ts has them)

/** The other sections of a type: those a rule compares the written one with. */
export function siblings(context: RuleContext, pkg: string, type: string): UciSection[] {
  return context.read(pkg).sections.filter((section) => section.type === type && section.name !== context.id);
}

/** A shell boolean option read with its default. */
export function shellFlag(section: UciSection, option: string, fallback: boolean): boolean {
  const value = readOption(boolean(SHELL_BOOLEAN).codec, section.options.get(option));
  return typeof value === 'boolean' ? value : fallback;
}

// ---------------------------------------------------------------------------------------------
// IPv4 arithmetic for the pool checks (ipcalc.sh)

export function ipv4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

export function prefixOf(netmask: string): number | undefined {
  if (/^\d{1,2}$/.test(netmask)) return Number(netmask) <= 32 ? Number(netmask) : undefined;
  if (!new RegExp(`^${IPV4}$`).test(netmask)) return undefined;
  const bits = ipv4Number(netmask).toString(2).padStart(32, '0');
  return /^1*0*$/.test(bits) ? bits.indexOf('0') === -1 ? 32 : bits.indexOf('0') : undefined;
}

/** `/^${IPV4}$/` and `${IPV4}/${prefix}` splitting of a network `ipaddr` value. */
export function staticAddress(ipaddr: string, netmask: string | undefined): { address: number; prefix: number } | undefined {
  const [address, prefixText] = ipaddr.split('/');
  if (!new RegExp(`^${IPV4}$`).test(address)) return undefined;
  const prefix = prefixText !== undefined ? prefixOf(prefixText) : netmask !== undefined ? prefixOf(netmask) : undefined;
  return prefix === undefined ? undefined : { address: ipv4Number(address), prefix };
}
