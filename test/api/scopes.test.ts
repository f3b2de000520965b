import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

let router: Router;
let ruleId: string;
test.before(async () => {
  router = await newRouter();
  const admin = await router.mint('admin', ['*:rw']);
  const created = await router.request({
    method: 'POST',
    path: '/firewall/rules',
    headers: { authorization: `Bearer ${admin}` },
    body: { name: 'Scoped', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['22'] } },
  });
  ruleId = (created.json as { id: string }).id;
});
test.after(async () => {
  await router.cleanup();
});

let tokens = 0;
/** What a token holding `scopes` gets for a GET and for a PATCH of the firewall rule. */
async function verdicts(scopes: string[]): Promise<{ get: number; patch: number }> {
  const bearer = await router.mint(`t${tokens++}`, scopes);
  const headers = { authorization: `Bearer ${bearer}` };
  const get = await router.request({ method: 'GET', path: `/firewall/rules/${ruleId}`, headers });
  const patch = await router.request({ method: 'PATCH', path: `/firewall/rules/${ruleId}`, headers, body: { name: 'Scoped' } });
  for (const response of [get, patch]) {
    if (response.status === 403) assert.is((response.json as { code: string }).code, 'insufficient_scope');
  }
  return { get: get.status, patch: patch.status };
}

test("the spec's scope examples for a request to a firewall rule, through the CGI path", async () => {
  assert.equal(await verdicts(['*:rw']), { get: 200, patch: 200 });
  assert.equal(await verdicts(['firewall:rw']), { get: 200, patch: 200 });
  assert.equal(await verdicts(['firewall:rules:rw']), { get: 200, patch: 200 });
  assert.equal(await verdicts(['firewall:zones:rw']), { get: 403, patch: 403 });
  assert.equal(await verdicts(['*:rw', 'firewall:rules:ro']), { get: 200, patch: 403 });
  assert.equal(await verdicts(['firewall:ro', 'firewall:rules:rw']), { get: 200, patch: 200 });
  assert.equal(await verdicts(['firewall:*:ro']), { get: 200, patch: 403 });
  assert.equal(await verdicts(['*:rules:ro']), { get: 200, patch: 403 });
  assert.equal(await verdicts(['*:ro']), { get: 200, patch: 403 });
  assert.equal(await verdicts(['network:rw']), { get: 403, patch: 403 });
});

test('the error ring keeps the last 20 envelopes, oldest dropped first', async () => {
  const ids: string[] = [];
  const authorization = `Bearer ${await router.mint('reader', ['*:ro'])}`;
  for (let i = 0; i < 23; i++) {
    const response = await router.request({ method: 'GET', path: `/missing/${i}`, headers: { authorization } });
    ids.push(response.headers['x-request-id']);
  }
  const directory = router.path('/tmp/wrtapi/errors');
  const entries = readdirSync(directory)
    .sort()
    .map((name) => JSON.parse(readFileSync(`${directory}/${name}`, 'utf8')));
  assert.is(entries.length, 20);
  assert.equal(entries.map((entry) => entry.request_id), ids.slice(-20));
  assert.equal(Object.keys(entries[0]).sort(), ['code', 'message', 'method', 'path', 'request_id', 'status', 'ts']);
  assert.equal({ code: entries[19].code, status: entries[19].status, method: entries[19].method, path: entries[19].path }, {
    code: 'not_found',
    status: 404,
    method: 'GET',
    path: '/missing/22',
  });
});

test('the token CLI keeps working while ubus is down', async () => {
  writeFileSync(router.path('/var/emu/ubus-down'), '');
  const created = await router.token(['create', '--name', 'offline', '--scope', '*:ro']);
  assert.is(created.code, 0, created.stderr);
  assert.is((await router.token(['list'])).code, 0);
  assert.is((await router.token(['revoke', 'offline'])).code, 0);
});

test.run();
