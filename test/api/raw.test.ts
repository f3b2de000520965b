// Raw passthrough through the CGI path: sections of any package in the store's own names, the same
// transaction as curated writes (file text, reloads, restore), no ETag, paging, the dual scope check
// of the spec's examples and of packages no resource serves, and secrets that never leave.
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, initLog, refused } = writeChecks(() => ({ router, authorization }));
const file = (pkg: string) => readFileSync(router.path(`/etc/config/${pkg}`), 'utf8');
const messages = () => readFileSync(router.path('/var/log/messages'), 'utf8');
const as = async (scopes: string[]) => `Bearer ${await router.mint(`t${Math.random().toString(36).slice(2, 10)}`, scopes)}`;

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

/** A raw write that went through: its status, no reload or kernel header, no ETag, and these reloads logged. */
async function rawWritten(request: Parameters<typeof call>[0], services: string[]): Promise<Body> {
  const mark = initLog().length;
  const response = await call(request);
  assert.is(response.status, request.method === 'DELETE' ? 204 : 200, response.body);
  for (const header of ['x-reload-status', 'x-reload-services', 'x-kernel-status', 'x-kernel-applied']) assert.is(response.headers[header], undefined, header);
  assert.equal(initLog().slice(mark), services.map((service) => `${service} reload`));
  assert.is(response.headers.etag, undefined);
  return response.json as Body;
}

test('a section reads in the store\'s own names; create, replace, merge, JSON Patch and delete write the file and reload the package\'s service', async () => {
  const lan = await call({ method: 'GET', path: '/raw/network/lan' });
  assert.is(lan.status, 200);
  assert.equal(lan.json, {
    id: 'lan',
    type: 'interface',
    anonymous: false,
    options: { device: 'br-lan', proto: 'static', ipaddr: '192.168.1.1', netmask: '255.255.255.0', ip6assign: '60' },
    redacted: [],
  });
  const created = await rawWritten({ method: 'POST', path: '/raw/firewall', body: { type: 'include', id: 'extra', options: { path: '/etc/extra.nft', type: 'nftables', position: ['chain-pre'] } } }, ['firewall']);
  assert.equal(created, { id: 'extra', type: 'include', anonymous: false, options: { path: '/etc/extra.nft', type: 'nftables', position: ['chain-pre'] }, redacted: [] });
  assert.ok(file('firewall').endsWith("\nconfig include 'extra'\n\toption path '/etc/extra.nft'\n\toption type 'nftables'\n\tlist position 'chain-pre'\n\n"), file('firewall'));
  await rawWritten({ method: 'PATCH', path: '/raw/firewall/extra', body: { options: { position: null, enabled: '0' } } }, ['firewall']);
  assert.ok(file('firewall').endsWith("\nconfig include 'extra'\n\toption path '/etc/extra.nft'\n\toption type 'nftables'\n\toption enabled '0'\n\n"));
  // A read sent back is a valid PUT; options it omits go.
  const read = (await call({ method: 'GET', path: '/raw/firewall/extra' })).json as Body;
  delete read.options.enabled;
  await rawWritten({ method: 'PUT', path: '/raw/firewall/extra', body: read }, ['firewall']);
  assert.ok(file('firewall').endsWith("\nconfig include 'extra'\n\toption path '/etc/extra.nft'\n\toption type 'nftables'\n\n"));
  const patched = await rawWritten(
    { method: 'PATCH', path: '/raw/firewall/extra', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'add', path: '/options/fw4_compatible', value: '1' }, { op: 'remove', path: '/options/type' }]) },
    ['firewall'],
  );
  assert.equal(patched.options, { path: '/etc/extra.nft', fw4_compatible: '1' });
  await rawWritten({ method: 'DELETE', path: '/raw/firewall/extra' }, ['firewall']);
  assert.not.match(file('firewall'), /extra/);
  assert.match(messages(), / admin AUDIT - DELETE \/raw\/firewall\/extra 204 /);
});

