import type { UciValue } from '../uci/index.js';
import type { Codec, Field, Json, JsonSchema } from './model.js';

function scalar(value: UciValue | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.join(' ');
}

/** A string option as is. */
export function text(schema: JsonSchema = {}): Codec {
  return {
    schema: { type: 'string', ...schema },
    read: (value) => scalar(value),
    write: (value) => (value === null ? undefined : String(value)),
  };
}

/** An integer option; text that is not a decimal integer reads as null. */
export function integer(schema: { minimum?: number; maximum?: number } = {}): Codec {
  return {
    schema: { type: 'integer', ...schema },
    read(value) {
      const text = scalar(value);
      if (text === undefined) return undefined;
      return /^-?\d+$/.test(text.trim()) ? Number(text) : null;
    },
    write: (value) => (value === null ? undefined : String(value)),
  };
}

/**
 * A boolean option. Daemons disagree on spellings: firewall4 takes 1/on/true/yes and 0/off/false/no,
 * netifd reads an interface's `disabled` as true only for `1`. Without `falsy` every other value is
 * false; with it, a value in neither list reads as null. Writes are always `1`/`0`.
 */
export function boolean(spelling: { truthy: string[]; falsy?: string[] }): Codec {
  return {
    schema: { type: 'boolean' },
    read(value) {
      const text = scalar(value);
      if (text === undefined) return undefined;
      if (spelling.truthy.includes(text)) return true;
      return !spelling.falsy || spelling.falsy.includes(text) ? false : null;
    },
    write: (value) => (value === null ? undefined : value ? '1' : '0'),
  };
}

export const FIREWALL4_BOOLEAN = { truthy: ['1', 'on', 'true', 'yes'], falsy: ['0', 'off', 'false', 'no'] };

/**
 * One of fixed values. firewall4 matches enums case-insensitively by prefix (`acc` is ACCEPT), so
 * with `prefixes` a read resolves such a value to its canonical spelling; writes are canonical.
 */
export function choice(values: string[], options: { prefixes?: boolean } = {}): Codec {
  return {
    schema: { type: 'string', enum: values },
    read(value) {
      const text = scalar(value);
      if (text === undefined) return undefined;
      if (values.includes(text)) return text;
      if (!options.prefixes) return null;
      const lower = text.toLowerCase();
      return values.find((candidate) => candidate.toLowerCase().startsWith(lower)) ?? null;
    },
    write: (value) => (value === null ? undefined : String(value)),
  };
}

/**
 * A list: a UCI `list`, or an `option` holding space-separated items, which daemons split. It
 * always reads as an array. Writes are UCI lists; with `acceptsString` a space-separated string is
 * still accepted as the legacy write form.
 */
export function list(item: JsonSchema, options: { acceptsString?: boolean } = {}): Codec {
  const array: JsonSchema = { type: 'array', items: { type: 'string', ...item } };
  return {
    schema: options.acceptsString ? { anyOf: [array, { type: 'string' }] } : array,
    read(value) {
      if (value === undefined) return [];
      return typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
    },
    write(value) {
      const items = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : ((value ?? []) as Json[]).map(String);
      return items.length ? items : undefined;
    },
  };
}

/**
 * firewall4's address family (parse_family): `any`, `all` and `*` mean both families, `inet` or any
 * value containing 4 means IPv4, else any value containing 6 means IPv6. Reads and writes the
 * canonical `any`, `ipv4` or `ipv6`; any other value reads as null.
 */
export function firewall4Family(): Codec {
  return {
    schema: { type: 'string', enum: ['any', 'ipv4', 'ipv6'] },
    read(value) {
      const text = scalar(value);
      if (text === undefined) return undefined;
      if (text === 'any' || text === 'all' || text === '*') return 'any';
      if (text === 'inet' || text.includes('4')) return 'ipv4';
      return text.includes('6') ? 'ipv6' : null;
    },
    write: (value) => (value === null ? undefined : String(value)),
  };
}

/**
 * A flag that may instead carry a string, as firewall4 reads a rule's `log`: a boolean spelling
 * reads as true or false, any other value as the string itself. Booleans write as `1`/`0`.
 */
export function flagOrText(spelling: { truthy: string[]; falsy: string[] }, schema: JsonSchema = {}): Codec {
  return {
    schema: { anyOf: [{ type: 'boolean' }, { type: 'string', ...schema }] },
    read(value) {
      const text = scalar(value);
      if (text === undefined) return undefined;
      if (spelling.truthy.includes(text)) return true;
      return spelling.falsy.includes(text) ? false : text;
    },
    write: (value) => (value === null ? undefined : typeof value === 'boolean' ? (value ? '1' : '0') : String(value)),
  };
}

export function field(codec: Codec, options: Omit<Field, 'codec'> = {}): Field {
  return { codec, ...options };
}
