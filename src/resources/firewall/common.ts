// Value shapes and checks firewall4 shares across its section types (fw4.uc and templates of
// firewall4 2024-12-18, OpenWrt 24.10). A pattern accepts what fw4's parser accepts, minus what fw4
// would apply other than as written or render into a ruleset nft refuses.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, FIREWALL4_BOOLEAN, integer, text } from '../codecs.js';
import { BYTE, IPV4, IPV6, PORT_NUMBER, PREFIX4, PREFIX6, SERVICE_PORT } from '../addresses.js';
import { readOption } from '../options.js';
import { valueAt, type Field, type JsonObject, type RuleContext } from '../model.js';
import { conflict, given, optionText, strings } from '../checks.js';

/** `[Tt][Cc][Pp]`: fw4 lower-cases protocols, DSCP classes and weekdays before it compares them. */
function caseless(word: string): string {
  // A loop, not replace() with a callback: this runs for ~150 protocol names each time a firewall
  // definition loads, and QuickJS makes callback replaces slow.
  let pattern = '';
  for (const character of word) {
    const upper = character.toUpperCase();
    const lower = character.toLowerCase();
    pattern += upper === lower ? character : `[${upper}${lower}]`;
  }
  return pattern;
}

/** Every non-empty prefix of a word, as fw4's parse_enum matches: `d(a(y)?)?`. */
function prefixes(word: string, letter: (character: string) => string = (character) => character): string {
  return [...word].reduceRight((rest, character, index) => (index === 0 ? letter(character) + rest : `(${letter(character)}${rest})?`), '');
}

const UINT32 =
  '(429496729[0-5]|42949672[0-8][0-9]|4294967[01][0-9]{2}|429496[0-6][0-9]{3}|42949[0-5][0-9]{4}|4294[0-8][0-9]{5}|429[0-3][0-9]{6}|42[0-8][0-9]{7}|4[01][0-9]{8}|[1-3][0-9]{9}|[1-9][0-9]{0,8}|0)';

/** A zone name (parse_identifier); 47 characters keep fw4's comments naming two zones within nft's 128 bytes. */
export const ZONE_NAME = { pattern: '^[A-Za-z_.][A-Za-z0-9/_.-]*$', maxLength: 47 };

/** A zone name, or `*` for any zone. */
export const ZONE_REFERENCE = { pattern: '^(\\*|[A-Za-z_.][A-Za-z0-9/_.-]*)$', maxLength: 47 };

/** A label fw4 puts into nft comments (at most 128 bytes with its prefix) and log prefixes; `"` cannot be quoted there. */
export const LABEL = { maxLength: 100, pattern: '^[^"\\\\\\x00-\\x1f\\x7f]*$' };

/** A log prefix of its own (nft allows 127 bytes). */
export const LOG_PREFIX = { maxLength: 127, pattern: LABEL.pattern };

/**
 * A literal match address (parse_network): an address, `addr/prefix`, `addr/mask` (non-contiguous
 * masks too) or a range `a-b`; `!` negates. fw4 also resolves interface names at load time and
 * drops the match when the interface has no address, which would widen the rule: not accepted.
 */
export const ADDRESS = { pattern: `^!?(${IPV4}(/(${PREFIX4}|${IPV4})|-${IPV4})?|${IPV6}(/(${PREFIX6}|${IPV6})|-${IPV6})?)$` };

/** A rewrite address: one address or a range; fw4 would rewrite an `addr/prefix` to its network address. */
export const HOST = { pattern: `^(${IPV4}(-${IPV4})?|${IPV6}(-${IPV6})?)$` };

/** A port or range (`N-M`, `N:M`), 0-65535; `!` negates. */
export const PORT = { pattern: `^!?${PORT_NUMBER}([-:]${PORT_NUMBER})?$` };

/** A rewrite port or range: fw4 ignores `!` there; NAT to port 0 reaches nothing. */
export const REWRITE_PORT = { pattern: `^${SERVICE_PORT}([-:]${SERVICE_PORT})?$` };

export const MAC = { pattern: '^!?[0-9A-Fa-f]{1,2}([:-][0-9A-Fa-f]{1,2}){5}$' };

