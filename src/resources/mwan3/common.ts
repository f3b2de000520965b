// What the mwan3 resources share, as mwan3 2.11.16 (openwrt/packages openwrt-24.10, net/mwan3/files)
// reads its configuration: the firewall mark bits, the names it turns into iptables chains, address families.

import type { FieldError } from '../../http/errors.js';
import type { UciPackage } from '../../uci/index.js';
import { IPV4, IPV6, PREFIX4, PREFIX6 } from '../addresses.js';
import { conflict, optionText, outOfRange, strings } from '../checks.js';
import type { JsonObject } from '../model.js';

export const ADDRESS4 = `${IPV4}(/${PREFIX4})?`;
export const ADDRESS6 = `${IPV6}(/${PREFIX6})?`;

/** The family an address or `addr/prefix` is of; undefined for a host name. */
export function familyOf(address: string): 'ipv4' | 'ipv6' | undefined {
  return address.includes(':') ? 'ipv6' : /^[0-9./]+$/.test(address) ? 'ipv4' : undefined;
}

/**
 * Every address of these fields (comma-separated lists too) must be of `family`, when it names one,
 * and all of one family: mwan3 skips an address of the other family (mwan3.sh's IPv4/IPv6 greps).
 */
export function familyErrors(body: JsonObject, family: unknown, paths: string[]): FieldError[] {
  let seen = family === 'ipv4' || family === 'ipv6' ? family : undefined;
  const errors: FieldError[] = [];
  for (const path of paths) {
    for (const [where, value] of strings(body, path)) {
      const items = value.split(',');
      const of = familyOf(items[0]);
      if (!of) continue;
      if (items.some((item) => familyOf(item) !== of)) errors.push(conflict(where, `${where} mixes IPv4 and IPv6`));
      else if (seen && of !== seen) errors.push(conflict(where, `${value} is not ${seen}; mwan3 would never apply it`));
      else seen = of;
    }
  }
  return errors;
}

/**
 * The mark bits of `globals` (common.sh mwan3_init: shell arithmetic, default 0x3F00), and how many
 * interfaces they number: mwan3 gives each interface section, enabled or not, an id in file order,
 * and keeps the top three values of the bits for its default, unreachable and blackhole marks.
 */
export function interfaceRoom(mask: string | undefined): number | undefined {
  const value = mask === undefined ? 0x3f00 : Number(mask);
  if (!Number.isInteger(value) || value < 1 || value > 0xffffffff) return undefined;
  let bits = 0;
  for (let rest = value; rest; rest = Math.floor(rest / 2)) bits += rest % 2;
  return 2 ** bits - 4;
}

/** The mask mwan3 reads: `globals` is read by its section name. */
export function maskOf(model: UciPackage): string | undefined {
  return optionText(model.sections.find((section) => section.name === 'globals')?.options.get('mmx_mask'));
}

export function interfaceCount(model: UciPackage): number {
  return model.sections.filter((section) => section.type === 'interface').length;
}

/** mwan3 names iptables chains (at most 28 characters) and ipsets after policies, rules and interfaces. */
export function idLengthErrors(id: string | undefined, max: number, why: string): FieldError[] {
  return id !== undefined && id.length > max ? [outOfRange('id', `id is at most ${max} characters: ${why}`)] : [];
}

/** A policy the rules' `use_policy` names without a section. */
export const BUILTIN_POLICIES = ['default', 'unreachable', 'blackhole'];