test('anonymous sections are addressed by libuci\'s names, kept anonymous, and a package outside the curated set reloads its own init script only when it has one', async () => {
  const [defaults] = (await call({ method: 'GET', path: '/raw/firewall?limit=1' })).json as Body[];
  assert.is(defaults.id, 'cfg01e63d');
  assert.is(defaults.anonymous, true);
  await rawWritten({ method: 'PATCH', path: `/raw/firewall/${defaults.id}`, body: { options: { syn_flood: '0' } } }, ['firewall']);
  assert.ok(file('firewall').startsWith("\nconfig defaults\n\toption syn_flood '0'\n"), file('firewall'));
  writeFileSync(router.path('/etc/config/ddns'), "\nconfig service 'myddns'\n\toption enabled '0'\n");
  await rawWritten({ method: 'PATCH', path: '/raw/ddns/myddns', body: { options: { enabled: '1', domain: 'example.org' } } }, []);
  assert.is(file('ddns'), "\nconfig service 'myddns'\n\toption enabled '1'\n\toption domain 'example.org'\n\n");
  writeFileSync(router.path('/etc/init.d/ddns'), readFileSync(router.path('/etc/init.d/network'), 'utf8').split('network').join('ddns'), { mode: 0o755 });
  await rawWritten({ method: 'PATCH', path: '/raw/ddns/myddns', body: { options: { enabled: '0' } } }, ['ddns']);
});

test('no ETag: a read has none and gives no 304, an If-Match other than * is 412 in either form; paging by cursor', async () => {
  const read = await call({ method: 'GET', path: '/raw/network/lan' });
  assert.is(read.headers.etag, undefined);
  assert.is((await call({ method: 'GET', path: '/raw/network/lan?if_none_match=*' })).status, 200);
  // A curated read's ETag names nothing here.
  const curated = (await call({ method: 'GET', path: '/network/interfaces/lan' })).headers.etag;
  // uhttpd never hands If-Match to a CGI program (nor does the emulator): on a router only the query form arrives.
  const refusal = await refused({ method: 'PATCH', path: `/raw/network/lan?if_match=${encodeURIComponent(curated)}`, body: { options: { ip6assign: '64' } } }, 412, 'precondition_failed');
  assert.match(refusal.message, 'carries no ETag');
  await refused({ method: 'POST', path: '/raw/firewall?if_match=*', body: { type: 'include', options: { path: '/x' } } }, 412, 'precondition_failed');
  await refused({ method: 'PATCH', path: '/raw/network/lan?if_none_match=*', body: { options: { ip6assign: '64' } } }, 412, 'precondition_failed');
  await rawWritten({ method: 'PATCH', path: '/raw/network/lan?if_match=*', body: { options: { ip6assign: '64' } } }, ['network']);
  const first = await call({ method: 'GET', path: '/raw/firewall?limit=2' });
  assert.equal((first.json as Body[]).map((section) => section.id), ['cfg01e63d', 'cfg02dc81']);
  assert.is(first.headers['x-next-cursor'], 'c_cfg02dc81');
  assert.is(first.headers.link, '<?cursor=c_cfg02dc81&limit=2>; rel="next"');
  const second = await call({ method: 'GET', path: '/raw/firewall?limit=2&cursor=c_cfg02dc81' });
  assert.is((second.json as Body[])[0].id, 'cfg03dc81');
  assert.is((await call({ method: 'GET', path: '/raw/firewall?cursor=c_nothing' })).status, 400);
});