/**
 * fw4 passes protocol names to nft as written, where an unknown name fails the whole ruleset: the
 * names musl's getprotobyname() and nft's own keywords resolve, fw4's aliases, or a number 0-255.
 * `ip` and `raw` are left out (nft keywords; use 0 and 255). No `!`: fw4 ignores it on protocols.
 */
const PROTOCOL_NAMES = [
  'all', 'any', 'tcpudp', 'tcp', 'udp', 'icmp', 'icmpv6', 'ipv6-icmp', 'igmp', 'ggp', 'ipencap', 'st', 'egp', 'pup', 'hmp', 'xns-idp',
  'rdp', 'iso-tp4', 'xtp', 'ddp', 'idpr-cmtp', 'ipv6', 'ipv6-route', 'ipv6-frag', 'idrp', 'rsvp', 'gre', 'esp', 'ah', 'skip',
  'ipv6-nonxt', 'ipv6-opts', 'rspf', 'vmtp', 'ospf', 'ipip', 'encap', 'pim', 'comp', 'dccp', 'sctp', 'udplite',
];
// Built by a pure call: the runtime chunks never read the patterns (the generated docs hold them),
// and rollup keeps a module-level computation it cannot prove pure, run by every request that loads
// the module (the protocols alone 8,000 bytecode operations a firewall request).
export const PROTOCOL = { pattern: /*#__PURE__*/ (() => `^(\\*|${PROTOCOL_NAMES.map(caseless).join('|')}|${BYTE})$`)() };

const MARK_VALUE = `(0[xX][0-9A-Fa-f]{1,8}|${UINT32})`;
/** `value[/mask]`, each decimal or 0x hex up to 0xffffffff; `!` negates. */
export const MARK = { pattern: `^!?${MARK_VALUE}(/${MARK_VALUE})?$` };
export const SET_MARK = { pattern: `^${MARK_VALUE}(/${MARK_VALUE})?$` };

const LIMIT_UNIT = /*#__PURE__*/ (() => `/(${['second', 'minute', 'hour', 'day'].map((unit) => prefixes(unit)).join('|')})`)();

/** parse_limit: a positive rate (the kernel refuses 0), per a lower-case prefix of second, minute, hour or day. */
export const LIMIT = { pattern: `^[1-9][0-9]{0,17}(${LIMIT_UNIT})?$` };

/** A parse_limit rate with its unit: the text form beside a plain number, which is per second. */
export const LIMIT_WITH_UNIT = { pattern: `^[1-9][0-9]{0,17}${LIMIT_UNIT}$` };

const TIME = '([01]?[0-9]|2[0-3])(:[0-5]?[0-9](:[0-5]?[0-9])?)?';
const DATE = `^(19[7-9][0-9]|20[0-2][0-9]|203[0-8])(-(1[0-2]|0?[0-9])(-(3[01]|[12][0-9]|0?[0-9])(T${TIME})?)?)?$`;
const WEEKDAY = /*#__PURE__*/ (() => ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day) => prefixes(day, caseless)).join('|'))();

/** A netdev name, or an nft wildcard `eth*`. */
export const DEVICE = { pattern: '^[^\\s/"\\\\!*+]{1,15}\\*?$' };

/** A conntrack helper by its name in /usr/share/firewall4/helpers; `!` negates. */
export const HELPER = { pattern: '^!?[A-Za-z0-9_.-]+$' };
export const SET_HELPER = { pattern: '^[A-Za-z0-9_.-]+$' };

/** parse_setmatch: a declared set, then up to three directions. */
export const IPSET = { pattern: '^!?[A-Za-z_.][A-Za-z0-9/_.-]*([ \\t]+(src|dst|dest)([ \\t,]+(src|dst|dest)){0,2})?$' };

export const POLICIES = ['ACCEPT', 'REJECT', 'DROP'];

const BURST = { minimum: 0, maximum: 4294967295 };

