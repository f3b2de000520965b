// The text rule through the CGI path (src/http/text.ts): a string that a configuration file cannot
// hold is refused wherever a request brings it (a curated field, a list item, a JSON Patch value, a
// raw option, a batch operation, the query), the files stay byte for byte as they were, and what
// libuci does hold (tab, LF, CR) is written and read back as sent.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runProgram } from '../../shims/emu/engines.js';
import { bundleDir } from '../../shims/emu/project.js';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, refused } = writeChecks(() => ({ router, authorization }));

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

test('every pattern the bundle ships compiles on this engine (QuickJS refuses some escapes V8 takes)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrtapi-patterns-'));
  try {
    const program = join(dir, 'patterns.js');
    writeFileSync(
      program,
      `import { pattern } from '${bundleDir}/docs/patterns.js';\n` +
        'const failed = [];\nlet count = 0;\n' +
        // Past the last pattern, spelling one throws.
        'for (;; count++) { let source; try { source = pattern(count); } catch { break; } if (source === undefined) break; try { new RegExp(source, "u"); } catch (error) { failed.push(source); } }\n' +
        'print(JSON.stringify({ count, failed }));\n',
    );
    const run = await runProgram({ root: router.root, engine: router.engine, program });
    const { count, failed } = JSON.parse(run.stdout) as { count: number; failed: string[] };
    assert.equal(failed, []);
    assert.ok(count > 100, `${count} patterns`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a NUL, a control character or an unpaired surrogate is 422 invalid_format at the field, and nothing is written', async () => {
  const cases: [RequestOptions, string[]][] = [
    // The two findings: a NUL in uhttpd's home, an unpaired surrogate in a firewall rule.
    [{ method: 'POST', path: '/uhttpd/instances', body: { listen_http: ['8080'], home: '/www\u0000x' } }, ['home:invalid_format']],
    [{ method: 'POST', path: '/firewall/rules', body: { name: 'a\ud800b', target: 'ACCEPT', match: { src_zone: 'wan' } } }, ['name:invalid_format']],
    [{ method: 'POST', path: '/firewall/forwardings', body: { name: 'x\udc00', src: 'lan', dest: 'wan' } }, ['name:invalid_format']],
    [{ method: 'PATCH', path: '/system', body: { hostname: 'host\u0001' } }, ['hostname:invalid_format']],
    [{ method: 'PATCH', path: '/network/interfaces/lan', body: { dns_search: ['lan', 'x\u001by'] } }, ['dns_search[1]:invalid_format']],
    [{ method: 'POST', path: '/dhcp/hosts', body: { name: 'pc', ip: '192.168.1.50', macs: ['52:54:00:12:34:56'], tag: ['ok', 'bad\u000b'] } }, ['tag[1]:invalid_format']],
    [
      { method: 'PATCH', path: '/system', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/timezone', value: 'U\u0000TC' }]) },
      ['timezone:invalid_format'],
    ],
    [{ method: 'PATCH', path: '/raw/network/lan', body: { options: { ip6assign: '60\u0007', dns: ['1.1.1.1', '\udbff'] } } }, ['options.dns:invalid_format', 'options.ip6assign:invalid_format']],
    [
      { method: 'PATCH', path: '/raw/network/lan', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'add', path: '/options/x', value: 'a\u0000' }]) },
      ['options.x:invalid_format'],
    ],
  ];
  for (const [request, errors] of router.engine === 'wasm' ? cases.filter((_, i) => i % 2 === 0) : cases) {
    const envelope = await refused(request, 422, errors);
    assert.match(envelope.errors.find((error: Body) => error.code === 'invalid_format').message, 'control character');
  }
  const batch = await refused(
    { method: 'POST', path: '/batch', body: { operations: [{ method: 'PATCH', path: '/system', body: { hostname: 'fine' } }, { method: 'PATCH', path: '/system', body: { timezone: 'UTC\u0000' } }] } },
    422,
    'batch_partial_failure',
  );
  assert.is(batch.aborted_at_index, 1);
  assert.equal(batch.error.errors.map((error: Body) => `${error.field}:${error.code}`), ['timezone:invalid_format']);
  const operationMatch = await refused({ method: 'POST', path: '/batch', body: { operations: [{ method: 'DELETE', path: '/firewall/rules/x', if_match: '*\u0001' }] } }, 422, ['operations[0].if_match:invalid_format']);
  assert.match(operationMatch.message, 'batch');
});

test('a query or path holding one is 400, before anything runs', async () => {
  const before = router.snapshot();
  for (const path of ['/firewall/rules?cursor=c_%01', '/system?request_id=abcdefgh%1f', '/raw/network/lan%0b', '/firewall/rules?managed=%ED%A0%80']) {
    const response = await call({ method: 'GET', path });
    assert.is(response.status, 400, `${path}: ${response.body}`);
    assert.is((response.json as Body).code, 'bad_request');
  }
  const write = await call({ method: 'PATCH', path: '/system?if_match=%00', body: { hostname: 'x' } });
  assert.is(write.status, 400);
  assert.equal(router.snapshot(), before);
});

test('tab, LF and CR are text: written as uci commit writes them, read back as sent, through curated and raw writes', async () => {
  const value = 'line one\n\tline two\r\nend';
  const raw = await call({ method: 'PATCH', path: '/raw/network/lan', body: { options: { multi: value } } });
  assert.is(raw.status, 200, raw.body);
  assert.is((raw.json as Body).options.multi, value);
  assert.match(readFileSync(router.path('/etc/config/network'), 'utf8'), `\toption multi '${value}'\n`);
  assert.is(parseUci(readFileSync(router.path('/etc/config/network'), 'utf8')).sections.find((section) => section.name === 'lan')!.options.get('multi'), value);
  assert.is(((await call({ method: 'GET', path: '/raw/network/lan' })).json as Body).options.multi, value);
  // The sections after it still read: the value did not end its line.
  assert.equal(((await call({ method: 'GET', path: '/network/interfaces' })).json as Body[]).map((item) => item.id), ['loopback', 'lan', 'wan', 'wan6']);
});

test.run();
