import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { curatedTargetOf, decideRaw, mayMint, SCOPE_TREE, scopeProblem } from '../../src/auth/scope-tree.js';
import { decide, parseScope } from '../../src/auth/scopes.js';

const READ = false;
const WRITE = true;
const firewallRule = { domain: 'firewall', sub: 'rules' };

test('parseScope splits segments and access', () => {
  assert.equal(parseScope('firewall:rules:rw'), { ok: true, scope: { path: ['firewall', 'rules'], access: 'rw' } });
  assert.equal(parseScope('*:ro'), { ok: true, scope: { path: ['*'], access: 'ro' } });
  assert.equal(parseScope('raw:prometheus-node-exporter-lua:ro'), {
    ok: true,
    scope: { path: ['raw', 'prometheus-node-exporter-lua'], access: 'ro' },
  });
});

test('parseScope rejects malformed scopes with a reason', () => {
  for (const text of [
    '',
    'rw',
    'firewall',
    'firewall:rules',
    'firewall:rules:wr',
    'firewall:rules:RW',
    'firewall:rules:x:rw',
    ':rw',
    'firewall::rw',
    'fire*:rw',
    'firewall:ru les:rw',
    'firewall:rules:rw ',
    'firewall/rules:rw',
  ]) {
    const parsed = parseScope(text);
    assert.is(parsed.ok, false, text);
    if (!parsed.ok) assert.ok(parsed.reason.includes(`"${text}"`), parsed.reason);
  }
});

test('scopeProblem accepts the known tree, wildcards and any raw package', () => {
  for (const text of [
    '*:rw',
    '*:ro',
    '*:*:ro',
    'firewall:rw',
    'firewall:*:ro',
    'firewall:rules:rw',
    '*:rules:ro',
    'system:rw',
    'system:authorized_keys:rw',
    'wrtapi:tokens:rw',
    'wrtapi:metrics:ro',
    'prometheus_node_exporter_lua:config:rw',
    'unbound:ext:rw',
    'raw:rw',
    'raw:*:rw',
    'raw:firewall:ro',
    'raw:some_uncurated-pkg:rw',
  ]) {
    assert.is(scopeProblem(text), undefined, text);
  }
});

test('scopeProblem names what is outside the tree', () => {
  assert.is(scopeProblem('fierwall:rw'), 'scope "fierwall:rw": unknown domain "fierwall"');
  assert.is(scopeProblem('firewall:rule:rw'), 'scope "firewall:rule:rw": "firewall" has no subresource "rule"');
  assert.is(scopeProblem('*:nothing:ro'), 'scope "*:nothing:ro": no domain has a subresource "nothing"');
  assert.is(scopeProblem('vnstat:interfaces:ro'), 'scope "vnstat:interfaces:ro": "vnstat" has no subresource "interfaces"');
  assert.is(scopeProblem('a:b:c:rw'), 'scope "a:b:c:rw" has more than three segments (<domain>:<subresource>:<rw|ro>)');
  assert.is(scopeProblem('constructor:rw'), 'scope "constructor:rw": unknown domain "constructor"');
});

test('every curated section type maps into the scope tree', () => {
  const sections: [string, string][] = [
    ['network', 'interface'], ['network', 'device'], ['network', 'route'], ['network', 'rule'],
    ['network', 'bridge-vlan'], ['network', 'wireguard_wg0'], ['wireless', 'wifi-device'], ['wireless', 'wifi-iface'],
    ['firewall', 'zone'], ['firewall', 'rule'], ['firewall', 'redirect'], ['firewall', 'nat'],
    ['firewall', 'forwarding'], ['firewall', 'defaults'], ['dhcp', 'host'], ['dhcp', 'dhcp'], ['dhcp', 'dnsmasq'],
    ['dhcp', 'odhcpd'], ['system', 'timeserver'], ['dropbear', 'dropbear'], ['uhttpd', 'uhttpd'], ['uhttpd', 'cert'],
    ['unbound', 'unbound'], ['unbound_srv', 'unbound_srv'], ['unbound_ext', 'unbound_ext'], ['sqm', 'queue'],
    ['snmpd', 'agent'], ['snmpd', 'com2sec'], ['snmpd', 'group'], ['snmpd', 'access'], ['snmpd', 'system'],
    ['lldpd', 'lldpd'], ['prometheus-node-exporter-lua', 'prometheus-node-exporter-lua'], ['vnstat', 'vnstat'],
    ['mwan3', 'globals'], ['mwan3', 'interface'], ['mwan3', 'member'], ['mwan3', 'policy'], ['mwan3', 'rule'],
    ['usteer', 'usteer'], ['openvpn', 'openvpn'],
  ];
  const seen = new Set<string>();
  for (const [pkg, type] of sections) {
    const { domain, sub } = curatedTargetOf(pkg, type);
    assert.ok(sub !== undefined && SCOPE_TREE.get(domain)?.includes(sub), `${pkg}/${type}`);
    seen.add(`${domain}:${sub}`);
  }
  assert.is(seen.size, sections.length);
});