/** Match fields rules, redirects and nat read alike. */
export const MATCH_MARK_RATE_TIME: Record<string, Field> = {
  mark: field(text(MARK), { description: 'Packet mark to match: `value[/mask]`, decimal or 0x hex; `!` negates.' }),
  limit: field(text(LIMIT), { description: 'Rate limit `N[/unit]`, unit a lower-case prefix of second (default), minute, hour or day.' }),
  limit_burst: field(integer(BURST), { description: 'Packets allowed above `limit` in a burst; 0 or unset uses the kernel default of 5.' }),
  start_date: field(text({ pattern: DATE }), { description: 'Match from this date on: `YYYY[-MM[-DD[Thh[:mm[:ss]]]]]`, years 1970-2038.' }),
  stop_date: field(text({ pattern: DATE }), { description: 'Match until this date, same format as `start_date`.' }),
  start_time: field(text({ pattern: `^${TIME}$` }), { description: 'Match from this time of day on: `hh[:mm[:ss]]`.' }),
  stop_time: field(text({ pattern: `^${TIME}$` }), { description: 'Match until this time of day: `hh[:mm[:ss]]`.' }),
  weekdays: field(text({ pattern: `^!?(${WEEKDAY})([ \\t]+(${WEEKDAY}))*$` }), {
    description: 'Days to match, space-separated in one string (`Mon Wed Fri`, any-case prefixes of the English names); `!` negates.',
  }),
};

export const COUNTER = field(boolean(FIREWALL4_BOOLEAN), { description: 'Count packets and bytes. Default true.' });

// The statements of the checks below, for the OpenAPI document: a client learns from them what a
// schema cannot say. Each takes the paths its check is given. Free of side effects, so that a write
// that loads the rules leaves them out.
const named = (paths: string[]) => paths.map((path) => `\`${path}\``).join(', ');
/*#__NO_SIDE_EFFECTS__*/
export const portProtocolCheck = (ports: string[]) => `${named(ports)} only with \`match.proto\` tcp and/or udp.`;
/*#__NO_SIDE_EFFECTS__*/
export const rangeCheck = (paths: string[]) => `A range in ${named(paths)} must not end before it starts.`;
/*#__NO_SIDE_EFFECTS__*/
export const dateOrderCheck = (group: string) => `\`${group}.stop_date\` must not be before \`${group}.start_date\`.`;
/*#__NO_SIDE_EFFECTS__*/
export const familyCheck = (family: string, addresses: string[]) => `\`${family}\` and the addresses of ${named(addresses)} must agree on one address family.`;
/*#__NO_SIDE_EFFECTS__*/
export const disabledZoneCheck = (paths: string[]) => `${named(paths)} must not name a disabled zone.`;
/*#__NO_SIDE_EFFECTS__*/
export const ipsetCheck = (path: string) => `\`${path}\` must name a declared firewall \`ipset\`.`;

/** Protocols lower-cased, as fw4 compares them; an absent proto reads []. */
export function protocols(body: JsonObject): string[] {
  return strings(body, 'match.proto').map(([, protocol]) => protocol.toLowerCase());
}

const PORT_PROTOCOLS = ['tcp', 'udp', 'tcpudp', '6', '17'];

/**
 * fw4 applies ports to tcp and udp only and silently drops them for any other protocol, so with
 * `all` and a port the rule would match every port. An absent proto is tcp and udp (rules,
 * redirects) or `all`, which nat alone rewrites to tcp and udp when ports are given.
 */
export function portProtocolErrors(body: JsonObject, ports: string[], options: { anyMeansTcpUdp?: boolean } = {}): FieldError[] {
  const list = protocols(body);
  if (list.every((protocol) => PORT_PROTOCOLS.includes(protocol))) return [];
  if (options.anyMeansTcpUdp && list.every((protocol) => ['all', 'any', '*'].includes(protocol))) return [];
  return ports
    .filter((path) => given(body, path))
    .map((path) => conflict(path, `${path} applies only to tcp and udp; firewall4 would drop it for ${list.join(' ')} and match every port`));
}

function addressBytes(address: string): number[] {
  if (!address.includes(':')) return address.split('.').map(Number);
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted ? `${address.slice(0, dotted.index)}${(+dotted[1] * 256 + +dotted[2]).toString(16)}:${(+dotted[3] * 256 + +dotted[4]).toString(16)}` : address;
  const [head, tail] = hex.split('::');
  const words = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const left = words(head);
  const right = words(tail);
  const all = tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((word) => [word >> 8, word & 255]);
}

