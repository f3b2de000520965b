import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

// What a hostile or broken client sends: bodies nested past any resource, bytes that are not UTF-8,
// bodies past the size limit, NUL and bad escapes in the path and query, empty query forms. Every
// one answers 400 in the error envelope before anything runs, and changes no file.
let router: Router;
let authorization: string;
test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('hostile', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

const call = (options: RequestOptions) => router.request({ ...options, headers: { authorization, ...options.headers } });

function assertRefused(response: Response, message: RegExp): void {
  assert.is(response.status, 400, response.body);
  const body = response.json as { code: string; message: string; request_id: string };
  assert.is(body.code, 'bad_request');
  assert.match(body.message, message);
  assert.is(body.request_id, response.headers['x-request-id']);
}

const RULE = { name: 'Hostile', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['22'] } };
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedList = (depth: number) => '['.repeat(depth) + '"x"' + ']'.repeat(depth);

test('JSON nested past 32 levels is 400 on POST, PUT, merge PATCH and JSON Patch, collections and the singleton alike', async () => {
  const created = await call({ method: 'POST', path: '/firewall/rules', body: RULE });
  const id = (created.json as { id: string }).id;
  const before = router.snapshot();
  const bodies = [`{"name": ${nested(300)}}`, `{"match": {"src_ip": ${nestedList(300)}}}`, nested(33)];
  for (const body of bodies) {
    for (const [method, path] of [['POST', '/firewall/rules'], ['PUT', `/firewall/rules/${id}`], ['PATCH', `/firewall/rules/${id}`], ['PUT', '/firewall/defaults'], ['PATCH', '/firewall/defaults']]) {
      assertRefused(await call({ method, path, body, headers: { 'content-type': 'application/json' } }), /nests deeper than 32 levels/);
    }
    const patch = `[{"op": "add", "path": "/name", "value": ${body}}]`;
    assertRefused(await call({ method: 'PATCH', path: `/firewall/rules/${id}`, body: patch, headers: { 'content-type': 'application/json-patch+json' } }), /nests deeper/);
  }
  assert.equal(router.snapshot(), before);
  // 32 levels still parse: the body is refused by the schema, not the parser.
  const deepest = await call({ method: 'POST', path: '/firewall/rules', body: `{"name": ${nested(31)}}`, headers: { 'content-type': 'application/json' } });
  assert.is(deepest.status, 422, deepest.body);
});

test('a body that is not well-formed UTF-8 is 400 and stores nothing; well-formed text is stored byte for byte', async () => {
  const before = router.snapshot();
  const sequences = ['c0ae', 'eda080', 'fe', 'e282', 'f4908080', 'e080af', 'f0828282', 'c3', '80'];
  for (const hex of sequences) {
    const body = Buffer.concat([Buffer.from('{"name": "'), Buffer.from(hex, 'hex'), Buffer.from('fzr", "target": "ACCEPT", "match": {"src_zone": "wan"}}')]);
    assertRefused(await call({ method: 'POST', path: '/firewall/rules', body, headers: { 'content-type': 'application/json' } }), /not well-formed UTF-8/);
  }
  // A raw NUL byte in a string is the JSON parser's to refuse, as a character.
  const nul = Buffer.concat([Buffer.from('{"name": "a'), Buffer.from([0]), Buffer.from('b", "target": "ACCEPT", "match": {"src_zone": "wan"}}')]);
  assertRefused(await call({ method: 'POST', path: '/firewall/rules', body: nul, headers: { 'content-type': 'application/json' } }), /Malformed JSON: .*character/);
  assert.equal(router.snapshot(), before);
  const text = 'Zoë → 😀 €';
  const stored = await call({ method: 'POST', path: '/firewall/rules', body: { ...RULE, id: 'utf8', name: text } });
  assert.is(stored.status, 200, stored.body);
  assert.is((stored.json as { name: string }).name, text);
  assert.ok(readFileSync(router.path('/etc/config/firewall')).includes(Buffer.from(`\toption name '${text}'\n`)));
});

test('a body past 64 KiB is 400 before it is read', async () => {
  const before = router.snapshot();
  const body = JSON.stringify({ ...RULE, name: 'x'.repeat(65536) });
  assertRefused(await call({ method: 'POST', path: '/firewall/rules', body }), /larger than 65536 bytes/);
  assert.equal(router.snapshot(), before);
});

