import { readFileSync, rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

const config = (router: Router) => readFileSync(router.path('/etc/config/wrtapi'), 'utf8');
const messages = (router: Router) => readFileSync(router.path('/var/log/messages'), 'utf8');

let router: Router;
let admin: string;
const asAdmin = { authorization: '' };
test.before.each(async () => {
  router = await newRouter();
  admin = await router.mint('admin', ['*:rw']);
  asAdmin.authorization = `Bearer ${admin}`;
});
test.after.each(async () => {
  await router.cleanup();
});

test('POST /tokens mints a working token, shows the bearer once and audits the write', async () => {
  const created = await router.request({
    method: 'POST',
    path: '/tokens',
    headers: asAdmin,
    body: { name: 'deploy', scopes: ['firewall:rules:rw'], expires_in_seconds: 3600, allowed_cidrs: ['192.168.1.0/24', 'fd00::/8'], rate: 5, burst: 10 },
  });
  assert.is(created.status, 201, created.body);
  const { name, bearer } = created.json as { name: string; bearer: string };
  assert.is(name, 'deploy');
  assert.match(created.headers['strict-transport-security'], /max-age/);
  const whoami = await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${bearer}` } });
  assert.is(whoami.status, 200);
  const record = whoami.json as { token_id: string; expires_at: number; allowed_cidrs: string[] };
  assert.is(record.token_id, 'deploy');
  assert.equal(record.allowed_cidrs, ['192.168.1.0/24', 'fd00::/8']);
  // Epoch seconds, as uapi's provider reads them (int64Val takes a JSON number only).
  assert.ok(Number.isInteger(record.expires_at), String(record.expires_at));
  assert.ok(Math.abs(record.expires_at - (Date.now() / 1000 + 3600)) < 60, String(record.expires_at));
  assert.match(config(router), new RegExp(`\toption expires '${record.expires_at}'\n`));
  assert.match(config(router), /\toption rate '5'\n\toption burst '10'\n/);
  assert.match(messages(router), new RegExp(`^daemon\\.notice wrtapi: ${created.headers['x-request-id']} admin AUDIT - POST /tokens 201 \\d+ms$`, 'm'));
});

test('GET /tokens and /tokens/{name} never show a salt, a hash or a bearer', async () => {
  await router.mint('viewer', ['*:ro'], ['--rate', '3']);
  const list = await router.request({ method: 'GET', path: '/tokens', headers: asAdmin });
  assert.is(list.status, 200);
  const records = list.json as Record<string, unknown>[];
  assert.equal(records.map((record) => record.name), ['admin', 'viewer']);
  assert.equal(Object.keys(records[1]).sort(), ['allowed_cidrs', 'burst', 'created_at', 'expires_at', 'last_used_at', 'last_used_ip', 'name', 'rate', 'scopes']);
  assert.is(records[1].rate, 3);
  assert.is(records[1].burst, null);
  // Times are epoch seconds, the store's own: the mint's, no expiry, no use yet.
  const created = Number(/config token 'viewer'\n[^]*?\toption created '(\d+)'/.exec(config(router))![1]);
  assert.equal([records[1].created_at, records[1].expires_at, records[1].last_used_at, records[1].last_used_ip], [created, null, null, null]);
  assert.ok(Number.isInteger(records[0].last_used_at), 'the admin token is in use');
  const salts = [...config(router).matchAll(/option (?:salt|hash) '([0-9a-f]+)'/g)].map((match) => match[1]);
  assert.ok(salts.length >= 4);
  for (const secret of salts) assert.not.ok(list.body.includes(secret));
  const one = await router.request({ method: 'GET', path: '/tokens/viewer', headers: asAdmin });
  assert.is((one.json as { name: string }).name, 'viewer');
  assert.is(one.headers.etag, undefined, 'a non-configuration endpoint carries no ETag (spec: ETag)');
  assert.is((await router.request({ method: 'GET', path: '/tokens/nobody', headers: asAdmin })).status, 404);
});

test('POST /tokens refuses scopes beyond the caller, taken names and bad fields, changing nothing', async () => {
  const operator = await router.mint('operator', ['wrtapi:tokens:rw', 'firewall:rw']);
  const tokenNames = () => [...config(router).matchAll(/config token '(\w+)'/g)].map((match) => match[1]);
  const asOperator = { authorization: `Bearer ${operator}` };
  const escalation = await router.request({ method: 'POST', path: '/tokens', headers: asOperator, body: { name: 'more', scopes: ['network:rw'] } });
  assert.is(escalation.status, 403);
  assert.is((escalation.json as { code: string }).code, 'scope_escalation_blocked');
  const copy = await router.request({ method: 'POST', path: '/tokens', headers: asOperator, body: { name: 'copy', scopes: ['wrtapi:tokens:rw', 'firewall:rw'] } });
  assert.is(copy.status, 403, 'an equal set is not a strict subset');
  const taken = await router.request({ method: 'POST', path: '/tokens', headers: asOperator, body: { name: 'admin', scopes: ['firewall:rules:ro'] } });
  assert.is(taken.status, 409);
  assert.is((taken.json as { code: string }).code, 'conflict');
  const invalid = await router.request({
    method: 'POST',
    path: '/tokens',
    headers: asAdmin,
    body: { name: 'x y', scopes: ['firewall:rw', 'bogus'], allowed_cidrs: ['300.1.1.1/8'], rate: 0, burst: 1.5, expires_in_seconds: -1, colour: 'red' },
  });
  assert.is(invalid.status, 422);
  const body = invalid.json as { code: string; errors: { field: string; code: string }[] };
  assert.is(body.code, 'validation_failed');
  assert.equal(
    body.errors.map((error) => `${error.field}:${error.code}`).sort(),
    ['allowed_cidrs[0]:invalid_format', 'burst:out_of_range', 'colour:unknown_field', 'expires_in_seconds:out_of_range', 'name:invalid_format', 'rate:out_of_range', 'scopes[1]:invalid_format'],
  );
  assert.is((await router.request({ method: 'POST', path: '/tokens', headers: asAdmin, body: '{"name":' })).status, 400);
  assert.equal(tokenNames(), ['admin', 'operator']);
  const delegated = await router.request({ method: 'POST', path: '/tokens', headers: asOperator, body: { name: 'rules', scopes: ['firewall:rules:rw'] } });
  assert.is(delegated.status, 201, delegated.body);
});

test('a token operator revokes only tokens its own scopes cover: never the admin\'s, nor a broader one', async () => {
  const operator = await router.mint('operator', ['wrtapi:tokens:rw', 'firewall:rw']);
  await router.mint('rules', ['firewall:rules:rw']);
  await router.mint('network', ['network:rw']);
  const asOperator = { authorization: `Bearer ${operator}` };
  const before = config(router);
  for (const name of ['admin', 'network']) {
    const refused = await router.request({ method: 'DELETE', path: `/tokens/${name}`, headers: asOperator });
    assert.is(refused.status, 403, name);
    assert.is((refused.json as { code: string }).code, 'insufficient_scope');
  }
  assert.is(config(router), before, 'nothing revoked');
  assert.is((await router.request({ method: 'DELETE', path: '/tokens/rules', headers: asOperator })).status, 204);
  assert.is((await router.request({ method: 'DELETE', path: '/tokens/operator', headers: asOperator })).status, 204, 'its equal, itself included');
  assert.is((await router.request({ method: 'DELETE', path: '/tokens/network', headers: asAdmin })).status, 204);
  assert.not.match(config(router), /config token '(rules|operator|network)'/);
});

test('an Idempotency-Key replays the first answer without minting twice and never repeats the bearer', async () => {
  const post = (body: unknown) =>
    router.request({ method: 'POST', path: '/tokens', headers: asAdmin, query: { idempotency_key: 'apply-7' }, body });
  const first = await post({ name: 'once', scopes: ['*:ro'] });
  assert.is(first.status, 201);
  assert.is(first.headers['idempotent-replayed'], undefined);
  const replay = await post({ name: 'once', scopes: ['*:ro'] });
  assert.is(replay.status, 201);
  assert.is(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.json, { name: 'once', bearer: null });
  assert.is.not(replay.headers['x-request-id'], first.headers['x-request-id']);
  assert.is(config(router).match(/config token 'once'/g)!.length, 1);
  const conflict = await post({ name: 'twice', scopes: ['*:ro'] });
  assert.is(conflict.status, 409);
  assert.is((conflict.json as { code: string }).code, 'idempotency_key_conflict');
  assert.not.match(config(router), /'twice'/);
  const bearer = (first.json as { bearer: string }).bearer;
  for (const file of ['/etc/config/wrtapi', '/var/log/messages']) assert.not.ok(readFileSync(router.path(file), 'utf8').includes(bearer));
});

test('idempotency keys are per token, and an answer to retry (423) is not stored', async () => {
  const other = await router.mint('other', ['*:rw']);
  const post = (authorization: string, name: string, key: string) =>
    router.request({ method: 'POST', path: '/tokens', headers: { authorization }, query: { idempotency_key: key }, body: { name, scopes: ['*:ro'] } });
  assert.is((await post(asAdmin.authorization, 'a1', 'k-1')).status, 201);
  assert.is((await post(`Bearer ${other}`, 'a2', 'k-1')).status, 201, 'the same key of another token is its own');

  const lock = router.path('/var/lock/wrtapi.wrtapi.lock');
  router.lock('/var/lock/wrtapi.wrtapi.lock');
  const locked = await post(asAdmin.authorization, 'a3', 'k-2');
  assert.is(locked.status, 423);
  assert.is(locked.headers['retry-after'], '1');
  assert.match((locked.json as { message: string }).message, /wrtapi\.wrtapi\.lock/);
  rmSync(lock);
  const retried = await post(asAdmin.authorization, 'a3', 'k-2');
  assert.is(retried.status, 201);
  assert.is(retried.headers['idempotent-replayed'], undefined);
});

test.run();
