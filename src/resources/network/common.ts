// Value shapes, boolean spellings and checks the network resources share, as netifd reads them
// (openwrt/netifd, and uci's blob.c, which converts UCI options to netifd's typed attributes). Where
// netifd versions disagree (24.10 and later), a value is accepted only if every one applies it alike.

import type { FieldError } from '../../http/errors.js';
import type { UciSection, UciValue } from '../../uci/index.js';
import { IPV4, IPV6, PREFIX4, PREFIX6 } from '../addresses.js';
import { conflict, given, strings } from '../checks.js';
import { field, integerOrName, UCI_BLOB_BOOLEAN } from '../codecs.js';
import { valueAt, type JsonObject, type RuleContext } from '../model.js';


// ---- boolean spellings -------------------------------------------------------------------------

/**
 * A netifd BOOL attribute (uci blob.c uci_attr_to_blob): `1`/`true` and `0`/`false` only; any
 * other value drops the option and the default applies, which is often the kernel's: such a value
 * reads as null.
 */
export const NETIFD_BOOLEAN = UCI_BLOB_BOOLEAN;

/** A netifd BOOL attribute whose default is false: a dropped value is false, so everything else reads false. */
export const NETIFD_FLAG = { truthy: ['1', 'true'] };

/**
 * An interface's `disabled` (config.c config_parse_interface, uci_lookup_option_string and strcmp
 * with "1"): true only for the literal `1`, as the spec says; netifd from 2026-07 also takes `true`.
 */
export const INTERFACE_DISABLED = { truthy: ['1'] };

/** A handler option declared as a string and compared with "1" (dhcpv6.sh `noslaaconly:bool`, `nohostroute`). */
export const STRING_ONE = { truthy: ['1'] };

/**
 * A wireguard peer's `disabled` and `route_allowed_ips`: wireguard.sh reads them with
 * config_get_bool (1/on/true/yes/enabled), wireguard.uc compares with '1'. Only `1` is true on
 * both; every other value is false on wireguard.uc.
 */
export const WIREGUARD_PEER_FLAG = { truthy: ['1'] };

// ---- names ---------------------------------------------------------------------------------------

/** A logical interface, as a section name: the spec's charset and 32 characters. */
export const INTERFACE_NAME = { pattern: '^[A-Za-z0-9_]+$', maxLength: 32 };

/**
 * A network device (kernel netdev) name: at most 15 characters (IFNAMSIZ; netifd's
 * device_set_ifname refuses longer names), no `/`, `:` or whitespace (the kernel's), and none of
 * the characters the proto shell scripts would split or glob. A subset of what the kernel allows.
 */
