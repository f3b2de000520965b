import type { Codec, Field, JsonSchema } from './model.js';

// The builders are marked free of side effects (`#__NO_SIDE_EFFECTS__`), so the bundler drops calls
// whose result nothing uses: a write loads a definition's rules without its field declarations.

/** A codec and the JSON schema of the values it writes. */
export interface Typed {
  codec: Codec;
  schema: JsonSchema;
}

/** A string option as is. */
/*#__NO_SIDE_EFFECTS__*/
export function text(schema: JsonSchema = {}): Typed {
  return { codec: { kind: 'text' }, schema: { type: 'string', ...schema } };
}

/**
 * An integer option; text that is not a decimal integer reads as null. With `c`, the text is read as
 * C's strtol(text, 0) reads it (netifd's INT32 attributes): `0x10` is 16 and `010` is 8. Writes are
 * decimal.
 */
/*#__NO_SIDE_EFFECTS__*/
export function integer(schema: { minimum?: number; maximum?: number } = {}, options: { c?: boolean } = {}): Typed {
  return { codec: { kind: 'integer', ...options }, schema: { type: 'integer', ...schema } };
}

/**
 * A number or a name, as a daemon that resolves names reads it (a routing table: `100` or `main`): a
 * decimal reads as an integer, any other text as itself. `name` is the schema of the text form,
 * which should leave out what the integer form spells. With `c`, the number is read as strtoul(text,
 * 0) reads it (netifd's table names: `0x10` is 16).
 */
/*#__NO_SIDE_EFFECTS__*/
export function integerOrName(range: { minimum?: number; maximum?: number }, name: JsonSchema, options: { c?: boolean } = {}): Typed {
  return { codec: { kind: 'integer', orText: true, ...options }, schema: { anyOf: [{ type: 'integer', ...range }, { type: 'string', ...name }] } };
}

/**
 * A list a client spells as one string of space-separated items, where the daemon splits what it
 * reads (an `option` of several words, or a UCI `list`, which reads joined by spaces). Writes one
 * `option`, its items separated by single spaces. With `joinedBy`, the string's items are separated
 * by it, for a daemon that reads a UCI `list` only and joins its items so (openvpn's append_list,
 * with `:`): written as a `list`, and a plain `option` reads as null.
 */
/*#__NO_SIDE_EFFECTS__*/
export function words(item: JsonSchema, joinedBy?: string): Typed {
  if (!joinedBy) return { codec: { kind: 'words' }, schema: spaceSeparated(item) };
  const one = `(?:${(item.pattern as string).slice(1, -1)})`;
  return { codec: { kind: 'words', joinedBy }, schema: { type: 'string', pattern: `^${one}(${joinedBy}${one})*$` } };
}

/**
 * A boolean option. Daemons disagree on spellings: firewall4 takes 1/on/true/yes and 0/off/false/no,
 * netifd reads an interface's `disabled` as true only for `1`. Without `falsy` every other value is
 * false; with it, a value in neither list reads as null, or as `otherwise` for a daemon that drops
 * such a value and applies its default (netifd's BOOL attributes). With `truthyPrefix`, any value
 * starting with it is true too (a path, where a script tests only the first character). Writes are
 * `1`/`0`, or the two values of `spelled`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function boolean(spelling: { truthy: string[]; falsy?: string[]; otherwise?: boolean; truthyPrefix?: string; spelled?: [string, string] }): Typed {
  return { codec: { kind: 'boolean', ...spelling }, schema: { type: 'boolean' } };
}

export const FIREWALL4_BOOLEAN = { truthy: ['1', 'on', 'true', 'yes'], falsy: ['0', 'off', 'false', 'no'] };

/**
 * Init scripts' `config_get_bool` (lib/functions.sh get_bool), case-sensitive; any other value takes
 * the script's default, so it reads as null. procd's validate_data `bool` exports the same spellings.
 */
export const SHELL_BOOLEAN = { truthy: ['1', 'on', 'true', 'yes', 'enabled'], falsy: ['0', 'off', 'false', 'no', 'disabled'] };

/**
 * A boolean as libuci's uci_to_blob gives it to a daemon (odhcpd, netifd's blob attributes): only
 * `1`/`true` and `0`/`false`; any other value is dropped and the daemon's default applies.
 */