test('spec matching examples for a firewall rule', () => {
  assert.ok(decide(['*:rw'], firewallRule, WRITE));
  assert.ok(decide(['firewall:rw'], firewallRule, WRITE));
  assert.ok(decide(['firewall:rules:rw'], firewallRule, WRITE));
  assert.not.ok(decide(['firewall:zones:rw'], firewallRule, WRITE));
  assert.not.ok(decide(['firewall:zones:rw'], firewallRule, READ));
  assert.not.ok(decide(['*:rw', 'firewall:rules:ro'], firewallRule, WRITE));
  assert.ok(decide(['*:rw', 'firewall:rules:ro'], firewallRule, READ));
  assert.ok(decide(['firewall:ro', 'firewall:rules:rw'], firewallRule, WRITE));
});

test('rw implies ro; a write needs rw', () => {
  assert.ok(decide(['firewall:rules:rw'], firewallRule, READ));
  assert.ok(decide(['firewall:rules:ro'], firewallRule, READ));
  assert.not.ok(decide(['firewall:rules:ro'], firewallRule, WRITE));
  assert.ok(decide(['*:ro'], firewallRule, READ));
  assert.not.ok(decide(['*:ro'], firewallRule, WRITE));
});

test('*:rw and *:ro match everything, including the system singleton and raw', () => {
  for (const target of [
    { domain: 'system' },
    { domain: 'system', sub: 'password' },
    { domain: 'wrtapi', sub: 'tokens' },
    { domain: 'raw', sub: 'anything' },
    { domain: 'packages', sub: 'installed' },
  ]) {
    assert.ok(decide(['*:rw'], target, WRITE));
    assert.ok(decide(['*:ro'], target, READ));
    assert.not.ok(decide(['*:ro'], target, WRITE));
  }
});

test('firewall:*:ro matches every firewall subresource but not the bare domain', () => {
  for (const sub of SCOPE_TREE.get('firewall')!) {
    assert.ok(decide(['firewall:*:ro'], { domain: 'firewall', sub }, READ), sub);
  }
  assert.not.ok(decide(['firewall:*:ro'], { domain: 'firewall' }, READ));
  assert.not.ok(decide(['firewall:*:ro'], { domain: 'network', sub: 'rules' }, READ));
  assert.ok(decide(['firewall:ro'], { domain: 'firewall' }, READ));
});

test('system:rw reaches the /system singleton; system:*:rw does not', () => {
  assert.ok(decide(['system:rw'], { domain: 'system' }, WRITE));
  assert.ok(decide(['system:rw'], { domain: 'system', sub: 'timeservers' }, WRITE));
  assert.not.ok(decide(['system:*:rw'], { domain: 'system' }, WRITE));
  assert.ok(decide(['system:*:rw'], { domain: 'system', sub: 'timeservers' }, WRITE));
  assert.not.ok(decide(['system:timeservers:rw'], { domain: 'system' }, READ));
});

test('*:rules:ro matches the rules subresource of every domain that has one', () => {
  for (const domain of ['network', 'firewall', 'mwan3']) {
    assert.ok(decide(['*:rules:ro'], { domain, sub: 'rules' }, READ), domain);
    assert.not.ok(decide(['*:rules:ro'], { domain, sub: 'rules' }, WRITE), domain);
  }
  assert.not.ok(decide(['*:rules:ro'], { domain: 'firewall', sub: 'zones' }, READ));
  assert.not.ok(decide(['*:rules:ro'], { domain: 'firewall' }, READ));
});

