import type { Codec, Field, Json, JsonSchema } from './model.js';

const writeText = (value: Json) => (value === null ? undefined : String(value));

/**
 * A codec of one `option`. UCI also lets a `list` stand there, which daemons refuse (firewall4
 * skips such a section); it reads as null, like every value `readText` cannot represent.
 */
function scalar(schema: JsonSchema, readText: (text: string) => Json, write: Codec['write'] = writeText): Codec {
  return {
    schema,
    read: (value) => (value === undefined ? undefined : typeof value === 'string' ? readText(value) : null),
    write,
  };
}

/** A string option as is. */
export function text(schema: JsonSchema = {}): Codec {
  return scalar({ type: 'string', ...schema }, (value) => value);
}

/** An integer option; text that is not a decimal integer reads as null. */
export function integer(schema: { minimum?: number; maximum?: number } = {}): Codec {
  return scalar({ type: 'integer', ...schema }, (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : null));
}

/**
 * A boolean option. Daemons disagree on spellings: firewall4 takes 1/on/true/yes and 0/off/false/no,
 * netifd reads an interface's `disabled` as true only for `1`. Without `falsy` every other value is
 * false; with it, a value in neither list reads as null. Writes are always `1`/`0`.
 */
export function boolean(spelling: { truthy: string[]; falsy?: string[] }): Codec {
  return scalar(
    { type: 'boolean' },
    (text) => (spelling.truthy.includes(text) ? true : !spelling.falsy || spelling.falsy.includes(text) ? false : null),
    (value) => (value === null ? undefined : value ? '1' : '0'),
  );
}

export const FIREWALL4_BOOLEAN = { truthy: ['1', 'on', 'true', 'yes'], falsy: ['0', 'off', 'false', 'no'] };

/**
 * One of fixed values. firewall4 matches enums case-insensitively by prefix (`acc` is ACCEPT), so
 * with `prefixes` a read resolves such a value to its canonical spelling; writes are canonical.
 */
export function choice(values: string[], options: { prefixes?: boolean } = {}): Codec {
  return scalar({ type: 'string', enum: values }, (text) => {
    if (values.includes(text)) return text;
    if (!options.prefixes) return null;
    const lower = text.toLowerCase();
    return values.find((candidate) => candidate.toLowerCase().startsWith(lower)) ?? null;
  });
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
  return scalar({ type: 'string', enum: ['any', 'ipv4', 'ipv6'] }, (text) => {
    if (text === 'any' || text === 'all' || text === '*') return 'any';
    if (text === 'inet' || text.includes('4')) return 'ipv4';
    return text.includes('6') ? 'ipv6' : null;
  });
}

/**
 * A flag that may instead carry a string, as firewall4 reads a rule's `log`: a boolean spelling
 * reads as true or false, any other value as the string itself. Booleans write as `1`/`0`.
 */
export function flagOrText(spelling: { truthy: string[]; falsy: string[] }, schema: JsonSchema = {}): Codec {
  return scalar(
    { anyOf: [{ type: 'boolean' }, { type: 'string', ...schema }] },
    (text) => (spelling.truthy.includes(text) ? true : spelling.falsy.includes(text) ? false : text),
    (value) => (value === null ? undefined : typeof value === 'boolean' ? (value ? '1' : '0') : String(value)),
  );
}

export function field(codec: Codec, options: Omit<Field, 'codec'> = {}): Field {
  return { codec, ...options };
}