test('NUL, bad escapes and bad UTF-8 in the path or the query are 400, through the CGI path and the HTTP server', async () => {
  for (const path of ['/firewall/rules/%00', '/firewall/rules/a%00b', '/firewall/rules/%c0%ae', '/firewall/rules?cursor=c_%00', '/firewall/rules?limit=%ff']) {
    assertRefused(await call({ method: 'GET', path }), /control character|percent-encoding or UTF-8/);
  }
  const base = await router.serve();
  for (const path of ['/firewall/rules/%00', '/firewall/rules/a%00b', '/firewall/rules?managed=%00']) {
    const response = await fetch(base + path, { headers: { authorization } });
    assert.is(response.status, 400, path);
    assert.is(((await response.json()) as { code: string }).code, 'bad_request');
  }
});

test('a body where none is expected is 400, and If-Match on a create 412, before anything changes', async () => {
  const created = await call({ method: 'POST', path: '/firewall/rules', body: RULE });
  const id = (created.json as { id: string }).id;
  const [stock] = (await call({ method: 'GET', path: '/firewall/rules?managed=false&limit=1' })).json as { id: string }[];
  const before = router.snapshot();
  for (const [method, path, body] of [
    ['DELETE', `/firewall/rules/${id}`, 'not json at all'],
    ['GET', '/system', '{"a":1}'],
    ['POST', `/firewall/rules/${stock.id}/adopt`, '{"garbage":1}'],
    ['DELETE', `/raw/firewall/${id}`, '{}'],
  ]) {
    assertRefused(await call({ method, path, body, headers: { 'content-type': 'application/json' } }), /takes no body/);
  }
  const batch = await call({ method: 'POST', path: '/batch', body: { operations: [{ method: 'DELETE', path: `/firewall/rules/${id}`, body: { x: 1 } }] } });
  assert.is(batch.status, 400, batch.body);
  for (const path of ['/firewall/rules', '/raw/firewall']) {
    const body = path === '/raw/firewall' ? { type: 'rule', options: { name: 'x' } } : RULE;
    for (const condition of ['*', created.headers.etag]) assert.is((await call({ method: 'POST', path, query: { if_match: condition }, body })).status, 412, `${path} if_match ${condition}`);
  }
  assert.equal(router.snapshot(), before, 'every file under /etc as it was');
  // If-None-Match holds on a create: nothing exists yet that it could match.
  assert.is((await call({ method: 'POST', path: '/firewall/rules', query: { if_none_match: '*' }, body: RULE })).status, 200);
});

test('empty query forms are absent: no idempotency key, no cursor, no request id, no condition', async () => {
  const first = await call({ method: 'POST', path: '/firewall/rules?idempotency_key=', body: RULE });
  const second = await call({ method: 'POST', path: '/firewall/rules?idempotency_key=', body: RULE });
  assert.is(first.status, 200);
  assert.is(second.status, 200);
  assert.is(second.headers['idempotent-replayed'], undefined);
  assert.is.not((first.json as { id: string }).id, (second.json as { id: string }).id);
  const page = await call({ method: 'GET', path: '/firewall/rules?cursor=&limit=' });
  assert.is(page.status, 200, page.body);
  assert.equal(page.json, (await call({ method: 'GET', path: '/firewall/rules' })).json, 'the first page, at the default size');
  const generated = await call({ method: 'GET', path: '/firewall/rules?request_id=' });
  assert.match(generated.headers['x-request-id'], /^[0-9A-HJKMNP-TV-Z]{26}$/);
  const id = (first.json as { id: string }).id;
  const unconditional = await call({ method: 'PATCH', path: `/firewall/rules/${id}?if_match=&if_none_match=`, body: { name: 'Patched' } });
  assert.is(unconditional.status, 200, unconditional.body);
  // `c_` with no id is given, and names no item.
  const bare = await call({ method: 'GET', path: '/firewall/rules?cursor=c_' });
  assert.is(bare.status, 400);
  assert.is((bare.json as { code: string }).code, 'invalid_cursor');
});

test.run();