function compareAddresses(a: string, b: string): number {
  const [left, right] = [addressBytes(a), addressBytes(b)];
  const index = left.findIndex((byte, i) => byte !== right[i]);
  return index === -1 ? 0 : left[index] - right[index];
}

/** Ranges that end before they start: fw4 skips such a port range, nft refuses such an address range. */
export function rangeErrors(body: JsonObject, paths: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const path of paths) {
    for (const [where, value] of strings(body, path)) {
      const plain = value.replace(/^!/, '');
      const ports = /^(\d+)[-:](\d+)$/.exec(plain);
      const addresses = /^([^-/]+)-([^-/]+)$/.exec(plain);
      const descending = ports ? Number(ports[1]) > Number(ports[2]) : !!addresses && compareAddresses(addresses[1], addresses[2]) > 0;
      if (descending) errors.push({ field: where, code: 'invalid_format', message: `${where}: the range ${value} ends before it starts` });
    }
  }
  return errors;
}

/** `meta time` refuses a date range that ends before it starts. */
export function dateOrderErrors(body: JsonObject, group: string): FieldError[] {
  const start = valueAt(body, `${group}.start_date`);
  const stop = valueAt(body, `${group}.stop_date`);
  if (typeof start !== 'string' || typeof stop !== 'string') return [];
  const stamp = (date: string) => date.split(/[-T:]/).map(Number).concat([0, 0, 0, 0, 0]).slice(0, 6);
  const [a, b] = [stamp(start), stamp(stop)];
  const index = a.findIndex((part, i) => part !== b[i]);
  return index !== -1 && a[index] > b[index] ? [conflict(`${group}.stop_date`, `${group}.stop_date is before ${group}.start_date`)] : [];
}

const FAMILY_NUMBER: Record<string, number> = { ipv4: 4, ipv6: 6 };

/** 4 or 6 when every literal address of a field is of that family, else 0. */
function addressFamily(body: JsonObject, path: string): number {
  const families = new Set(strings(body, path).map(([, address]) => (address.includes(':') ? 6 : 4)));
  return families.size === 1 ? [...families][0] : 0;
}

/**
 * fw4's infer_family: an explicit family and every address field restricted to one family must
 * agree, else fw4 skips the section.
 */
export function familyErrors(body: JsonObject, familyPath: string, addressPaths: string[]): FieldError[] {
  const errors: FieldError[] = [];
  const declared = valueAt(body, familyPath);
  let family = typeof declared === 'string' ? FAMILY_NUMBER[declared] ?? 0 : 0;
  let by = familyPath;
  for (const path of addressPaths) {
    const own = addressFamily(body, path);
    if (!own || own === family) continue;
    if (!family) {
      family = own;
      by = path;
      continue;
    }
    errors.push(conflict(path, `${path} is IPv${own} only but ${by} restricts the section to IPv${family}; firewall4 would skip it`));
  }
  return errors;
}

const FLAG = boolean(FIREWALL4_BOOLEAN).codec;

/** A disabled zone is unknown to fw4, which skips every section naming it. */
export function disabledZoneErrors(body: JsonObject, context: RuleContext, paths: string[]): FieldError[] {
  const zones = context.read('firewall').sections.filter((section) => section.type === 'zone');
  const errors: FieldError[] = [];
  for (const path of paths) {
    for (const [where, name] of strings(body, path)) {
      const named = zones.filter((zone) => optionText(zone.options.get('name')) === name);
      if (named.length && named.every((zone) => readOption(FLAG, zone.options.get('enabled')) === false)) {
        errors.push(conflict(where, `zone ${name} is disabled; firewall4 would skip this section`));
      }
    }
  }
  return errors;
}

/** fw4 skips a section whose set match names no declared `ipset`. */
export function ipsetErrors(body: JsonObject, context: RuleContext, path: string): FieldError[] {
  const value = valueAt(body, path);
  if (typeof value !== 'string') return [];
  const name = value.replace(/^!/, '').split(/[ \t]/)[0];
  const declared = context.read('firewall').sections.some((section) => section.type === 'ipset' && optionText(section.options.get('name')) === name);
  return declared ? [] : [conflict(path, `no firewall ipset named ${name}`)];
}