test('the longest matching prefix decides, whichever access it has', () => {
  assert.not.ok(decide(['*:rw', 'firewall:ro'], firewallRule, WRITE));
  assert.ok(decide(['*:rw', 'firewall:ro'], firewallRule, READ));
  assert.ok(decide(['*:rw', 'firewall:ro'], { domain: 'network', sub: 'routes' }, WRITE));
  assert.not.ok(decide(['firewall:rw', 'firewall:*:ro'], firewallRule, WRITE));
  assert.ok(decide(['firewall:ro', 'firewall:*:rw'], firewallRule, WRITE));
  assert.not.ok(decide(['firewall:ro', 'firewall:*:rw'], { domain: 'firewall' }, WRITE));
  assert.ok(decide(['*:ro', '*:rules:rw'], firewallRule, WRITE));
});

test('at equal depth an exact segment beats a wildcard, leftmost first', () => {
  assert.not.ok(decide(['*:rw', 'firewall:ro'], { domain: 'firewall', sub: 'zones' }, WRITE));
  assert.ok(decide(['*:ro', 'firewall:rw'], { domain: 'firewall', sub: 'zones' }, WRITE));
  assert.not.ok(decide(['firewall:*:rw', 'firewall:rules:ro'], firewallRule, WRITE));
  assert.ok(decide(['firewall:*:ro', 'firewall:rules:rw'], firewallRule, WRITE));
  assert.not.ok(decide(['*:rules:rw', 'firewall:rules:ro'], firewallRule, WRITE));
  assert.not.ok(decide(['*:*:rw', '*:rules:ro'], firewallRule, WRITE));
  assert.ok(decide(['*:rules:rw', '*:*:ro'], firewallRule, WRITE));
  assert.not.ok(decide(['*:rules:rw', 'firewall:*:ro'], firewallRule, WRITE));
  assert.ok(decide(['*:rules:ro', 'firewall:*:rw'], firewallRule, WRITE));
});

test('at the same depth and specificity rw beats ro, in any order', () => {
  assert.ok(decide(['firewall:rules:ro', 'firewall:rules:rw'], firewallRule, WRITE));
  assert.ok(decide(['firewall:rules:rw', 'firewall:rules:ro'], firewallRule, WRITE));
  assert.ok(decide(['*:ro', '*:rw'], firewallRule, WRITE));
});

test('no matching scope, no scopes, or only malformed scopes deny', () => {
  assert.not.ok(decide([], firewallRule, READ));
  assert.not.ok(decide(['network:rw'], firewallRule, READ));
  assert.not.ok(decide(['firewall:rules'], firewallRule, READ));
  assert.not.ok(decide(['*'], firewallRule, READ));
  assert.ok(decide(['garbage', 'firewall:rules:ro'], firewallRule, READ));
});

test('token endpoints and monitoring scopes', () => {
  const tokens = { domain: 'wrtapi', sub: 'tokens' };
  assert.ok(decide(['wrtapi:tokens:rw'], tokens, WRITE));
  assert.not.ok(decide(['wrtapi:metrics:ro', 'wrtapi:diagnostics:ro'], tokens, READ));
  assert.ok(decide(['wrtapi:metrics:ro', 'wrtapi:diagnostics:ro'], { domain: 'wrtapi', sub: 'metrics' }, READ));
  assert.ok(decide(['*:ro'], { domain: 'wrtapi', sub: 'metrics' }, READ));
});

test('curatedTargetOf maps section types to curated resources', () => {
  assert.equal(curatedTargetOf('firewall', 'rule'), { domain: 'firewall', sub: 'rules' });
  assert.equal(curatedTargetOf('network', 'interface'), { domain: 'network', sub: 'interfaces' });
  assert.equal(curatedTargetOf('network', 'bridge-vlan'), { domain: 'network', sub: 'bridge_vlans' });
  assert.equal(curatedTargetOf('network', 'wireguard_wg0'), { domain: 'network', sub: 'wireguard_peers' });
  assert.equal(curatedTargetOf('dhcp', 'host'), { domain: 'dhcp', sub: 'hosts' });
  assert.equal(curatedTargetOf('dhcp', 'dhcp'), { domain: 'dhcp', sub: 'servers' });
  assert.equal(curatedTargetOf('wireless', 'wifi-iface'), { domain: 'wireless', sub: 'interfaces' });
  assert.equal(curatedTargetOf('mwan3', 'rule'), { domain: 'mwan3', sub: 'rules' });
  assert.equal(curatedTargetOf('snmpd', 'system'), { domain: 'snmpd', sub: 'system' });
  assert.equal(curatedTargetOf('system', 'system'), { domain: 'system' });
  assert.equal(curatedTargetOf('system', 'timeserver'), { domain: 'system', sub: 'timeservers' });
  assert.equal(curatedTargetOf('prometheus-node-exporter-lua', 'prometheus-node-exporter-lua'), {
    domain: 'prometheus_node_exporter_lua',
    sub: 'config',
  });
});

