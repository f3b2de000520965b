export interface Address {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

export interface Cidr extends Address {
  prefix: number;
}

// As musl's inet_pton: exactly four decimal octets, no leading zeros (iproute2 would read
// `010` as octal, so refusing it removes the ambiguity).
const IPV4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

function parseIPv4(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (match === null) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function parseGroups(text: string): number[] | undefined {
  if (text === '') return [];
  const groups = text.split(':');
  return groups.every((group) => HEX_GROUP.test(group)) ? groups.map((group) => parseInt(group, 16)) : undefined;
}

function parseIPv6(text: string): number[] | undefined {
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  let hex = text;
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIPv4(last);
    if (v4 === undefined) return undefined;
    hex = `${text.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0]);
  const tail = halves.length === 2 ? parseGroups(halves[1]) : [];
  if (head === undefined || tail === undefined) return undefined;
  let groups: number[];
  if (halves.length === 1) {
    if (head.length !== 8) return undefined;
    groups = head;
  } else {
    // `::` stands for at least one zero group, as inet_pton reads `1:2:3:4:5:6:7::`.
    if (head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  const bytes: number[] = [];
  for (const group of groups) bytes.push(group >> 8, group & 0xff);
  return bytes;
}

/** A textual IPv4 or IPv6 address as inet_pton reads it (no zone id, no brackets). */
export function parseAddress(text: string): Address | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 4, bytes: v4 };
  const v6 = parseIPv6(text);
  return v6 === undefined ? undefined : { family: 6, bytes: v6 };
}

function maskHostBits(bytes: number[], prefix: number): number[] {
  return bytes.map((byte, i) => {
    const bitsKept = Math.min(8, Math.max(0, prefix - i * 8));
    return byte & (0xff00 >> bitsKept) & 0xff;
  });
}

/**
 * `<address>/<prefix>` or a bare address (a full-length prefix). Host bits below the prefix are
 * accepted and cleared, as netifd, `ip addr` and iptables take `192.168.1.5/24`: the entry then
 * stands for the network 192.168.1.0/24.
 */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const address = parseAddress(slash < 0 ? text : text.slice(0, slash));
  if (address === undefined) return undefined;
  const maxPrefix = address.family === 4 ? 32 : 128;
  if (slash < 0) return { ...address, prefix: maxPrefix };
  const prefixText = text.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > maxPrefix) return undefined;
  return { family: address.family, bytes: maskHostBits(address.bytes, prefix), prefix };
}

function isIPv4Mapped(address: Address): boolean {
  const b = address.bytes;
  return address.family === 6 && b.slice(0, 10).every((byte) => byte === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) becomes the IPv4 address it carries. */
function unmapped(address: Address): Address {
  return isIPv4Mapped(address) ? { family: 4, bytes: address.bytes.slice(12) } : address;
}

function contains(cidr: Cidr, address: Address): boolean {
  if (cidr.family !== address.family) return false;
  const masked = maskHostBits(address.bytes, cidr.prefix);
  return masked.every((byte, i) => byte === cidr.bytes[i]);
}

/**
 * Whether a caller address falls in one of the CIDRs. The caller is compared only with entries of
 * its own family, an IPv4-mapped caller counting as IPv4: `0.0.0.0/0` never admits an IPv6 caller
 * and `::/0` never an IPv4 one. Unparseable addresses and entries match nothing.
 */
export function addressInList(remote: string, cidrs: readonly string[]): boolean {
  const parsed = parseAddress(remote);
  if (parsed === undefined) return false;
  const caller = unmapped(parsed);
  return cidrs.some((text) => {
    const cidr = parseCidr(text);
    return cidr !== undefined && contains(cidr, caller);
  });
}

/** 127.0.0.0/8, ::1, and IPv4-mapped 127.0.0.0/8. */
export function isLoopback(remote: string): boolean {
  const parsed = parseAddress(remote);
  if (parsed === undefined) return false;
  const address = unmapped(parsed);
  if (address.family === 4) return address.bytes[0] === 127;
  return address.bytes.every((byte, i) => byte === (i === 15 ? 1 : 0));
}
