/**
 * JSON values as a merge patch (RFC 7396) and JSON Patch see them: equality, copies and members
 * that ignore the prototype. Nothing here mutates its arguments.
 */

export type JsonObject = Record<string, unknown>;

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const result = isObject(target) ? (cloneJson(target) as JsonObject) : {};
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete result[key];
    else setMember(result, key, applyMergePatch(member(result, key), value));
  }
  return result;
}

/** JSON equality: numbers by value, object members in any order, array items in order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => hasOwn(b, key) && jsonEqual(a[key], b[key]))
  );
}

export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) setMember(copy, key, cloneJson(value[key]));
  return copy;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

export function member(object: JsonObject, key: string): unknown {
  return hasOwn(object, key) ? object[key] : undefined;
}

// Assigning to "__proto__" would set the object's prototype instead of creating a member.
export function setMember(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
