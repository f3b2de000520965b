import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mayMint, SCOPE_TREE, scopeProblem } from '../../src/auth/scope-tree.js';
import { decide, parseScope } from '../../src/auth/scopes.js';

const READ = false;
const WRITE = true;
const firewallRule = { domain: 'firewall', sub: 'rules' };

/** The configuration packages of the router these scopes are checked on, besides the curated ones. */
const isPackage = (name: string) => ['luci', 'rpcd', 'ucitrack'].includes(name);

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
    assert.is(scopeProblem(text, isPackage), undefined, text);
  }
});

test('scopeProblem names what is outside the tree', () => {
  assert.is(scopeProblem('fierwall:rw', isPackage), 'scope "fierwall:rw": unknown domain "fierwall", and no configuration package of that name');
  assert.is(scopeProblem('firewall:rule:rw', isPackage), 'scope "firewall:rule:rw": "firewall" has no subresource "rule"');
  assert.is(scopeProblem('*:nothing:ro', isPackage), 'scope "*:nothing:ro": no domain has a subresource "nothing"');
  assert.is(scopeProblem('vnstat:interfaces:ro', isPackage), 'scope "vnstat:interfaces:ro": "vnstat" has no subresource "interfaces"');
  assert.is(scopeProblem('a:b:c:rw', isPackage), 'scope "a:b:c:rw" has more than three segments (<domain>:<subresource>:<rw|ro>)');
  assert.is(scopeProblem('constructor:rw', isPackage), 'scope "constructor:rw": unknown domain "constructor", and no configuration package of that name');
});

test('a package outside the curated tree is a domain of its own, without subresources', () => {
  assert.is(scopeProblem('luci:rw', isPackage), undefined);
  assert.is(scopeProblem('luci:ro', isPackage), undefined);
  assert.is(scopeProblem('luci:main:rw', isPackage), 'scope "luci:main:rw": the package luci has no subresources; its scope is luci:rw');
  assert.is(scopeProblem('luci:*:rw', isPackage), 'scope "luci:*:rw": the package luci has no subresources; its scope is luci:rw');
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
