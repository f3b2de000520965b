// Raw passthrough's pure parts (src/engine/raw.ts): the curated scope of a section's type, from the
// table the build generates from the definitions, and the body checks and option writes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decide } from '../../src/auth/scopes.js';
import { allResources } from '../../src/engine/tables.js';
import { curatedTarget, rawBodyErrors, rawView, writeRawOptions } from '../../src/engine/raw.js';
import type { UciSection } from '../../src/uci/index.js';

const READ = false;
const WRITE = true;

/** What a raw request needs: the raw tree for the package (the pipeline's check) and the curated tree for the type. */
function decideRaw(scopes: string[], pkg: string, type: string, write: boolean): boolean {
  return decide(scopes, { domain: 'raw', sub: pkg }, write) && decide(scopes, curatedTarget(pkg, type), write);
}

const section = (type: string, options: Record<string, string | string[]>, name = 's1'): UciSection => ({ type, name, anonymous: false, options: new Map(Object.entries(options)) });

test('every curated section type maps to its resource\'s scope', async () => {
  for (const entry of await allResources()) {
    // A view's package and type name the section its file is configured in, which another resource serves.
    if (entry.kind !== 'view') assert.equal(curatedTarget(entry.package, entry.type), entry.scope, entry.path);
  }
  assert.equal(curatedTarget('network', 'wireguard_wg0'), { domain: 'network', sub: 'wireguard_peers' });
  assert.equal(curatedTarget('network', 'route6'), { domain: 'network', sub: 'routes' });
  assert.equal(curatedTarget('wrtapi', 'token'), { domain: 'wrtapi', sub: 'tokens' });
});

test('an uncurated type of a curated package is the bare domain of its resources; an uncurated package is its own domain', () => {
  assert.equal(curatedTarget('firewall', 'include'), { domain: 'firewall' });
  assert.equal(curatedTarget('network', 'globals'), { domain: 'network' });
  assert.equal(curatedTarget('system', 'led'), { domain: 'system' });
  assert.equal(curatedTarget('prometheus-node-exporter-lua', 'other'), { domain: 'prometheus_node_exporter_lua' });
  assert.equal(curatedTarget('unbound_srv', 'other'), { domain: 'unbound' });
  assert.equal(curatedTarget('ddns', 'service'), { domain: 'ddns' });
  assert.equal(curatedTarget('constructor', 'x'), { domain: 'constructor' }, 'no inherited member is taken for a curated package');
});

test('the spec\'s raw examples: raw:rw with only firewall:rules:ro reads but cannot write firewall rules; both trees must permit', () => {
  const scopes = ['raw:rw', 'firewall:rules:ro'];
  assert.ok(decideRaw(scopes, 'firewall', 'rule', READ));
  assert.not.ok(decideRaw(scopes, 'firewall', 'rule', WRITE));
  assert.not.ok(decideRaw(scopes, 'firewall', 'zone', READ));
  assert.not.ok(decideRaw(scopes, 'network', 'interface', READ));
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
  // A package no resource serves: its own name is the curated tree's side (spec: Matching rules 3).
  assert.not.ok(decideRaw(['raw:ddns:rw'], 'ddns', 'service', READ));
  assert.ok(decideRaw(['raw:ddns:rw', 'ddns:rw'], 'ddns', 'service', WRITE));
  assert.ok(decideRaw(['raw:rw', '*:rw'], 'ddns', 'service', WRITE));
  assert.ok(decideRaw(['raw:rw', 'ddns:ro'], 'ddns', 'service', READ));
  assert.not.ok(decideRaw(['raw:rw', 'ddns:ro'], 'ddns', 'service', WRITE));
  assert.not.ok(decideRaw(['raw:rw', '*:ro'], 'ddns', 'service', WRITE));
  assert.not.ok(decideRaw(['raw:rw', 'firewall:rw'], 'ddns', 'service', READ));
});

test('a read lists secrets under redacted, never their values', () => {
  const view = rawView('wireless', section('wifi-iface', { ssid: 'Home', key: 'secret-1' }));
  assert.equal(view, { id: 's1', type: 'wifi-iface', anonymous: false, options: { ssid: 'Home' }, redacted: ['key'] });
  assert.equal(rawView('wrtapi', section('token', { scope: ['*:rw'], salt: 'aa', hash: 'bb' })).redacted, ['salt', 'hash']);
});

test('body checks: members, names, values and what must not change', () => {
  const codes = (errors: { field: string; code: string }[]) => errors.map(({ field, code }) => `${field}:${code}`).sort();
  assert.equal(codes(rawBodyErrors('firewall', { options: { ok: 'x' } }, undefined)), ['type:required']);
  assert.equal(codes(rawBodyErrors('firewall', { type: 'a b', id: 'cfg012345', options: { 'x-y': 'v', n: 1, l: ['a', 2], c: 'a\u0001b', s: ['\ud800'], nl: 'a\r\nb\tc' }, extra: 1 }, undefined)), [
    'extra:unknown_field', 'id:invalid_format', 'options.c:invalid_format', 'options.l:invalid_type', 'options.n:invalid_type', 'options.s:invalid_format', 'options.x-y:invalid_format', 'type:invalid_format',
  ].sort(), 'a value holds tab, LF and CR as libuci does, and no other control nor an unpaired surrogate');
  const current = section('rule', { name: 'x' });
  assert.equal(codes(rawBodyErrors('firewall', { type: 'zone', anonymous: true }, current)), ['anonymous:conflict', 'type:conflict']);
  assert.equal(codes(rawBodyErrors('firewall', { options: { name: null } }, current)), ['options.name:invalid_type']);
  assert.equal(codes(rawBodyErrors('firewall', { options: { name: null } }, current, true)), []);
  // The spec's id limits: 32 characters, 15 for a wireguard interface (its kernel device's name).
  assert.equal(codes(rawBodyErrors('firewall', { type: 'rule', id: 'r'.repeat(32) }, undefined)), []);
  assert.equal(codes(rawBodyErrors('firewall', { type: 'rule', id: 'r'.repeat(33) }, undefined)), ['id:out_of_range']);
  assert.equal(codes(rawBodyErrors('network', { type: 'interface', id: 'wg_'.padEnd(15, 'x'), options: { proto: 'wireguard' } }, undefined)), []);
  assert.equal(codes(rawBodyErrors('network', { type: 'interface', id: 'wg_'.padEnd(16, 'x'), options: { proto: 'wireguard' } }, undefined)), ['id:out_of_range']);
  assert.equal(codes(rawBodyErrors('network', { type: 'interface', id: 'wg_'.padEnd(16, 'x'), options: { proto: 'static' } }, undefined)), []);
});

test('writes: a replace keeps omitted secrets and drops other omitted options; a merge removes what it names null', () => {
  const iface = section('wifi-iface', { ssid: 'Home', key: 'secret-1', hidden: '1' });
  writeRawOptions('wireless', iface, { ssid: 'Renamed' }, false);
  assert.equal(Object.fromEntries(iface.options), { ssid: 'Renamed', key: 'secret-1' });
  writeRawOptions('wireless', iface, { key: null, mode: 'ap', network: [] }, true);
  assert.equal(Object.fromEntries(iface.options), { ssid: 'Renamed', mode: 'ap' });
  writeRawOptions('wireless', iface, { ssid: '' }, true);
  assert.equal(Object.fromEntries(iface.options), { mode: 'ap' }, 'an empty value removes the option, as uci set does');
});

test.run();
