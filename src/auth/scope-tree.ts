import { decideParsed, parseAll, parseScope, type Scope, type Target } from './scopes.js';

export const SCOPE_TREE: ReadonlyMap<string, readonly string[]> = new Map([
  ['network', ['interfaces', 'devices', 'routes', 'rules', 'bridge_vlans', 'wireguard_peers']],
  ['wireless', ['devices', 'interfaces']],
  ['firewall', ['zones', 'rules', 'redirects', 'nat', 'forwardings', 'defaults']],
  ['dhcp', ['hosts', 'leases', 'leases6', 'servers', 'dnsmasq', 'odhcpd']],
  ['system', ['timeservers', 'password', 'authorized_keys']],
  ['dropbear', ['instances']],
  ['uhttpd', ['instances', 'certs']],
  ['unbound', ['server', 'srv', 'ext']],
  ['sqm', ['queues']],
  ['snmpd', ['agents', 'com2secs', 'groups', 'accesses', 'system']],
  ['lldpd', ['config']],
  ['prometheus_node_exporter_lua', ['config']],
  ['vnstat', ['config']],
  ['mwan3', ['globals', 'interfaces', 'members', 'policies', 'rules']],
  ['usteer', ['config']],
  ['openvpn', ['instances']],
  ['packages', ['installed', 'feeds']],
  ['wrtapi', ['tokens', 'metrics', 'diagnostics']],
]);

/**
 * Why the scope is malformed or outside the known scope tree, or undefined when it is valid. A domain
 * outside the curated tree is a configuration package's own scope (`luci:rw`), which guards its raw
 * sections (spec: Matching rules 3): valid as a whole domain, when `isPackage` knows the package.
 */
export function scopeProblem(text: string, isPackage: (name: string) => boolean): string | undefined {
  const parsed = parseScope(text);
  if (!parsed.ok) return parsed.reason;
  const [domain, sub] = parsed.scope.path;
  if (domain === '*') {
    if (sub === undefined || sub === '*') return undefined;
    const someDomainHasIt = [...SCOPE_TREE.values()].some((subs) => subs.includes(sub));
    return someDomainHasIt ? undefined : `scope "${text}": no domain has a subresource "${sub}"`;
  }
  if (domain === 'raw') return undefined;
  const subs = SCOPE_TREE.get(domain);
  if (subs === undefined) {
    if (!isPackage(domain)) return `scope "${text}": unknown domain "${domain}", and no configuration package of that name`;
    return sub === undefined ? undefined : `scope "${text}": the package ${domain} has no subresources; its scope is ${domain}:${parsed.scope.access}`;
  }
  if (sub === undefined || sub === '*' || subs.includes(sub)) return undefined;
  return `scope "${text}": "${domain}" has no subresource "${sub}"`;
}

// Stands for every domain or subresource name that no compared scope spells out: matching only
// tests a segment for equality or `*`, so all such names are decided alike.
const ANY_OTHER_NAME = '';

function targetsDistinguishing(scopes: readonly Scope[]): Target[] {
  const domains = new Set([ANY_OTHER_NAME]);
  const subs = new Set([ANY_OTHER_NAME]);
  for (const { path } of scopes) {
    if (path[0] !== '*') domains.add(path[0]);
    if (path.length > 1 && path[1] !== '*') subs.add(path[1]);
  }
  const targets: Target[] = [];
  for (const domain of domains) {
    targets.push({ domain });
    for (const sub of subs) targets.push({ domain, sub });
  }
  return targets;
}

// The universe is open (any package under raw, future domains and subresources), so a scope
// grants whatever its matching could ever permit, not only what today's tree lists.
function grants(smaller: readonly Scope[], larger: readonly Scope[], strictlyLess: boolean): boolean {
  let largerGrantsMore = false;
  for (const target of targetsDistinguishing([...smaller, ...larger])) {
    for (const write of [false, true]) {
      const bySmaller = decideParsed(smaller, target, write);
      const byLarger = decideParsed(larger, target, write);
      if (bySmaller && !byLarger) return false;
      if (byLarger && !bySmaller) largerGrantsMore = true;
    }
  }
  return largerGrantsMore || !strictlyLess;
}

// POST /tokens. The spec says both "each a strict subset of the caller's" (endpoint table) and
// "the requested scopes ... a strict subset of the caller's" (Authentication), so both must hold:
// each requested scope, taken alone, and the requested set as a whole, permit nothing the caller's
// set does not and strictly less than it. "Permits" is the matching rules' verdict, for reads and
// writes, on every target. Equality is refused: a token cannot mint its equal (so `*:rw` is minted
// only by the CLI), and `*:rw` + `firewall:ro` cannot be requested by a `*:rw` caller because
// `*:rw` alone is not strictly less, although the pair is.
export function mayMint(requested: readonly string[], caller: readonly string[]): boolean {
  const callerScopes = parseAll(caller);
  const requestedScopes: Scope[] = [];
  for (const text of requested) {
    const parsed = parseScope(text);
    if (!parsed.ok || !grants([parsed.scope], callerScopes, true)) return false;
    requestedScopes.push(parsed.scope);
  }
  return grants(requestedScopes, callerScopes, true);
}

/**
 * DELETE /tokens/{name}: a caller may revoke a token that permits nothing its own scopes do not, so
 * a token operator holding `wrtapi:tokens:rw` and what it delegates cannot revoke an admin's token.
 */
export function mayRevoke(revoked: readonly string[], caller: readonly string[]): boolean {
  return grants(parseAll(revoked), parseAll(caller), false);
}
