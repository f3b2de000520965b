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

// The UCI section types behind the curated resources, keyed `<package>/<type>`. Wireguard peers
// have a type per interface (`wireguard_<ifname>`) and are recognised in curatedTargetOf.
const CURATED_SECTIONS: ReadonlyMap<string, Target> = new Map(
  (
    [
      ['network', 'interface', 'network', 'interfaces'],
      ['network', 'device', 'network', 'devices'],
      ['network', 'route', 'network', 'routes'],
      ['network', 'route6', 'network', 'routes'],
      ['network', 'rule', 'network', 'rules'],
      ['network', 'rule6', 'network', 'rules'],
      ['network', 'bridge-vlan', 'network', 'bridge_vlans'],
      ['wireless', 'wifi-device', 'wireless', 'devices'],
      ['wireless', 'wifi-iface', 'wireless', 'interfaces'],
      ['firewall', 'zone', 'firewall', 'zones'],
      ['firewall', 'rule', 'firewall', 'rules'],
      ['firewall', 'redirect', 'firewall', 'redirects'],
      ['firewall', 'nat', 'firewall', 'nat'],
      ['firewall', 'forwarding', 'firewall', 'forwardings'],
      ['firewall', 'defaults', 'firewall', 'defaults'],
      ['dhcp', 'host', 'dhcp', 'hosts'],
      ['dhcp', 'dhcp', 'dhcp', 'servers'],
      ['dhcp', 'dnsmasq', 'dhcp', 'dnsmasq'],
      ['dhcp', 'odhcpd', 'dhcp', 'odhcpd'],
      ['system', 'system', 'system', undefined],
      ['system', 'timeserver', 'system', 'timeservers'],
      ['dropbear', 'dropbear', 'dropbear', 'instances'],
      ['uhttpd', 'uhttpd', 'uhttpd', 'instances'],
      ['uhttpd', 'cert', 'uhttpd', 'certs'],
      ['unbound', 'unbound', 'unbound', 'server'],
      // unbound-uci-ext's own packages, /etc/config/unbound_srv and unbound_ext.
      ['unbound_srv', 'unbound_srv', 'unbound', 'srv'],
      ['unbound_ext', 'unbound_ext', 'unbound', 'ext'],
      ['sqm', 'queue', 'sqm', 'queues'],
      ['snmpd', 'agent', 'snmpd', 'agents'],
      ['snmpd', 'com2sec', 'snmpd', 'com2secs'],
      ['snmpd', 'group', 'snmpd', 'groups'],
      ['snmpd', 'access', 'snmpd', 'accesses'],
      ['snmpd', 'system', 'snmpd', 'system'],
      ['lldpd', 'lldpd', 'lldpd', 'config'],
      ['prometheus-node-exporter-lua', 'prometheus-node-exporter-lua', 'prometheus_node_exporter_lua', 'config'],
      ['vnstat', 'vnstat', 'vnstat', 'config'],
      ['mwan3', 'globals', 'mwan3', 'globals'],
      ['mwan3', 'interface', 'mwan3', 'interfaces'],
      ['mwan3', 'member', 'mwan3', 'members'],
      ['mwan3', 'policy', 'mwan3', 'policies'],
      ['mwan3', 'rule', 'mwan3', 'rules'],
      ['usteer', 'usteer', 'usteer', 'config'],
      ['openvpn', 'openvpn', 'openvpn', 'instances'],
    ] as const
  ).map(([pkg, type, domain, sub]): [string, Target] => [`${pkg}/${type}`, sub ? { domain, sub } : { domain }]),
);

/** Why the scope is malformed or outside the known scope tree, or undefined when it is valid. */
export function scopeProblem(text: string): string | undefined {
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
  if (subs === undefined) return `scope "${text}": unknown domain "${domain}"`;
  if (sub === undefined || sub === '*' || subs.includes(sub)) return undefined;
  return `scope "${text}": "${domain}" has no subresource "${sub}"`;
}

export function curatedTargetOf(pkg: string, sectionType: string): Target {
  if (pkg === 'network' && sectionType.startsWith('wireguard_')) return { domain: 'network', sub: 'wireguard_peers' };
  const curated = CURATED_SECTIONS.get(`${pkg}/${sectionType}`);
  if (curated !== undefined) return curated;
  for (const [key, target] of CURATED_SECTIONS) {
    if (key.startsWith(`${pkg}/`)) return { domain: target.domain };
  }
  return { domain: pkg };
}

/** Raw passthrough: both the raw tree and the curated tree for the section's real type must permit. */
export function decideRaw(scopes: readonly string[], pkg: string, sectionType: string, write: boolean): boolean {
  const parsed = parseAll(scopes);
  return (
    decideParsed(parsed, { domain: 'raw', sub: pkg }, write) &&
    decideParsed(parsed, curatedTargetOf(pkg, sectionType), write)
  );
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
function grantsStrictlyLess(smaller: readonly Scope[], larger: readonly Scope[]): boolean {
  let largerGrantsMore = false;
  for (const target of targetsDistinguishing([...smaller, ...larger])) {
    for (const write of [false, true]) {
      const bySmaller = decideParsed(smaller, target, write);
      const byLarger = decideParsed(larger, target, write);
      if (bySmaller && !byLarger) return false;
      if (byLarger && !bySmaller) largerGrantsMore = true;
    }
  }
  return largerGrantsMore;
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
    if (!parsed.ok || !grantsStrictlyLess([parsed.scope], callerScopes)) return false;
    requestedScopes.push(parsed.scope);
  }
  return grantsStrictlyLess(requestedScopes, callerScopes);
}
