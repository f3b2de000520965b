// Raw passthrough: any section of any configuration package, in the store's own names. A section
// reads as `{id, type, anonymous, options, redacted}`: `options` holds its options as libuci does
// (a list as an array of strings) but for the secrets the curated definitions mark, whose names
// `redacted` lists. The curated scope of a section's type guards it too (spec: Matching rules 3).
import { SERVICE_PACKAGE, TOKEN_TYPE } from '../auth/tokens.js';
import { requireScope, type Caller } from '../auth/gate.js';
import { decide, type Target as ScopeTarget } from '../auth/scopes.js';
import { RAW_PACKAGES } from '../generated/raw.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { isUnwritable, UNWRITABLE_MESSAGE } from '../http/text.js';
import { sectionIdErrors } from './section-id.js';
import type { Json, JsonObject, RawPackage } from '../resources/model.js';
import { isValidName, isWritableType, type UciSection, type UciValue } from '../uci/index.js';

// The service's own token sections: a raw read needs what GET /tokens needs, and never shows a salt or hash.
const SERVICE: RawPackage = { reload: [], types: { [TOKEN_TYPE]: ['wrtapi/tokens', 'salt', 'hash'] } };

// What a scope segment may hold: a package outside it could not be granted by name.
const PACKAGE = /^[A-Za-z0-9_-]+$/;
// A wireguard interface's name is its kernel device's, IFNAMSIZ less the NUL.
const WIREGUARD_ID_LENGTH = 15;
const MEMBERS = ['id', 'type', 'anonymous', 'options', 'redacted'];

function curatedPackage(pkg: string): RawPackage | undefined {
  return pkg === SERVICE_PACKAGE ? SERVICE : Object.prototype.hasOwnProperty.call(RAW_PACKAGES, pkg) ? RAW_PACKAGES[pkg] : undefined;
}

/** The curated resource a section of `pkg` and `type` belongs to: its path and its secret options. */
export function curatedType(pkg: string, type: string): { path: string; secrets: string[] } | undefined {
  const types = curatedPackage(pkg)?.types ?? {};
  const key = Object.keys(types).find((candidate) => (candidate.endsWith('*') ? type.startsWith(candidate.slice(0, -1)) : candidate === type));
  if (key === undefined) return undefined;
  const [path, ...secrets] = ([] as string[]).concat(types[key]);
  return { path, secrets };
}

/** The paths of the curated resources of `pkg`'s sections. */
export function curatedPaths(pkg: string): string[] {
  return [...new Set(Object.values(curatedPackage(pkg)?.types ?? {}).map((value) => ([] as string[]).concat(value)[0]))];
}

/**
 * The curated scope a section is also checked against (spec: Matching rules 3): its resource's, else
 * the bare domain of the package's resources (`firewall` for a firewall include, `unbound` for any
 * section of unbound_srv), else, for a package no resource serves, the package's own name (`luci`).
 */
export function curatedTarget(pkg: string, type: string): ScopeTarget {
  const curated = curatedType(pkg, type);
  if (curated) {
    const [domain, sub] = curated.path.split('/');
    return sub === undefined ? { domain } : { domain, sub };
  }
  return packageTarget(pkg);
}

/** The scope of a package as a whole: the bare domain of its resources, else its own name. */
export function packageTarget(pkg: string): ScopeTarget {
  const types = curatedPackage(pkg)?.types;
  return { domain: types ? ([] as string[]).concat(Object.values(types)[0])[0].split('/')[0] : pkg };
}

/** The init scripts a change of `pkg` reloads, and the package that installs them. */
export function rawReload(pkg: string, hasInitScript: (service: string) => boolean): { reload: string[]; provider?: string } {
  const curated = curatedPackage(pkg);
  if (!curated) return { reload: hasInitScript(pkg) ? [pkg] : [] };
  return { reload: curated.reload, provider: curated.provider };
}

/**
 * The sections of `pkg` whose curated scope the caller may read. A package no resource serves has one
 * scope for all its sections, its own name: without it the list is refused, not empty.
 */
export function readableSections(pkg: string, sections: UciSection[], caller: Caller): UciSection[] {
  if (!curatedPackage(pkg)) requireScope(caller, { domain: pkg }, false);
  return sections.filter((section) => decide(caller.token.scopes, curatedTarget(pkg, section.type), readsNeedRw(pkg)));
}

