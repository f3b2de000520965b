export type Access = 'rw' | 'ro';

export interface Scope {
  /** One or two segments: `[domain]` or `[domain, subresource]`; `*` stands for any segment. */
  path: string[];
  access: Access;
}

/** What a request touches: a curated resource, `{ domain: 'system' }` for the system singleton, or `{ domain: 'raw', sub: <package> }`. */
export interface Target {
  domain: string;
  sub?: string;
}

/** What a route asks of its caller: nothing, any valid token, or a scope on its target. */
export type RouteAccess = 'open' | 'token' | ScopedAccess;

/** A target whose `sub` is `:<name>` takes it from the path's parameter (`raw:<package>`); `readsNeedRw` asks rw of reads too. */
export interface ScopedAccess {
  target: Target;
  readsNeedRw?: true;
}

/** `firewall:rules`, or `system` for a bare domain: how a target is named in scopes and diagnostics. */
export function targetName(target: Target): string {
  return target.sub === undefined ? target.domain : `${target.domain}:${target.sub}`;
}

export type ParsedScope = { ok: true; scope: Scope } | { ok: false; reason: string };

// Narrower than libuci, which takes any printable character in a package name; real package
// names, domains and subresources all fit, and `:` and `*` stay unambiguous.
const SEGMENT = /^[A-Za-z0-9_-]+$/;

export function parseScope(text: string): ParsedScope {
  const parts = text.split(':');
  const access = parts.pop();
  if (access !== 'rw' && access !== 'ro') return { ok: false, reason: `scope "${text}" must end in :rw or :ro` };
  if (parts.length === 0) return { ok: false, reason: `scope "${text}" needs a domain before :${access}` };
  if (parts.length > 2) {
    return { ok: false, reason: `scope "${text}" has more than three segments (<domain>:<subresource>:<rw|ro>)` };
  }
  const bad = parts.find((segment) => segment !== '*' && !SEGMENT.test(segment));
  if (bad !== undefined) return { ok: false, reason: `scope "${text}" has an invalid segment "${bad}"` };
  return { ok: true, scope: { path: parts, access } };
}

// A scope's segments must equal the target's leading segments (or be `*`). So a one-segment scope
// covers the bare domain and every subresource under it (`firewall:rw`, `system:rw` also reaching
// the /system singleton), while `firewall:*:rw` covers every firewall subresource but not the bare
// domain; that bare domain is what raw access to an uncurated firewall section type is checked on.
function matches(scope: Scope, target: Target): boolean {
  const targetPath = target.sub === undefined ? [target.domain] : [target.domain, target.sub];
  if (scope.path.length > targetPath.length) return false;
  return scope.path.every((segment, i) => segment === '*' || segment === targetPath[i]);
}

// Deeper beats shallower; at equal depth the first position where one scope is exact and the
// other a wildcard decides (`firewall:*` beats `*:rules`); then rw beats ro.
function outranks(a: Scope, b: Scope): boolean {
  if (a.path.length !== b.path.length) return a.path.length > b.path.length;
  for (let i = 0; i < a.path.length; i++) {
    const aExact = a.path[i] !== '*';
    if (aExact !== (b.path[i] !== '*')) return aExact;
  }
  return a.access === 'rw' && b.access === 'ro';
}

export function decideParsed(scopes: readonly Scope[], target: Target, write: boolean): boolean {
  let deciding: Scope | undefined;
  for (const scope of scopes) {
    if (matches(scope, target) && (deciding === undefined || outranks(scope, deciding))) deciding = scope;
  }
  return deciding !== undefined && (!write || deciding.access === 'rw');
}

export function parseAll(texts: readonly string[]): Scope[] {
  const scopes: Scope[] = [];
  for (const text of texts) {
    const parsed = parseScope(text);
    if (parsed.ok) scopes.push(parsed.scope);
  }
  return scopes;
}

/** Whether the scopes permit a read (write=false) or a write of the target. Malformed scopes match nothing. */
export function decide(scopes: readonly string[], target: Target, write: boolean): boolean {
  return decideParsed(parseAll(scopes), target, write);
}

/** The curated target that guards a raw section: its curated resource, else the bare domain of its package. */
