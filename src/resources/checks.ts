// What the cross-field rules of every domain say with: the strings a field holds, whether one is
// given, and the field errors they return.
import type { FieldError } from '../http/errors.js';
import type { UciValue } from '../uci/index.js';
import { valueAt, type JsonObject } from './model.js';

/** The strings a scalar or list field holds, with the path of each. */
export function strings(body: JsonObject, path: string): [string, string][] {
  const value = valueAt(body, path);
  if (typeof value === 'string') return [[path, value]];
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index): [string, string][] => (typeof item === 'string' ? [[`${path}[${index}]`, item]] : []));
}

/**
 * Whether a field holds a value: not absent, null or an empty list; a group (`match`) when one of
 * its fields does, not counting the `has_<secret>` flags a read carries.
 */
export function given(body: JsonObject, path: string): boolean {
  const value = valueAt(body, path);
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return false;
  return typeof value !== 'object' || Array.isArray(value) || Object.keys(value).some((name) => !name.startsWith('has_') && given(value, name));
}

export const required = (field: string, message: string): FieldError => ({ field, code: 'required', message });

export const conflict = (field: string, message: string): FieldError => ({ field, code: 'conflict', message });
export const outOfRange = (field: string, message: string): FieldError => ({ field, code: 'out_of_range', message });

/** An option's text; undefined for a list or an absent option. */
export function optionText(value: UciValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A string's length in UTF-8 bytes: what the kernel and shell scripts count. */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