export function rawView(pkg: string, section: UciSection): JsonObject {
  const secrets = curatedType(pkg, section.type)?.secrets ?? [];
  const options: JsonObject = {};
  const redacted: string[] = [];
  for (const [name, value] of section.options) {
    if (secrets.includes(name)) redacted.push(name);
    else options[name] = value;
  }
  return { id: section.name, type: section.type, anonymous: section.anonymous, options, redacted };
}

function valueError(field: string, value: Json, nullable: boolean): FieldError | undefined {
  if (value === null && nullable) return undefined;
  const items = Array.isArray(value) ? value : [value];
  if (!items.every((item) => typeof item === 'string')) {
    return { field, code: 'invalid_type', message: `${field} must be a string or an array of strings${nullable ? ', or null to remove it' : ''}` };
  }
  if ((items as string[]).some(isUnwritable)) return { field, code: 'invalid_format', message: `${field} ${UNWRITABLE_MESSAGE}` };
  return undefined;
}

function isWireguardInterface(pkg: string, type: Json | undefined, options: Json | undefined): boolean {
  return pkg === 'network' && type === 'interface' && (options as JsonObject | undefined)?.proto === 'wireguard';
}

/**
 * The errors of a body of a section of `pkg`: `section` is the current section (a replace or
 * patch), absent on a create. `merge`: a merge patch, whose options may be null to remove them.
 */
export function rawBodyErrors(pkg: string, body: JsonObject, section: UciSection | undefined, merge = false): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of Object.keys(body)) if (!MEMBERS.includes(name)) errors.push({ field: name, code: 'unknown_field', message: `${name} is not a member of a raw section; options go in options` });
  const { id, type, anonymous, options } = body;
  if (!section) {
    if (type === undefined || type === null) errors.push({ field: 'type', code: 'required', message: 'type is required' });
    else if (typeof type !== 'string' || !isWritableType(type)) errors.push({ field: 'type', code: 'invalid_format', message: 'type must be printable ASCII without spaces, quotes, #, ; or \\' });
    if (id !== undefined && id !== null) errors.push(...sectionIdErrors(id, isWireguardInterface(pkg, type, options) ? WIREGUARD_ID_LENGTH : undefined));
    if (anonymous !== undefined && anonymous !== false) errors.push({ field: 'anonymous', code: 'conflict', message: 'a created section is named' });
  } else {
    if (type !== undefined && type !== section.type) errors.push({ field: 'type', code: 'conflict', message: `the section is of type ${section.type}; to change it, delete the section and create another` });
    if (anonymous !== undefined && anonymous !== section.anonymous) errors.push({ field: 'anonymous', code: 'conflict', message: 'whether a section is anonymous does not change' });
  }
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    errors.push({ field: 'options', code: 'invalid_type', message: 'options must be an object of option names' });
  } else {
    for (const [name, value] of Object.entries((options ?? {}) as JsonObject)) {
      if (!isValidName(name)) errors.push({ field: `options.${name}`, code: 'invalid_format', message: 'an option name holds only A-Z, a-z, 0-9 and _' });
      const error = valueError(`options.${name}`, value, merge);
      if (error) errors.push(error);
    }
  }
  return errors;
}

/**
 * Writes a checked body's options into a section. A replace drops the options the body omits but
 * keeps omitted secrets (a read sent back has none); a merge sets what it names and removes what it
 * names null. An empty string or list removes the option, as `uci set` of an empty value does.
 */
export function writeRawOptions(pkg: string, section: UciSection, options: JsonObject, merge: boolean): void {
  const secrets = curatedType(pkg, section.type)?.secrets ?? [];
  if (!merge) for (const name of [...section.options.keys()]) if (!(name in options) && !secrets.includes(name)) section.options.delete(name);
  for (const [name, value] of Object.entries(options)) {
    if (value === null || value === '' || (Array.isArray(value) && !value.length)) section.options.delete(name);
    else section.options.set(name, value as UciValue);
  }
}

/**
 * A raw path's package: one a scope can name, with a configuration file; the service's own package
 * is read-only through raw (tokens have their own endpoints).
 */
export function checkRawPackage(pkg: string, method: string, exists: boolean): void {
  if (!PACKAGE.test(pkg) || !exists) throw new ApiError(404, 'not_found', `No configuration package ${pkg}`);
  if (pkg === SERVICE_PACKAGE && method !== 'GET') {
    throw new ApiError(405, 'method_not_allowed', `${pkg} is read-only through raw; tokens are managed at /tokens`, { headers: { Allow: 'GET' } });
  }
}

/** Whether a raw request on a section of `pkg` needs `rw` of the curated scope even to read (tokens do). */
export function readsNeedRw(pkg: string): boolean {
  return pkg === SERVICE_PACKAGE;
}