test('curatedTargetOf: an uncurated type of a curated package is its bare domain', () => {
  assert.equal(curatedTargetOf('firewall', 'include'), { domain: 'firewall' });
  assert.equal(curatedTargetOf('firewall', 'ipset'), { domain: 'firewall' });
  assert.equal(curatedTargetOf('network', 'globals'), { domain: 'network' });
  assert.equal(curatedTargetOf('system', 'led'), { domain: 'system' });
  assert.equal(curatedTargetOf('prometheus-node-exporter-lua', 'other'), { domain: 'prometheus_node_exporter_lua' });
  assert.equal(curatedTargetOf('dhcp', 'wireguard_wg0'), { domain: 'dhcp' });
});

test('curatedTargetOf: an uncurated package is checked on its own name', () => {
  assert.equal(curatedTargetOf('ddns', 'service'), { domain: 'ddns' });
  assert.equal(curatedTargetOf('constructor', 'x'), { domain: 'constructor' });
});

test('raw: raw:rw with only firewall:rules:ro reads but cannot write firewall rules', () => {
  const scopes = ['raw:rw', 'firewall:rules:ro'];
  assert.ok(decideRaw(scopes, 'firewall', 'rule', READ));
  assert.not.ok(decideRaw(scopes, 'firewall', 'rule', WRITE));
  assert.not.ok(decideRaw(scopes, 'firewall', 'zone', READ));
  assert.not.ok(decideRaw(scopes, 'network', 'interface', READ));
});

test('raw: both trees must permit independently', () => {
  assert.not.ok(decideRaw(['firewall:rw'], 'firewall', 'rule', READ));
  assert.not.ok(decideRaw(['raw:network:rw', 'firewall:rw'], 'firewall', 'rule', READ));
  assert.ok(decideRaw(['raw:firewall:rw', 'firewall:rw'], 'firewall', 'rule', WRITE));
  assert.ok(decideRaw(['raw:*:rw', 'firewall:rules:rw'], 'firewall', 'rule', WRITE));
  assert.not.ok(decideRaw(['raw:ro', 'firewall:rw'], 'firewall', 'rule', WRITE));
  assert.ok(decideRaw(['raw:ro', 'firewall:rw'], 'firewall', 'rule', READ));
  assert.ok(decideRaw(['raw:rw', 'network:wireguard_peers:rw'], 'network', 'wireguard_wg0', WRITE));
  assert.ok(decideRaw(['raw:rw', 'system:rw'], 'system', 'system', WRITE));
  assert.not.ok(decideRaw(['raw:rw', 'system:*:rw'], 'system', 'system', WRITE));
  assert.ok(decideRaw(['*:rw'], 'firewall', 'rule', WRITE));
});

test('raw: an uncurated type of a curated package needs the whole domain', () => {
  assert.not.ok(decideRaw(['raw:rw', 'firewall:*:rw'], 'firewall', 'include', READ));
  assert.not.ok(decideRaw(['raw:rw', 'firewall:rules:rw'], 'firewall', 'include', READ));
  assert.ok(decideRaw(['raw:rw', 'firewall:rw'], 'firewall', 'include', WRITE));
});

test('raw: an uncurated package is covered by *:rw or the package name as a domain', () => {
  assert.ok(decideRaw(['*:rw'], 'ddns', 'service', WRITE));
  assert.ok(decideRaw(['*:ro'], 'ddns', 'service', READ));
  assert.not.ok(decideRaw(['*:ro'], 'ddns', 'service', WRITE));
  assert.not.ok(decideRaw(['raw:rw'], 'ddns', 'service', READ));
  assert.not.ok(decideRaw(['raw:ddns:rw'], 'ddns', 'service', READ));
  assert.ok(decideRaw(['raw:ddns:rw', 'ddns:rw'], 'ddns', 'service', WRITE));
  assert.ok(decideRaw(['raw:rw', '*:ro'], 'ddns', 'service', READ));
  assert.not.ok(decideRaw(['raw:rw', 'firewall:rw'], 'ddns', 'service', READ));
});

