// The run-time half of the codecs: reads and writes see only these, never the codec factories.
import type { Codec, Json } from './model.js';
import type { UciValue } from '../uci/index.js';

function readScalar(codec: Codec, text: string): Json {
  switch (codec.kind) {
    case 'integer': {
      if (!codec.c) return /^-?\d+$/.test(text.trim()) ? Number(text) : codec.orText ? text : null;
      // strtol(text, 0): 0x hex, a leading 0 octal, leading blanks and a sign, nothing after.
      const match = /^\s*([-+]?)(0[xX][0-9A-Fa-f]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
      if (!match) return codec.orText ? text : null;
      const digits = match[2];
      const value = /^0[xX]/.test(digits) ? parseInt(digits, 16) : digits.length > 1 && digits[0] === '0' ? parseInt(digits, 8) : Number(digits);
      return match[1] === '-' ? -value : value;
    }
    case 'boolean':
      if (codec.truthy.includes(text) || (codec.truthyPrefix !== undefined && text.startsWith(codec.truthyPrefix))) return true;
      return !codec.falsy || codec.falsy.includes(text) ? false : codec.otherwise ?? null;
    case 'flagOrText':
      return codec.truthy.includes(text) ? true : codec.falsy.includes(text) ? false : text;
    case 'choice': {
      if (codec.values.includes(text)) return text;
      if (!codec.prefixes) return null;
      const lower = text.toLowerCase();
      return codec.values.find((candidate) => candidate.toLowerCase().startsWith(lower)) ?? null;
    }
    case 'firewall4Family':
      if (text === 'any' || text === 'all' || text === '*') return 'any';
      if (text === 'inet' || text.includes('4')) return 'ipv4';
      return text.includes('6') ? 'ipv6' : null;
    default:
      return text;
  }
}

/**
 * The JSON value of an option; undefined when the option is absent and the field is omitted. It
 * never fails: UCI also lets a `list` stand where daemons want one `option` (firewall4 skips such a
 * section), and that, like every value a codec cannot represent, reads as null.
 */
export function readOption(codec: Codec, value: UciValue | undefined): Json | undefined {
  if (codec.kind === 'list') {
    if (value === undefined) return [];
    if (typeof value !== 'string') return value;
    if (codec.whole) return [value];
    return codec.listOnly ? null : value.split(typeof codec.joined === 'string' ? codec.joined : /\s+/).filter(Boolean);
  }
  if (value === undefined) return undefined;
  if (codec.kind === 'words') {
    // With `joinedBy` the daemon reads a UCI list only.
    return typeof value === 'string' && codec.joinedBy ? null : (typeof value === 'string' ? value.split(/\s+/) : value).filter(Boolean).join(codec.joinedBy ?? ' ');
  }
  return typeof value === 'string' ? readScalar(codec, value) : null;
}

/** The option for a schema-valid JSON value; undefined removes it. */
export function writeOption(codec: Codec, value: Json): UciValue | undefined {
  if (codec.kind === 'list') {
    const items = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : ((value ?? []) as Json[]).map(String);
    if (!items.length) return undefined;
    if (codec.joined) return items.join(codec.joined === true ? ' ' : codec.joined);
    return codec.singleAsOption && items.length === 1 ? items[0] : items;
  }
  if (value === null) return undefined;
  if (codec.kind === 'words') {
    const items = (value as string).split(codec.joinedBy ?? /\s+/).filter(Boolean);
    if (!items.length) return undefined;
    return codec.joinedBy ? items : items.join(' ');
  }
  if (typeof value !== 'boolean') return String(value);
  return codec.kind === 'boolean' && codec.spelled ? codec.spelled[value ? 0 : 1] : value ? '1' : '0';
}
