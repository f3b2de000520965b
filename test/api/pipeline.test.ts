import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Response, type Router } from '../support/router.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const SECURITY_HEADERS = ['strict-transport-security', 'x-content-type-options', 'referrer-policy', 'cache-control'];

function messages(router: Router): string {
  const path = router.path('/var/log/messages');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

function assertEnvelope(response: Response, status: number, code: string) {
  assert.is(response.status, status, response.body);
  assert.is(response.headers['content-type'], 'application/json');
  const body = response.json as Record<string, unknown>;
  assert.is(body.code, code);
  assert.type(body.message, 'string');
  assert.is(body.request_id, response.headers['x-request-id']);
  for (const header of SECURITY_HEADERS) assert.ok(response.headers[header], `${header} on an envelope`);
  assert.is(response.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
  assert.is(response.headers['x-content-type-options'], 'nosniff');
  assert.is(response.headers['referrer-policy'], 'no-referrer');
  assert.is(response.headers['cache-control'], 'no-store');
}

function editJson(router: Router, routerPath: string, change: (value: Record<string, unknown>) => void) {
  const path = router.path(routerPath);
  const value = JSON.parse(readFileSync(path, 'utf8'));
  change(value);
  writeFileSync(path, JSON.stringify(value));
}

let router: Router;
test.before.each(async () => {
  router = await newRouter();
});
test.after.each(async () => {
  await router.cleanup();
});

test('GET /healthz answers ok with all four checks, hand-built and never logged', async () => {
  const response = await router.request({ method: 'GET', path: '/healthz' });
  assert.is(response.status, 200);
  assert.equal(response.json, {
    status: 'ok',
    version: JSON.parse(readFileSync('package.json', 'utf8')).version,
    checks: { ubus: 'ok', uci: 'ok', lock_dir: 'ok', time_sync: 'ok' },
  });
  assert.is(response.headers['content-type'], 'application/json');
  assert.match(response.headers['x-request-id'], ULID);
  for (const header of SECURITY_HEADERS) assert.not.ok(response.headers[header], `no ${header} on /healthz`);
  assert.is(messages(router), '');
  assert.equal(readFileSync(router.path('/var/log/ubus.log'), 'utf8').trim().split('\n').length, 1, 'one ubus child');
});

test('GET /healthz is degraded with 503 when ubus does not answer', async () => {
  writeFileSync(router.path('/var/emu/ubus-down'), '');
  const response = await router.request({ method: 'GET', path: '/healthz' });
  assert.is(response.status, 503);
  const body = response.json as { status: string; checks: Record<string, string>; errors: string[] };
  assert.is(body.status, 'degraded');
  assert.is(body.checks.ubus, 'degraded');
  assert.is(body.checks.uci, 'ok');
  assert.is(body.checks.time_sync, 'unknown');
  assert.ok(body.errors.some((error) => error.startsWith('ubus: ') && error.includes('Failed to connect to ubus')), body.errors.join());
  assert.is(messages(router), '');
});

test('GET /healthz time_sync is unknown in the first 60 seconds of uptime', async () => {
  editJson(router, '/var/emu/ubus/system/info.json', (info) => {
    info.uptime = 59;
    info.localtime = 1000;
  });
  const response = await router.request({ method: 'GET', path: '/healthz' });
  assert.is(response.status, 200);
  assert.is((response.json as { checks: Record<string, string> }).checks.time_sync, 'unknown');
});

test('GET /healthz time_sync is degraded below epoch 1700000000', async () => {
  editJson(router, '/var/emu/ubus/system/info.json', (info) => {
    info.uptime = 60;
    info.localtime = 1699999999;
  });
  const response = await router.request({ method: 'GET', path: '/healthz' });
  assert.is(response.status, 503);
  const body = response.json as { checks: Record<string, string>; errors: string[] };
  assert.is(body.checks.time_sync, 'degraded');
  assert.equal(body.errors.length, 1);
  assert.match(body.errors[0], /^time_sync: /);
});

test('GET /healthz reports an unreadable configuration and leaves the file alone', async () => {
  const broken = "\nconfig wrtapi 'global'\n\toption access 'unterminated\n";
  writeFileSync(router.path('/etc/config/wrtapi'), broken);
  const response = await router.request({ method: 'GET', path: '/healthz' });
  assert.is(response.status, 503);
  const body = response.json as { checks: Record<string, string>; errors: string[] };
  assert.is(body.checks.uci, 'degraded');
  assert.match(body.errors.join(), /uci: .*line/);
  assert.is(readFileSync(router.path('/etc/config/wrtapi'), 'utf8'), broken);
});

test('GET /healthz reports a lock directory that cannot be written', async () => {
  rmSync(router.path('/var/lock'), { recursive: true });
  writeFileSync(router.path('/var/lock'), 'not a directory');
  const response = await router.request({ method: 'GET', path: '/healthz' });
  assert.is(response.status, 503);
  assert.is((response.json as { checks: Record<string, string> }).checks.lock_dir, 'degraded');
});

test('plain HTTP from a remote client is refused with 403 tls_required before routing', async () => {
  for (const path of ['/healthz', '/no/such/thing']) {
    const response = await router.request({ method: 'GET', path, remote: '192.0.2.7', https: false });
    assertEnvelope(response, 403, 'tls_required');
  }
  assert.not.match(messages(router), /healthz/);
  assert.match(messages(router), /^daemon\.warning wrtapi: \S+ - WARN tls_required GET \/no\/such\/thing 403 \d+ms$/m);
});

test('loopback clients may use plain HTTP', async () => {
  for (const remote of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1']) {
    const response = await router.request({ method: 'GET', path: '/healthz', remote, https: false });
    assert.is(response.status, 200, `${remote}: ${response.body}`);
  }
  const mapped = await router.request({ method: 'GET', path: '/healthz', remote: '::ffff:192.0.2.7', https: false });
  assert.is(mapped.status, 403);
});

test('the insecure marker lets remote plain HTTP through and every such request logs the bypass', async () => {
  writeFileSync(router.path('/etc/wrtapi.insecure'), '');
  const response = await router.request({ method: 'GET', path: '/healthz', remote: '192.0.2.7', https: false });
  assert.is(response.status, 200);
  const id = response.headers['x-request-id'];
  assert.is(messages(router), `daemon.notice wrtapi: wrtapi-insecure-bypass ${id} GET /healthz status=200 remote=192.0.2.7\n`);
  const missing = await router.request({ method: 'GET', path: '/nowhere', remote: '192.0.2.7', https: false });
  assertEnvelope(missing, 401, 'unauthorized');
  assert.match(messages(router), `wrtapi-insecure-bypass ${missing.headers['x-request-id']} GET /nowhere status=401 remote=192.0.2.7`);
});

test('without a token, every path but the open GETs answers 401, so no caller maps the routes', async () => {
  for (const [method, path] of [['GET', '/nowhere'], ['GET', '/firewall/nothing'], ['DELETE', '/healthz'], ['POST', '/openapi.json'], ['DELETE', '/system']]) {
    const response = await router.request({ method, path });
    assertEnvelope(response, 401, 'unauthorized');
    assert.is(response.headers.allow, undefined, `${method} ${path}`);
    assert.match(response.headers['www-authenticate'], /^Bearer/);
  }
});

test('unknown paths answer 404 and wrong verbs 405, neither logged', async () => {
  const authorization = `Bearer ${await router.mint('reader', ['*:ro'])}`;
  const request = (options: { method: string; path: string }) => router.request({ ...options, headers: { authorization } });
  assertEnvelope(await request({ method: 'GET', path: '/firewall/nothing' }), 404, 'not_found');
  // A path's first segment names its route table: no other name, nor a path through the bundle, loads
  // anything; `openapi_json` is the name of /openapi.json's table, not a path of its own.
  for (const path of ['/nosuch/rules', '/Firewall/rules', '/..%2Fmappings%2Ffirewall_rules/x', '/tables/x', '/openapi_json', '/healthz/x', '/', '/__proto__', '/resources']) {
    assertEnvelope(await request({ method: 'GET', path }), 404, 'not_found');
  }
  const wrongVerb = await request({ method: 'DELETE', path: '/healthz' });
  assertEnvelope(wrongVerb, 405, 'method_not_allowed');
  assert.is(wrongVerb.headers.allow, 'GET');
  // A fixed route beside a domain's resources: /system/password is the fixed route, /system the singleton.
  const password = await request({ method: 'GET', path: '/system/password' });
  assertEnvelope(password, 405, 'method_not_allowed');
  assert.is(password.headers.allow, 'POST');
  assert.is((await request({ method: 'DELETE', path: '/system' })).headers.allow, 'GET, PUT, PATCH');
  assert.is(messages(router), '');
});

test('a valid client request id is echoed; an invalid one is replaced by a ULID', async () => {
  const echoed = await router.request({ method: 'GET', path: '/nowhere', query: { request_id: 'deploy-42_abc' } });
  assert.is(echoed.headers['x-request-id'], 'deploy-42_abc');
  assert.is((echoed.json as { request_id: string }).request_id, 'deploy-42_abc');
  const replaced = await router.request({ method: 'GET', path: '/nowhere', query: { request_id: 'short' } });
  assert.match(replaced.headers['x-request-id'], ULID);
});

test('a malformed query is a 400 bad_request envelope', async () => {
  assertEnvelope(await router.request({ method: 'GET', path: '/healthz?x=%zz' }), 400, 'bad_request');
});

test('an unexpected exception answers 500 internal_error and logs wrtapi-internal', async () => {
  const bearer = await router.mint('reader', ['*:ro']);
  // A file where the service keeps its state directory: the rate limiter cannot create its bucket.
  rmSync(router.path('/tmp/wrtapi'), { recursive: true, force: true });
  writeFileSync(router.path('/tmp/wrtapi'), '');
  const response = await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${bearer}` } });
  assertEnvelope(response, 500, 'internal_error');
  assert.is((response.json as { message: string }).message, 'Internal error');
  const id = response.headers['x-request-id'];
  const log = messages(router);
  assert.match(log, new RegExp(`^daemon\\.err wrtapi: wrtapi-internal ${id}: .*/tmp/wrtapi.*$`, 'm'));
  assert.match(log, new RegExp(`^daemon\\.err wrtapi: ${id} reader ERROR internal_error GET /auth/whoami 500 \\d+ms$`, 'm'));
});

test.run();
