import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerBucket } from '../../src/auth/tokens.js';
import { newRouter, type Response, type Router } from '../support/router.js';

const config = (router: Router) => readFileSync(router.path('/etc/config/wrtapi'), 'utf8');
const messages = (router: Router) =>
  existsSync(router.path('/var/log/messages')) ? readFileSync(router.path('/var/log/messages'), 'utf8') : '';
const bearerHeader = (bearer: string) => ({ authorization: `Bearer ${bearer}` });

function assertUnauthenticated(response: Response, code: string, message?: string) {
  assert.is(response.status, 401, response.body);
  assert.is((response.json as { code: string }).code, code);
  if (message) assert.is((response.json as { message: string }).message, message);
  assert.is(response.headers['www-authenticate'], `Bearer realm="wrtapi", error="${code}"`);
}

let router: Router;
test.before.each(async () => {
  router = await newRouter();
});
test.after.each(async () => {
  await router.cleanup();
});

test('the token CLI mints a token stored as salt and hash only, shown once', async () => {
  const created = await router.token(['create', '--name', 'ci', '--scope', 'firewall:rw', '--scope', 'wrtapi:metrics:ro', '--json']);
  assert.is(created.code, 0, created.stderr);
  const { name, bearer } = JSON.parse(created.stdout);
  assert.is(name, 'ci');
  assert.match(bearer, /^wrtapi_[0-9a-f]{32}$/);
  const stored = config(router);
  assert.not.ok(stored.includes(bearer), 'the bearer is not stored');
  assert.match(stored, /\nconfig token 'ci'\n\toption salt '[0-9a-f]{14}'\n\toption hash '[0-9a-f]{64}'\n\tlist scope 'firewall:rw'\n\tlist scope 'wrtapi:metrics:ro'\n\toption created '\d+'\n/);
  const listed = await router.token(['list', '--json']);
  assert.equal(JSON.parse(listed.stdout).map((record: { name: string }) => record.name), ['ci']);
  assert.not.match(listed.stdout, /salt|hash|wrtapi_[0-9a-f]{32}/);
  const shown = await router.token(['show', 'ci']);
  assert.is(shown.code, 0);
  assert.match(shown.stdout, /scopes: +firewall:rw wrtapi:metrics:ro/);
  // The store of salts and hashes stays readable by root alone.
  assert.is(statSync(router.path('/etc/config/wrtapi')).mode & 0o777, 0o600);
});

test('the token CLI refuses bad input with a clear message and a non-zero exit, changing nothing', async () => {
  const before = config(router);
  const cases: [string[], RegExp][] = [
    [['create', '--name', 'bad name', '--scope', '*:rw'], /--name: name must be 1 to 64 characters/],
    [['create', '--name', 'x'], /--scope: at least one scope is required/],
    [['create', '--name', 'x', '--scope', 'nosuch:rw'], /unknown domain "nosuch"/],
    [['create', '--name', 'x', '--scope', 'firewall:rules'], /must end in :rw or :ro/],
    [['create', '--name', 'x', '--scope', '*:rw', '--allowed-cidr', '10.0.0.0/33'], /--allowed-cidr: "10.0.0.0\/33" is not an IPv4 or IPv6 CIDR/],
    [['create', '--name', 'x', '--scope', '*:rw', '--rate', '0'], /--rate: rate must be a positive integer/],
    [['create', '--name', 'x', '--scope', '*:rw', '--burst', '-3'], /--burst: burst must be a positive integer/],
    [['create', '--name', 'x', '--scope', '*:rw', '--expires-in', '10y'], /--expires-in must be a positive integer followed by s, m, h or d/],
    [['revoke', 'nobody'], /No token named nobody/],
    [['frobnicate'], /usage:/],
  ];
  for (const [args, message] of cases) {
    const result = await router.token(args);
    assert.ok(result.code !== 0, `${args.join(' ')} exits non-zero`);
    assert.match(result.stderr, message);
    assert.is(result.stdout, '');
  }
  assert.is(config(router), before);
  const forced = await router.token(['create', '--name', 'x', '--scope', 'ddns:rw', '--force']);
  assert.is(forced.code, 0, forced.stderr);
  const duplicate = await router.token(['create', '--name', 'x', '--scope', '*:ro']);
  assert.is(duplicate.code, 1);
  assert.match(duplicate.stderr, /already exists/);
});