test('mayMint: a caller with *:rw can mint narrower scopes', () => {
  assert.ok(mayMint(['firewall:rw'], ['*:rw']));
  assert.ok(mayMint(['*:ro'], ['*:rw']));
  assert.ok(mayMint(['firewall:rules:rw', 'network:routes:rw'], ['*:rw']));
  assert.ok(mayMint(['raw:rw', 'firewall:rules:ro'], ['*:rw']));
  assert.ok(mayMint(['wrtapi:tokens:rw'], ['*:rw']));
});

test('mayMint: nothing beyond the caller', () => {
  assert.not.ok(mayMint(['firewall:rw'], ['firewall:rules:rw', 'wrtapi:tokens:rw']));
  assert.not.ok(mayMint(['*:ro'], ['firewall:rules:rw', 'wrtapi:tokens:rw']));
  assert.not.ok(mayMint(['firewall:rules:rw'], ['firewall:rules:ro', 'wrtapi:tokens:rw']));
  assert.not.ok(mayMint(['firewall:*:rw'], ['firewall:rules:rw', 'wrtapi:tokens:rw']));
  assert.not.ok(mayMint(['*:rules:ro'], ['firewall:rules:rw', 'network:rules:rw', 'mwan3:rules:rw', 'wrtapi:tokens:rw']));
  assert.not.ok(mayMint(['raw:firewall:rw'], ['raw:network:rw', 'wrtapi:tokens:rw']));
});

test('mayMint: firewall:rw grants the bare domain, firewall:*:rw does not', () => {
  assert.ok(mayMint(['firewall:*:rw'], ['firewall:rw', 'wrtapi:tokens:rw']));
  assert.not.ok(mayMint(['firewall:rw'], ['firewall:*:rw', 'wrtapi:tokens:rw']));
});

test('mayMint: a restrictive caller scope binds what it can delegate', () => {
  assert.not.ok(mayMint(['firewall:rules:rw'], ['*:rw', 'firewall:ro']));
  assert.ok(mayMint(['firewall:rules:ro'], ['*:rw', 'firewall:ro']));
  assert.ok(mayMint(['network:rw'], ['*:rw', 'firewall:ro']));
  assert.ok(mayMint(['firewall:rules:rw'], ['firewall:ro', 'firewall:rules:rw', 'wrtapi:tokens:rw']));
});

test('mayMint: the token operator delegates what it holds, but cannot clone itself', () => {
  const operator = ['wrtapi:tokens:rw', 'firewall:rules:rw', 'network:routes:rw'];
  assert.ok(mayMint(['firewall:rules:rw'], operator));
  assert.ok(mayMint(['firewall:rules:rw', 'network:routes:rw'], operator));
  assert.ok(mayMint(['wrtapi:tokens:rw', 'firewall:rules:rw'], operator));
  assert.ok(mayMint(['firewall:rules:ro', 'network:routes:ro'], operator));
  assert.not.ok(mayMint(operator, operator));
  assert.not.ok(mayMint([...operator].reverse(), operator));
  assert.not.ok(mayMint(['wrtapi:tokens:rw', 'firewall:rules:rw', 'network:routes:rw', 'firewall:rules:ro'], operator));
});

test('mayMint: equality is not a strict subset', () => {
  assert.not.ok(mayMint(['*:rw'], ['*:rw']));
  assert.not.ok(mayMint(['wrtapi:tokens:rw'], ['wrtapi:tokens:rw']));
  assert.ok(mayMint(['wrtapi:tokens:ro'], ['wrtapi:tokens:rw']));
});

test('mayMint: each requested scope is judged alone as well as the set', () => {
  // As a set this permits less than *:rw, but the scope *:rw alone equals the caller's.
  assert.not.ok(mayMint(['*:rw', 'firewall:ro'], ['*:rw']));
  assert.not.ok(mayMint(['*:rw', 'firewall:ro'], ['*:rw', 'firewall:ro']));
});

test('mayMint: malformed requested scopes are refused', () => {
  assert.not.ok(mayMint(['firewall'], ['*:rw']));
  assert.not.ok(mayMint(['firewall:rules:rw', 'x:y:z:rw'], ['*:rw']));
});

test.run();