test('a bad body is a 422 naming every field, and changes and reloads nothing', async () => {
  await refused(
    { method: 'POST', path: '/raw/firewall', body: { id: 'cfg0abcde', options: { 'bad-name': 'x', bell: 'ding\u0007', half: ['a', '\ud83d'], list: ['a', 1] }, extra: true } },
    422,
    ['type:required', 'id:invalid_format', 'options.bad-name:invalid_format', 'options.bell:invalid_format', 'options.half:invalid_format', 'options.list:invalid_type', 'extra:unknown_field'],
  );
  await refused({ method: 'POST', path: '/raw/firewall', body: { type: "it's", options: {} } }, 422, ['type:invalid_format']);
  // The spec's id limits hold for a raw create too: 32 characters, 15 for a wireguard interface.
  await refused({ method: 'POST', path: '/raw/firewall', body: { type: 'rule', id: 'r'.repeat(33) } }, 422, ['id:out_of_range']);
  await refused({ method: 'POST', path: '/raw/network', body: { type: 'interface', id: 'wg_abcdefghijklm', options: { proto: 'wireguard' } } }, 422, ['id:out_of_range']);
  await refused({ method: 'PUT', path: '/raw/network/lan', body: { type: 'device', options: {} } }, 422, ['type:conflict']);
  await refused({ method: 'PATCH', path: '/raw/network/lan', body: { options: { proto: 5 } } }, 422, ['options.proto:invalid_type']);
  await refused({ method: 'POST', path: '/raw/network', body: { type: 'interface', id: 'lan', options: {} } }, 409, 'conflict');
  await refused({ method: 'PUT', path: '/raw/network/nothere', body: { options: {} } }, 404, 'not_found');
  await refused({ method: 'POST', path: '/raw/nosuchpackage', body: { type: 'x' } }, 404, 'not_found');
  // Removing a zone that rules and forwardings name would make firewall4 skip them.
  const zones = ((await call({ method: 'GET', path: '/raw/firewall' })).json as Body[]).filter((section) => section.type === 'zone');
  await refused({ method: 'DELETE', path: `/raw/firewall/${zones[0].id}` }, 409, 'conflict');
  await refused({ method: 'PATCH', path: `/raw/firewall/${zones[0].id}`, body: { options: { name: 'inside' } } }, 409, 'conflict');
  // The metrics count field errors by route: a section's id in a label would make a series per section.
  const metrics = (await call({ method: 'GET', path: '/metrics' })).body;
  assert.match(metrics, /^wrtapi_validate_errors_total\{resource="\/raw\/:package",code="required"\} 1$/m);
  assert.match(metrics, /^wrtapi_validate_errors_total\{resource="\/raw\/:package\/:id",code="invalid_type"\} 1$/m);
  assert.not.match(metrics, /resource="\/raw\/(firewall|network)/);
});

test('a raw write is one transaction: a failed reload restores the file, a missing init script changes nothing', async () => {
  const before = file('firewall');
  writeFileSync(router.path('/etc/init.d/firewall'), `#!/bin/sh\necho "firewall $1" >> "$WRTAPI_ROOT/var/log/init.log"\nif [ ! -e "$WRTAPI_ROOT/tmp/failed-once" ]; then : > "$WRTAPI_ROOT/tmp/failed-once"; echo "nft: syntax error" >&2; exit 1; fi\n`);
  const failed = await call({ method: 'POST', path: '/raw/firewall', body: { type: 'include', options: { path: '/x' } } });
  assert.is(failed.status, 500);
  assert.is((failed.json as Body).code, 'reload_failed_restored');
  assert.is(file('firewall'), before);
  assert.equal(initLog(), ['firewall reload', 'firewall reload']);
  const { rmSync } = await import('node:fs');
  rmSync(router.path('/etc/init.d/firewall'));
  const missing = await refused({ method: 'POST', path: '/raw/firewall', body: { type: 'include', options: { path: '/x' } } }, 503, 'init_script_missing');
  assert.match(missing.message, /\/etc\/init\.d\/firewall/);
});

test('both trees must permit: the raw tree for the package, the curated tree for the section\'s real type', async () => {
  const rules = ((await call({ method: 'GET', path: '/raw/firewall' })).json as Body[]).filter((section) => section.type === 'rule');
  const rule = `/raw/firewall/${rules[0].id}`;
  const change = { options: { enabled: '0' } };
  // A refusal is the scope's, and changes nothing.
  const ask = async (scopes: string[], method: string, path: string, body?: unknown) => {
    const authorization = await as(scopes);
    const before = router.snapshot();
    const response = await router.request({ method, path, body, headers: { authorization } });
    if (response.status === 403) {
      assert.is((response.json as Body).code, 'insufficient_scope');
      assert.equal(router.snapshot(), before, `${method} ${path} with ${scopes}: nothing changed`);
    }
    return response.status;
  };
  // The spec's examples for a firewall rule (Matching rules 2), each beside raw:rw: [scopes, GET, PUT].
  const matrix: [string[], number, number][] = [
    [['*:rw'], 200, 200],
    [['firewall:rw'], 200, 200],
    [['firewall:rules:rw'], 200, 200],
    [['firewall:zones:rw'], 403, 403],
    [['*:rw', 'firewall:rules:ro'], 200, 403],
    [['firewall:ro', 'firewall:rules:rw'], 200, 200],
  ];
  const read = (await call({ method: 'GET', path: rule })).json as Body;
  for (const [scopes, get, put] of matrix) {
    assert.is(await ask(['raw:rw', ...scopes], 'GET', rule), get, `GET with ${scopes}`);
    assert.is(await ask(['raw:rw', ...scopes], 'PUT', rule, read), put, `PUT with ${scopes}`);
  }
  // raw:rw with firewall:rules:ro reads firewall rules but does not write them.
  assert.is(await ask(['raw:rw', 'firewall:rules:ro'], 'GET', rule), 200);
  assert.is(await ask(['raw:rw', 'firewall:rules:ro'], 'PATCH', rule, change), 403);
  assert.is(await ask(['raw:rw', 'firewall:rules:rw'], 'PATCH', rule, change), 200);
  assert.is(await ask(['raw:firewall:rw', 'firewall:rw'], 'PATCH', rule, change), 200);
  assert.is(await ask(['raw:rw', 'firewall:ro', 'firewall:rules:rw'], 'PATCH', rule, change), 200);
  assert.is(await ask(['raw:network:rw', 'firewall:rw'], 'PATCH', rule, change), 403, 'the raw tree names another package');
  assert.is(await ask(['firewall:rw'], 'GET', rule), 403, 'no raw scope');
  assert.is(await ask(['raw:rw', 'firewall:zones:rw'], 'GET', rule), 403, 'a rule is firewall:rules');
  assert.is(await ask(['raw:rw', 'network:interfaces:ro'], 'GET', '/raw/network/lan'), 200);
  assert.is(await ask(['raw:rw', 'firewall:rules:rw'], 'POST', '/raw/firewall', { type: 'zone', options: { name: 'dmz' } }), 403, 'a created zone needs firewall:zones');
  // A type no resource serves in a curated package: the package's name is the domain.
  assert.is(await ask(['raw:rw', 'firewall:rules:rw'], 'POST', '/raw/firewall', { type: 'include', options: { path: '/x' } }), 403);
  assert.is(await ask(['raw:rw', 'firewall:rw'], 'POST', '/raw/firewall', { type: 'include', options: { path: '/x' } }), 200);
  // A collection read lists only the sections the token may read.
  const listed = await router.request({ method: 'GET', path: '/raw/firewall', headers: { authorization: await as(['raw:firewall:ro', 'firewall:rules:ro', 'firewall:zones:ro']) } });
  assert.equal([...new Set((listed.json as Body[]).map((section) => section.type))].sort(), ['rule', 'zone']);
});

test('a package no resource serves is guarded by its own scope too: raw scope x package scope x verb, in a batch too', async () => {
  writeFileSync(router.path('/etc/config/ddns'), "\nconfig service 'myddns'\n\toption enabled '0'\n");
  const rawScopes = ['raw:ddns:ro', 'raw:ddns:rw', 'raw:rw', 'raw:firewall:rw'];
  const packageScopes = [[], ['ddns:ro'], ['ddns:rw'], ['*:ro'], ['*:rw'], ['firewall:rw']];
  // On the raw side the raw scope decides (it is deeper than `*`, or exact where `*` is not), but for
  // one naming another package, which leaves it to a `*` scope.
  const rawReads = (scope: string, scopes: string[]) => (scope === 'raw:firewall:rw' ? scopes.some((other) => other.startsWith('*:')) : true);
  const rawWrites = (scope: string, scopes: string[]) => (scope === 'raw:firewall:rw' ? scopes.includes('*:rw') : scope !== 'raw:ddns:ro');
  const reads = (scopes: string[]) => scopes.some((scope) => ['ddns:ro', 'ddns:rw', '*:ro', '*:rw'].includes(scope));
  const writes = (scopes: string[]) => scopes.some((scope) => ['ddns:rw', '*:rw'].includes(scope));
  let n = 0;
  for (const raw of rawScopes) {
    for (const scopes of packageScopes) {
      // Every case on the native engine; on the slow one a quarter of them, each kind still met.
      const index = n++;
      if (router.engine === 'wasm' && index % 4) continue;
      const token = await as([raw, ...scopes]);
      const mayRead = rawReads(raw, scopes) && reads(scopes);
      const mayWrite = rawWrites(raw, scopes) && writes(scopes);
      const label = [raw, ...scopes].join(' ');
      const before = router.snapshot();
      const send = (method: string, path: string, body?: unknown) => router.request({ method, path, body, headers: { authorization: token } });
      const expect = async (method: string, path: string, allowed: boolean, body?: unknown) => {
        const response = await send(method, path, body);
        assert.is(response.status, allowed ? 200 : 403, `${method} ${path} with ${label}: ${response.body}`);
        if (!allowed) assert.is((response.json as Body).code, 'insufficient_scope');
      };
      await expect('GET', '/raw/ddns/myddns', mayRead);
      await expect('GET', '/raw/ddns', mayRead);
      await expect('PATCH', '/raw/ddns/myddns', mayWrite, { options: { domain: `case${index}.example.org` } });
      await expect('POST', '/raw/ddns', mayWrite, { type: 'service', id: `s${index}`, options: { enabled: '0' } });
      if (!mayWrite) {
        assert.equal(router.snapshot(), before, `${label}: a refused write changes nothing`);
        const batch = await send('POST', '/batch', { operations: [{ method: 'PATCH', path: '/raw/ddns/myddns', body: { options: { enabled: '1' } } }] });
        assert.is(batch.status, 403, `a batch with ${label}: ${batch.body}`);
        assert.is((batch.json as Body).error.code, 'insufficient_scope');
        assert.equal(router.snapshot(), before);
      }
    }
  }
  const deleting = await as(['raw:ddns:rw', 'ddns:ro']);
  assert.is((await router.request({ method: 'DELETE', path: '/raw/ddns/myddns', headers: { authorization: deleting } })).status, 403);
  assert.match(file('ddns'), /config service 'myddns'/);
  // A bare name is a scope only for a package the router has.
  const unknown = await router.token(['create', '--name', 'unknown_pkg', '--scope', 'raw:rw', '--scope', 'nosuchpkg:rw']);
  assert.is(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, 'no configuration package of that name');
  assert.is((await router.token(['create', '--name', 'forced_pkg', '--scope', 'nosuchpkg:rw', '--force'])).code, 0);
  const minted = await call({ method: 'POST', path: '/tokens', body: { name: 'ddns_over_http', scopes: ['raw:ddns:rw', 'ddns:rw'] } });
  assert.is(minted.status, 201, minted.body);
  const refusedMint = await call({ method: 'POST', path: '/tokens', body: { name: 'nosuch_over_http', scopes: ['nosuchpkg:rw'] } });
  assert.is(refusedMint.status, 422, refusedMint.body);
  assert.equal((refusedMint.json as Body).errors.map((error: Body) => `${error.field}:${error.code}`), ['scopes[0]:invalid_format']);
});

test('secrets never leave through raw: token salts and hashes, and every secret a definition marks, kept by a write that omits them', async () => {
  const tokens = await call({ method: 'GET', path: '/raw/wrtapi' });
  const config = file('wrtapi');
  const stored = [...config.matchAll(/option (?:salt|hash) '([^']+)'/g)].map((match) => match[1]);
  assert.ok(stored.length >= 2, config);
  const admin = (tokens.json as Body[]).find((section) => section.id === 'admin')!;
  assert.equal(admin.redacted, ['salt', 'hash']);
  assert.is(admin.options.salt, undefined);
  const answers = [tokens, await call({ method: 'GET', path: '/raw/wrtapi/admin' }), await call({ method: 'PUT', path: '/raw/wrtapi/admin', body: admin }), await call({ method: 'DELETE', path: '/raw/wrtapi/admin' })];
  assert.equal(answers.slice(2).map((answer) => answer.status), [405, 405]);
  assert.is(answers[2].headers.allow, 'GET');
  for (const answer of answers) for (const secret of stored) assert.not.ok(answer.body.includes(secret) || JSON.stringify(answer.headers).includes(secret));
  for (const secret of stored) assert.not.ok(messages().includes(secret));
  assert.is(file('wrtapi'), config);
  // Reading tokens through raw needs what GET /tokens needs.
  assert.is((await router.request({ method: 'GET', path: '/raw/wrtapi/admin', headers: { authorization: await as(['raw:rw', 'wrtapi:tokens:ro']) } })).status, 403);

  // A wireless key: redacted, kept by a PUT of the read, rotated by naming it.
  await call({ method: 'PATCH', path: '/wireless/interfaces/default_radio0', body: { encryption: 'psk2', key: 'first-secret-1' } });
  const iface = (await call({ method: 'GET', path: '/raw/wireless/default_radio0' })).json as Body;
  assert.equal(iface.redacted, ['key']);
  assert.not.ok(JSON.stringify(iface).includes('first-secret-1'));
  iface.options.ssid = 'Renamed';
  const put = await call({ method: 'PUT', path: '/raw/wireless/default_radio0', body: iface });
  assert.is(put.status, 200, put.body);
  assert.match(file('wireless'), /option ssid 'Renamed'\n\toption encryption 'psk2'\n\toption key 'first-secret-1'\n/);
  const rotated = await call({ method: 'PATCH', path: '/raw/wireless/default_radio0', body: { options: { key: 'second-secret-2' } } });
  assert.not.ok(rotated.body.includes('second-secret-2'));
  assert.match(file('wireless'), /option key 'second-secret-2'/);
  assert.not.ok(messages().includes('secret-'));
});

test('a raw create with an Idempotency-Key (query form) runs once; its replay answers the same', async () => {
  const request = { method: 'POST', path: '/raw/firewall?idempotency_key=inc-1', body: { type: 'include', id: 'once', options: { path: '/etc/once.nft' } } };
  const first = await rawWritten(request, ['firewall']);
  const replay = await call(request);
  assert.is(replay.status, 200);
  assert.is(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.json, first);
  assert.equal(initLog(), ['firewall reload']);
  // A failure changed nothing and is not stored: its retry runs again, with its own request id.
  const failing = { method: 'POST', path: '/raw/firewall?idempotency_key=bad-1', body: { type: 'rule', id: 'cfg123456' } };
  const [refusedFirst, refusedAgain] = [await call(failing), await call(failing)];
  for (const response of [refusedFirst, refusedAgain]) {
    assert.is(response.status, 422);
    assert.is(response.headers['idempotent-replayed'], undefined);
    assert.is((response.json as Body).request_id, response.headers['x-request-id']);
  }
});

test('raw routes are in the document; with wrtapi-doc, each path says what holds for all its operations', async () => {
  const document = (await call({ method: 'GET', path: '/openapi.json' })).json as Body;
  assert.ok(document.paths['/raw/{package}'].get && document.paths['/raw/{package}'].post);
  assert.equal(Object.keys(document.paths['/raw/{package}/{id}']).sort(), ['delete', 'get', 'parameters', 'patch', 'put'].sort());
  const documented = await newRouter({ doc: true });
  try {
    const described = (await documented.request({ method: 'GET', path: '/openapi.json' })).json as Body;
    // Said once per path, for all its operations: the two scopes, the transaction, the self-lockout guard.
    for (const item of [described.paths['/raw/{package}'], described.paths['/raw/{package}/{id}']]) {
      assert.match(item.description, 'Needs the raw scope of the package');
      assert.match(item.description, 'self-lockout rules');
    }
  } finally {
    await documented.cleanup();
  }
});

test.run();