test('a missing or malformed Authorization header is 401 unauthorized, logged as WARN', async () => {
  assertUnauthenticated(await router.request({ method: 'GET', path: '/auth/whoami' }), 'unauthorized');
  assertUnauthenticated(await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: 'Basic dXNlcjpwdw==' } }), 'unauthorized');
  const response = await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: 'Bearer' } });
  assertUnauthenticated(response, 'unauthorized');
  const id = response.headers['x-request-id'];
  assert.match(messages(router), new RegExp(`^daemon\\.warning wrtapi: ${id} - WARN unauthorized GET /auth/whoami 401 \\d+ms$`, 'm'));
});

test('an unknown, expired or out-of-range token is 401 invalid_token with the spec messages', async () => {
  assertUnauthenticated(
    await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader('wrtapi_0123456789abcdef0123456789abcdef') }),
    'invalid_token',
    'Unknown token',
  );
  const expiring = await router.mint('expiring', ['*:ro'], ['--expires-in', '1h']);
  writeFileSync(router.path('/etc/config/wrtapi'), config(router).replace(/option expires '\d+'/, `option expires '${Math.floor(Date.now() / 1000) - 5}'`));
  assertUnauthenticated(await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(expiring) }), 'invalid_token', 'Token expired');

  const lan = await router.mint('lan', ['*:ro'], ['--allowed-cidr', '10.0.0.0/8', '--allowed-cidr', '2001:db8::/32']);
  const from = (remote: string) => router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(lan), remote });
  assert.is((await from('10.1.2.3')).status, 200);
  assert.is((await from('::ffff:10.1.2.3')).status, 200);
  assert.is((await from('2001:db8::7')).status, 200);
  assertUnauthenticated(await from('192.168.1.100'), 'invalid_token', 'Source IP not permitted for this token');
  const everyV4 = await router.mint('v4only', ['*:ro'], ['--allowed-cidr', '0.0.0.0/0']);
  assertUnauthenticated(
    await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(everyV4), remote: '2001:db8::7' }),
    'invalid_token',
    'Source IP not permitted for this token',
  );
});

test('GET /auth/whoami describes the calling token; its last use is stamped in RAM at most once a minute, and reaches flash only with a token write', async () => {
  const bearer = await router.mint('ops', ['firewall:rules:rw', 'network:ro'], ['--allowed-cidr', '192.168.1.0/24']);
  const minted = config(router);
  const first = await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(bearer) });
  assert.is(first.status, 200);
  assert.equal(first.json, {
    token_id: 'ops',
    scopes: ['firewall:rules:rw', 'network:ro'],
    source_ip: '192.168.1.100',
    expires_at: null,
    allowed_cidrs: ['192.168.1.0/24'],
    last_used_at: null,
    last_used_ip: null,
  });
  const state = () => readFileSync(router.path('/tmp/wrtapi/tokens/ops'), 'utf8');
  assert.match(state(), /^\d+(\.\d+)? \d+ \d+ 192\.168\.1\.100$/);
  const stamped = state().split(' ')[2];
  assert.is(config(router), minted, 'a read writes nothing under /etc');
  const second = await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(bearer), remote: '192.168.1.5' });
  assert.is((second.json as { last_used_ip: string }).last_used_ip, '192.168.1.100');
  assert.is((second.json as { last_used_at: number }).last_used_at, Number(stamped), 'epoch seconds, as stamped');
  assert.is(state().split(' ').slice(2).join(' '), `${stamped} 192.168.1.100`, 'no second stamp within 60 s');
  assert.is(config(router), minted);
  const listed = await router.token(['show', 'ops']);
  assert.match(listed.stdout, /last_used: +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ from 192\.168\.1\.100/);

  await router.mint('other', ['*:ro']);
  assert.match(config(router), new RegExp(`config token 'ops'\n[^]*?\toption last_used_at '${stamped}'\n\toption last_used_ip '192.168.1.100'\n`), 'the next token write keeps the stamp');
  assert.is(messages(router), '', 'reads are not logged');
});

test('a stamp that cannot be written never fails the request', async () => {
  const bearer = await router.mint('ops', ['*:ro']);
  // A live process (this test) holds the state file's mutex for the whole request.
  router.lock('/tmp/wrtapi/tokens/ops.lock');
  const response = await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(bearer) });
  assert.is(response.status, 200);
  assert.is((response.json as { last_used_at: null }).last_used_at, null);
  assert.not.ok(existsSync(router.path('/tmp/wrtapi/tokens/ops')));
  assert.not.match(config(router), /last_used_at/);
});