export const UCI_BLOB_BOOLEAN = { truthy: ['1', 'true'], falsy: ['0', 'false'] };

/**
 * One of fixed values. firewall4 matches enums case-insensitively by prefix (`acc` is ACCEPT), so
 * with `prefixes` a read resolves such a value to its canonical spelling; writes are canonical.
 */
/*#__NO_SIDE_EFFECTS__*/
export function choice(values: string[], options: { prefixes?: boolean } = {}): Typed {
  return { codec: { kind: 'choice', values, ...options }, schema: { type: 'string', enum: values } };
}

/**
 * A list: a UCI `list`, or an `option` holding space-separated items, which daemons split. It
 * always reads as an array. Writes are UCI lists; with `acceptsString` a space-separated string is
 * still accepted as the legacy write form. `listOnly`: the daemon reads a UCI `list` only (shell
 * config_list_foreach), so a plain `option` reads as null. `singleAsOption`: one item is written as
 * an `option`, for a daemon that reads an option only where a single value matters (odhcpd's host
 * `mac`). `joined`: the items are written as one space-separated `option`, for a daemon that reads a
 * string and splits it itself (netifd's proto handlers skip a UCI list given for a string); a string
 * `joined` is the separator instead, which also splits an `option` read (snmpd's commas).
 * `whole`: the daemon takes a plain `option` as one item, blanks included, as it takes each item
 * of a `list` (the openvpn init script splits config_get's text on newlines only).
 */
/*#__NO_SIDE_EFFECTS__*/
export function list(item: JsonSchema, options: { acceptsString?: boolean; listOnly?: boolean; singleAsOption?: boolean; joined?: boolean | string; whole?: boolean } = {}): Typed {
  const array: JsonSchema = { type: 'array', items: { type: 'string', ...item } };
  const { acceptsString, ...codec } = options;
  return { codec: { kind: 'list', ...codec }, schema: acceptsString ? { anyOf: [array, spaceSeparated(item)] } : array };
}

/**
 * The legacy string form of a list: items separated by whitespace, as the write splits them, each
 * held to the item's anchored pattern (an empty string clears the list). Without it the string form
 * would take any item the array form refuses.
 */
/*#__NO_SIDE_EFFECTS__*/
function spaceSeparated(item: JsonSchema): JsonSchema {
  const source = item.pattern;
  if (typeof source !== 'string') return { type: 'string' };
  if (!/^\^[^]*[^\\]\$$/.test(source)) throw new Error(`list: acceptsString needs an item pattern anchored with ^ and $: ${source}`);
  const one = `(?:${source.slice(1, -1)})`;
  return { type: 'string', pattern: `^\\s*(${one}(\\s+${one})*)?\\s*$` };
}

/**
 * firewall4's address family (parse_family): `any`, `all` and `*` mean both families, `inet` or any
 * value containing 4 means IPv4, else any value containing 6 means IPv6. Reads and writes the
 * canonical `any`, `ipv4` or `ipv6`; any other value reads as null.
 */
/*#__NO_SIDE_EFFECTS__*/
export function firewall4Family(): Typed {
  return { codec: { kind: 'firewall4Family' }, schema: { type: 'string', enum: ['any', 'ipv4', 'ipv6'] } };
}

/**
 * A flag that may instead carry a string, as firewall4 reads a rule's `log`: a boolean spelling
 * reads as true or false, any other value as the string itself. Booleans write as `1`/`0`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function flagOrText(spelling: { truthy: string[]; falsy: string[] }, schema: JsonSchema = {}): Typed {
  return { codec: { kind: 'flagOrText', ...spelling }, schema: { anyOf: [{ type: 'boolean' }, { type: 'string', ...schema }] } };
}

/*#__NO_SIDE_EFFECTS__*/
export function field(typed: Typed, options: Omit<Field, 'codec' | 'schema'> = {}): Field {
  // The document states a field's default as JSON Schema's `default`, which only describes.
  return options.default === undefined ? { ...typed, ...options } : { ...typed, schema: { ...typed.schema, default: options.default }, ...options };
}