export const DEVICE_NAME = { pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', maxLength: 15 };

/** A device name, or `@<interface>` for the device of another interface (netifd alias.c). */
export const DEVICE_OR_ALIAS = { pattern: '^(@[A-Za-z0-9_]{1,32}|[A-Za-z0-9_][A-Za-z0-9_.-]{0,14})$' };

// ---- addresses -----------------------------------------------------------------------------------

/** IPv4 netmasks netifd turns into the prefix length they spell: contiguous only (utils.c parse_netmask_string counts from the top bit). */
// Pure, like NETMASK4 below: a router never evaluates the docs' patterns, and building these cost a write 0.7M.
const MASKS = /*#__PURE__*/ Array.from({ length: 33 }, (_, bits) => {
  const value = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('\\.');
});
// A pure call: see PROTOCOL in firewall/common.ts.
export const NETMASK4 = /*#__PURE__*/ (() => `(${MASKS.join('|')})`)();

/** `netmask`: a dotted contiguous mask or a prefix length 0-32. */
export const NETMASK = { pattern: `^(${NETMASK4}|${PREFIX4})$` };

export const IPV4_ADDRESS = { pattern: `^${IPV4}$` };
export const IPV6_ADDRESS = { pattern: `^${IPV6}$` };
export const ANY_ADDRESS = { pattern: `^(${IPV4}|${IPV6})$` };

/** An IPv4 address with an optional `/prefix` or `/dotted-mask` (utils.c parse_ip_and_netmask). */
export const IPV4_CIDR = { pattern: `^${IPV4}(/(${PREFIX4}|${NETMASK4}))?$` };
/** An IPv6 address with an optional `/prefix` (a dotted mask is refused for IPv6). */
export const IPV6_CIDR = { pattern: `^${IPV6}(/${PREFIX6})?$` };
export const ANY_CIDR = { pattern: `^(${IPV4}(/(${PREFIX4}|${NETMASK4}))?|${IPV6}(/${PREFIX6})?)$` };
/** An address with a mandatory `/prefix` (rules: netifd before 3ec5038 read a bare address as /0). */
export const IPV4_PREFIXED = { pattern: `^${IPV4}/(${PREFIX4}|${NETMASK4})$` };
export const IPV6_PREFIXED = { pattern: `^${IPV6}/${PREFIX6}$` };

/** ether_aton as musl reads it (colons, one or two hex digits a byte), unicast only; all-zero is refused by the rules. */
export const MAC = { pattern: '^[0-9A-Fa-f]?[02468AaCcEe](:[0-9A-Fa-f]{1,2}){5}$' };

// ---- numbers and tables --------------------------------------------------------------------------

/** netifd converts INT32 options with strtol(…, 0): `010` is 8. */
export const C_INTEGER = { c: true };

/** A non-negative INT32 that reads alike on 32-bit targets (strtol saturates at 2^31-1 there). */
export const INT32 = { minimum: 0, maximum: 2147483647 };

const UINT32 =
  '(429496729[0-5]|42949672[0-8][0-9]|4294967[01][0-9]{2}|429496[0-6][0-9]{3}|42949[0-5][0-9]{4}|4294[0-8][0-9]{5}|429[0-3][0-9]{6}|42[0-8][0-9]{7}|4[01][0-9]{8}|[1-3][0-9]{9}|[1-9][0-9]{0,8})';
const NAME = '[A-Za-z_][A-Za-z0-9_.-]*';

/**
 * A routing table (system-linux.c system_resolve_rt_table): 1-4294967295, `main`, `default`,
 * `local`, or a name from /etc/iproute2/rt_tables. 0 and unknown names are refused by netifd.
 */
export const TABLE = { pattern: `^(${UINT32}|${NAME})$`, maxLength: 63 };

/**
 * A routing table as uapi's Terraform provider sends it (an integer) or as netifd also takes it (a
 * name): 1-4294967295, read as strtoul(…, 0) reads it, or a name (TABLE's, never all digits).
 */
/*#__NO_SIDE_EFFECTS__*/
export const tableField = (description: string) =>
  field(integerOrName({ minimum: 1, maximum: 4294967295 }, { pattern: `^${NAME}$`, maxLength: 63 }, C_INTEGER), { description });

/** A route protocol (system_resolve_rt_proto): 0-255, unspec/kernel/boot/static, or a name from /etc/iproute2/rt_protos. */
export const ROUTE_PROTO = { pattern: `^((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])|${NAME})$`, maxLength: 63 };

/** A firewall mark `value[/mask]`, decimal or 0x hex, up to 0xffffffff (iprule.c iprule_parse_mark). */
const MARK_VALUE = `(0[xX][0-9A-Fa-f]{1,8}|${UINT32}|0)`;
export const MARK = { pattern: `^${MARK_VALUE}(/${MARK_VALUE})?$` };

/** A base64 Curve25519 key as wg reads it: 43 characters then `=`, the last one's two low bits clear. */
export const WIREGUARD_KEY = { pattern: '^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$' };

// ---- rule helpers --------------------------------------------------------------------------------

/** Items of an option netifd reads as an array: a list, or an option split at blanks. */
export function items(value: UciValue | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
}

/**
 * The ports of a bridge `device` section: `ports`, or without it the legacy `ifname`, which netifd
 * renames to `ports` (config.c config_fixup_bridge_ports).
 */
export function bridgePorts(section: UciSection): string[] {
  return items(section.options.get('ports') ?? section.options.get('ifname'));
}

/** The network sections of a type, other than the one being written. */
export function others(context: RuleContext, type: string | ((type: string) => boolean)): UciSection[] {
  const matches = typeof type === 'string' ? (candidate: string) => candidate === type : type;
  return context.read('network').sections.filter((section) => matches(section.type) && section.name !== context.id);
}

/** Fields that apply only to some values of a discriminator (`proto`, `type`): the others are refused. */
export function onlyWith(body: JsonObject, discriminator: string, owners: Record<string, string[]>): FieldError[] {
  const value = valueAt(body, discriminator);
  return Object.entries(owners)
    .filter(([path, allowed]) => given(body, path) && !allowed.includes(typeof value === 'string' ? value : ''))
    .map(([path, allowed]) => conflict(path, `${path} applies only with ${discriminator} ${allowed.join(' or ')}; netifd would ignore it`));
}

/**
 * Every given address field of the body's `family` (a route6 gateway must be IPv6, ...). Without a
 * valid family the schema has refused the body already, and no address is wrong for it.
 */
export function familyErrors(body: JsonObject, paths: string[]): FieldError[] {
  const family = valueAt(body, 'family');
  if (family !== 'ipv4' && family !== 'ipv6') return [];
  return paths.flatMap((path) =>
    strings(body, path)
      .filter(([, value]) => value.includes(':') !== (family === 'ipv6'))
      .map(([where]) => conflict(where, `${where} must be an IPv${family === 'ipv6' ? 6 : 4} address here`)),
  );
}

/** The 32-bit value of an IPv4 address, and of a prefix length or dotted mask. */
export function ipv4Value(address: string): number {
  return address.split('.').reduce((sum, byte) => sum * 256 + Number(byte), 0);
}
export function prefixLength(mask: string): number {
  if (!mask.includes('.')) return Number(mask);
  const value = ipv4Value(mask);
  let bits = 0;
  while (bits < 32 && value & (2 ** (31 - bits))) bits++;
  return bits;
}

/**
 * An IPv4 `addr/len` whose host bits are set: netifd before 76eb342 (2023-08) failed such a route,
 * 76eb342 to 8587c07 (2023-11) masked it wrongly for some lengths, later ones mask it.
 */
export function hostBitsSet(cidr: string, netmask?: string): boolean {
  const [address, mask] = cidr.split('/');
  if (address.includes(':')) return false;
  const length = prefixLength(mask ?? netmask ?? '32');
  const host = length === 0 ? 4294967295 : length === 32 ? 0 : 2 ** (32 - length) - 1;
  return (ipv4Value(address) & host) !== 0;
}

/**
 * The number each name of an iproute2 table file stands for, as system_resolve_rt_table and
 * system_resolve_rt_proto read it: `number name` lines, the first line naming it wins, and the
 * number is strtoul(…, 10) (0 for one that does not start with a digit).
 */
function namesIn(context: RuleContext, path: string): Map<string, number> {
  const names = new Map<string, number>();
  for (const line of (context.file(path) ?? '').split('\n')) {
    const [number, name] = line.trim().split(/\s+/);
    if (number && name && !number.startsWith('#') && !names.has(name)) names.set(name, Number.parseInt(number, 10) || 0);
  }
  return names;
}

/**
 * A table or protocol name netifd cannot resolve: it drops the route or rule without a word. A name
 * the file gives table 0 (`unspec` in the stock file) is RT_TABLE_UNSPEC, which netifd refuses; a
 * protocol above 255 likewise.
 */
export function namedErrors(body: JsonObject, context: RuleContext, path: string, kind: 'table' | 'proto'): FieldError[] {
  const value = valueAt(body, path);
  if (typeof value !== 'string' || /^\d+$/.test(value)) return [];
  const builtin = kind === 'table' ? ['main', 'default', 'local'] : ['unspec', 'kernel', 'boot', 'static'];
  if (builtin.includes(value)) return [];
  const file = kind === 'table' ? 'rt_tables' : 'rt_protos';
  const number = namesIn(context, `/etc/iproute2/${file}`).get(value);
  if (number === undefined) return [conflict(path, `${path}: ${value} is not defined in /etc/iproute2/${file}; netifd would drop the section`)];
  if (kind === 'table' ? number === 0 : number > 255) {
    return [conflict(path, `${path}: ${value} is ${kind === 'table' ? 'table 0 (unspec)' : `protocol ${number}`} in /etc/iproute2/${file}, which netifd refuses; it would drop the section`)];
  }
  return [];
}

/** The logical interfaces configured: `interface` sections, by section name. */
export function interfaceSection(context: RuleContext, name: string): UciSection | undefined {
  return context.read('network').sections.find((section) => section.type === 'interface' && section.name === name);
}

/*#__NO_SIDE_EFFECTS__*/
export const tableCheck = (path: string) => `\`${path}\` names a routing table netifd can resolve: a number, main, default, local, or a name /etc/iproute2/rt_tables gives a table other than 0.`;
/*#__NO_SIDE_EFFECTS__*/
export function onlyWithCheck(discriminator: string, owners: Record<string, string[]>): string {
  const byValues = new Map<string, string[]>();
  for (const [path, allowed] of Object.entries(owners)) byValues.set(allowed.join('/'), [...(byValues.get(allowed.join('/')) ?? []), `\`${path}\``]);
  return [...byValues].map(([allowed, paths]) => `${paths.join(', ')} only with \`${discriminator}\` ${allowed}`).join('; ') + '.';
}

/**
 * The values of a discriminator (`proto`, `type`) under which each field applies, from
 * `[value, 'field field ...']` pairs: what `onlyWith` refuses and a field's `when` reads by.
 */
/*#__NO_SIDE_EFFECTS__*/
export function ownersOf(pairs: [string, string][]): Record<string, string[]> {
  const owners: Record<string, string[]> = {};
  for (const [value, names] of pairs) for (const name of names.split(' ')) (owners[name] = owners[name] ?? []).push(value);
  return owners;
}