test('a revoked token answers 401 on the very next request, CLI or HTTP', async () => {
  const doomed = await router.mint('doomed', ['*:ro']);
  assert.is((await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(doomed) })).status, 200);
  assert.is((await router.token(['revoke', 'doomed'])).code, 0);
  assertUnauthenticated(await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(doomed) }), 'invalid_token');

  const admin = await router.mint('admin', ['*:rw']);
  const other = await router.mint('other', ['*:ro']);
  const deleted = await router.request({ method: 'DELETE', path: '/tokens/other', headers: bearerHeader(admin) });
  assert.is(deleted.status, 204);
  assert.is(deleted.body, '');
  assert.is(deleted.headers['content-type'], undefined);
  assertUnauthenticated(await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(other) }), 'invalid_token');
  assert.is((await router.request({ method: 'DELETE', path: '/tokens/other', headers: bearerHeader(admin) })).status, 404);
});

test('a bearer is checked first against the token its index bucket names; a stale or planted entry grants nothing', async () => {
  const index = router.path('/tmp/wrtapi/bearers');
  const entries = () => (existsSync(index) ? readdirSync(index).filter((name) => !name.startsWith('.')) : []);
  const whoami = async (bearer: string) => router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(bearer) });
  const first = await router.mint('first', ['*:ro']);
  const second = await router.mint('second', ['*:rw']);
  assert.equal(entries(), []);
  assert.is(((await whoami(second)).json as { token_id: string }).token_id, 'second');
  // The bucket is 16 bits of a hash of the bearer, and names the token that bearer matched.
  assert.equal(entries(), [bearerBucket(second)]);
  assert.match(bearerBucket(second), /^[0-9a-f]{1,4}$/);
  assert.is(readFileSync(join(index, bearerBucket(second)), 'utf8'), 'second');

  // Pointed at another token, the entry only changes which token is checked first.
  writeFileSync(join(index, bearerBucket(second)), 'first');
  assert.is(((await whoami(second)).json as { token_id: string }).token_id, 'second');
  assert.is(readFileSync(join(index, bearerBucket(second)), 'utf8'), 'second');
  const stranger = 'wrtapi_0123456789abcdef0123456789abcdef';
  writeFileSync(join(index, bearerBucket(stranger)), 'second');
  assertUnauthenticated(await whoami(stranger), 'invalid_token', 'Unknown token');

  // Revoked: its entries go with it. Minted again under the name: the old bearer is unknown, the new one works.
  assert.is(((await whoami(first)).json as { token_id: string }).token_id, 'first');
  assert.is((await router.token(['revoke', 'second'])).code, 0);
  assert.equal(entries(), [bearerBucket(first)]);
  const again = await router.mint('second', ['*:ro']);
  writeFileSync(join(index, bearerBucket(second)), 'second');
  assertUnauthenticated(await whoami(second), 'invalid_token');
  assert.is(((await whoami(again)).json as { token_id: string }).token_id, 'second');
});

test('scopes gate each route: insufficient_scope is 403 and logged as WARN', async () => {
  const firewall = await router.mint('fw', ['firewall:rw']);
  const reader = await router.mint('reader', ['*:ro']);
  const metrics = await router.request({ method: 'GET', path: '/metrics', headers: bearerHeader(firewall) });
  assert.is(metrics.status, 403);
  assert.is((metrics.json as { code: string }).code, 'insufficient_scope');
  assert.match(messages(router), new RegExp(`^daemon\\.warning wrtapi: ${metrics.headers['x-request-id']} fw WARN insufficient_scope GET /metrics 403 \\d+ms$`, 'm'));
  assert.is((await router.request({ method: 'GET', path: '/metrics', headers: bearerHeader(reader) })).status, 200);
  const tokensRead = await router.request({ method: 'GET', path: '/tokens', headers: bearerHeader(reader) });
  assert.is(tokensRead.status, 403, 'token endpoints need wrtapi:tokens:rw even to read');
  assert.is((await router.request({ method: 'GET', path: '/auth/whoami', headers: bearerHeader(firewall) })).status, 200, 'whoami needs no scope');
});


test('the secret audit every router ends with catches a leaked bearer', async () => {
  const leaky = await newRouter();
  const bearer = await leaky.mint('leaky', ['*:ro']);
  writeFileSync(leaky.path('/var/log/messages'), `daemon.notice wrtapi: oops ${bearer}\n`);
  let caught: unknown;
  try {
    await leaky.cleanup();
  } catch (error) {
    caught = error;
  }
  assert.match(String(caught), /a secret \(wrtapi_[0-9a-f]{3}\.\.\.\) leaked/);
});

test.run();
