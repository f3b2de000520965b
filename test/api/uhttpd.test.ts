// uhttpd/instances and uhttpd/certs through the CGI path: the UCI text each write puts in
// /etc/config/uhttpd, the uhttpd reload, refused writes that change nothing, the self-lockout
// protection of instance `main` while it serves this API, the missing init script, and the round
// trip of the stock file and of the file as the uhttpd package ships it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

// The file of a stock OpenWrt 24.10, before wrtapi's package adds its alias.
const STOCK = readFileSync(new URL('../../../../shims/emu/seed/etc/config/uhttpd', import.meta.url), 'utf8');
// The file as the uhttpd package of OpenWrt 24.10.2 ships it (files/uhttpd.config).
const SHIPPED = readFileSync(new URL('../../../../test/fixtures/uci/upstream/uhttpd', import.meta.url), 'utf8');
const API_ALIAS = '/api/v3=/cgi-bin/wrtapi';
const MAIN = {
  id: 'main', managed: true, listen_http: ['0.0.0.0:80', '[::]:80'], listen_https: ['0.0.0.0:443', '[::]:443'], redirect_https: true, home: '/www',
  rfc1918_filter: true, max_requests: 3, max_connections: 100, cert: '/etc/uhttpd.crt', key: '/etc/uhttpd.key', cgi_prefix: '/cgi-bin',
  lua_prefix: ['/cgi-bin/luci=/usr/lib/lua/luci/sgi/uhttpd.lua'], script_timeout: 60, network_timeout: 30, http_keepalive: 20, tcp_keepalive: 1,
  ubus_prefix: '/ubus', ucode_prefix: ['/cgi-bin/luci=/usr/share/ucode/luci/uhttpd.uc'], httpauth: [], index_page: [], alias: ['/api/v3=/cgi-bin/wrtapi'], interpreter: [], json_script: [],
};
const DEFAULTS = { id: 'defaults', managed: true, days: 730, key_type: 'rsa', bits: 2048, ec_curve: 'P-256', country: 'ZZ', state: 'Somewhere', location: 'Unknown', commonname: '%D' };

let router: Router;
let authorization: string;
/** The router's file as wrtapi's package left it: STOCK and the alias. */
let wired: string;
const { call, refused, initLog, ...checks } = writeChecks(() => ({ router, authorization }));
const written = (request: RequestOptions) => checks.written(request, ['uhttpd']);
const uhttpd = () => readFileSync(router.path('/etc/config/uhttpd'), 'utf8');
const section = (name: string) => parseUci(uhttpd()).sections.find((candidate) => candidate.name === name);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
  wired = uhttpd();
});
test.after.each(async () => {
  await router.cleanup();
});

test('uhttpd/instances: the stock main instance; a second instance created, patched, replaced and deleted', async () => {
  assert.equal((await call({ method: 'GET', path: '/uhttpd/instances' })).json, [MAIN]);
  mkdirSync(router.path('/srv/www'), { recursive: true });
  const body = { id: 'local', listen_http: ['127.0.0.1:8080'], home: '/srv/www', index_page: ['index.html', 'index.cgi'], interpreter: ['.cgi=/bin/sh'], no_dirlists: true };
  const local = await written({ method: 'POST', path: '/uhttpd/instances', body });
  assert.equal(local, { ...body, managed: true, listen_https: [], lua_prefix: [], ucode_prefix: [], httpauth: [], alias: [], json_script: [] });
  const appended = "config uhttpd 'local'\n\tlist listen_http '127.0.0.1:8080'\n\toption home '/srv/www'\n\toption no_dirlists '1'\n\tlist index_page 'index.html'\n" +
    "\tlist index_page 'index.cgi'\n\tlist interpreter '.cgi=/bin/sh'\n\n";
  assert.is(uhttpd(), wired + appended);
  await written({ method: 'PATCH', path: '/uhttpd/instances/local', body: { enabled: false, listen_http: ['[::1]:8080'], index_page: null } });
  assert.equal(Object.fromEntries(section('local')!.options), {
    enabled: '0', listen_http: ['[::1]:8080'], home: '/srv/www', no_dirlists: '1', interpreter: ['.cgi=/bin/sh'],
  });
  await written({ method: 'PUT', path: '/uhttpd/instances/local', body: { listen_http: ['8081'], max_requests: 1 } });
  assert.equal(Object.fromEntries(section('local')!.options), { listen_http: ['8081'], max_requests: '1' });
  await written({ method: 'DELETE', path: '/uhttpd/instances/local' });
  assert.is(uhttpd(), wired);
  assert.equal(initLog(), ['uhttpd reload', 'uhttpd reload', 'uhttpd reload', 'uhttpd reload']);
});

test('uhttpd/instances: values uhttpd exits on or the shell would split are a 422 that changes nothing', async () => {
  await refused({
    method: 'POST',
    path: '/uhttpd/instances',
    body: {
      listen_http: ['0.0.0.0:65536', 'lan:80'], listen_https: ['::1:443'], error_page: 'missing.html', index_page: ['/index.html'],
      interpreter: ['php=/usr/bin/php-cgi'], alias: ['/a b=/c'], max_requests: -1, httpauth: ['nosuch'],
    },
  }, 422, [
    'alias[0]:invalid_format', 'error_page:invalid_format', 'httpauth[0]:conflict', 'index_page[0]:invalid_format', 'interpreter[0]:invalid_format',
    'listen_http[0]:invalid_format', 'listen_https[0]:invalid_format', 'max_requests:out_of_range',
  ]);
  await refused({ method: 'PATCH', path: '/uhttpd/instances/main', body: { json_script: ['/usr/share/*.json'], rfc1918_filter: 'yes' } }, 422, [
    'json_script[0]:invalid_format', 'rfc1918_filter:invalid_type',
  ]);
});

test('self-lockout: while main serves this API, deleting it or taking away what serves the API is refused', async () => {
  const deleted = await refused({ method: 'DELETE', path: '/uhttpd/instances/main' }, 409, 'conflict');
  assert.match(deleted.message, 'uhttpd/instances/main cannot be deleted: uhttpd serves this API through instance main');
  const raw = await refused({ method: 'DELETE', path: '/raw/uhttpd/main' }, 409, 'conflict');
  assert.match(raw.message, 'uhttpd/main cannot be deleted: uhttpd serves this API through instance main');
  const cases: [Body, string[]][] = [
    [{ alias: [] }, ['alias:conflict']],
    [{ alias: [API_ALIAS, '/api=/cgi-bin/other'] }, ['alias:conflict']],
    [{ cgi_prefix: '/cgi', enabled: false }, ['cgi_prefix:conflict', 'enabled:conflict']],
    [{ cgi_prefix: null, home: '/tmp' }, ['cgi_prefix:conflict', 'home:conflict']],
    [{ listen_https: [] }, ['listen_https:conflict']],
    [{ ucode_prefix: ['/cgi-bin=/usr/share/ucode/x.uc'], ubus_prefix: '/cgi-bin/wrtapi/api' }, ['ubus_prefix:conflict', 'ucode_prefix[0]:conflict']],
  ];
  for (const [patch, errors] of router.engine === 'wasm' ? cases.slice(0, 4) : cases) {
    const body = await refused({ method: 'PATCH', path: '/uhttpd/instances/main', body: patch }, 422, errors);
    assert.match(body.errors[0].message, 'instance main serves this API');
  }
  // Raw passthrough is held to the same guard, on the section as its resource reads it.
  const rawBody = await refused({ method: 'PATCH', path: '/raw/uhttpd/main', body: { options: { alias: null, cgi_prefix: '/cgi' } } }, 422, ['options.alias:conflict', 'options.cgi_prefix:conflict']);
  assert.match(rawBody.errors[0].message, 'instance main serves this API');
  const stored = (await call({ method: 'GET', path: '/raw/uhttpd/main' })).json as Body;
  await refused({ method: 'PUT', path: '/raw/uhttpd/main', body: { ...stored, options: { ...(stored.options as Body), enabled: '0' } } }, 422, ['options.enabled:conflict']);
  await refused(
    { method: 'PATCH', path: '/raw/uhttpd/main', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/options/alias', value: ['/api/v3=/cgi-bin/other'] }]) },
    422,
    ['options.alias:conflict'],
  );
  // Inside a batch, curated or raw, the operation fails the whole batch, which changes nothing.
  for (const [operation, errors] of [
    [{ method: 'PATCH', path: '/uhttpd/instances/main', body: { cgi_prefix: '/cgi' } }, ['cgi_prefix:conflict']],
    [{ method: 'PATCH', path: '/raw/uhttpd/main', body: { options: { alias: null } } }, ['options.alias:conflict']],
  ] as const) {
    const batch = await refused({ method: 'POST', path: '/batch', body: { operations: [{ method: 'PATCH', path: '/system', body: { hostname: 'kept' } }, operation] } }, 422, 'batch_partial_failure');
    assert.is(batch.aborted_at_index, 1);
    assert.equal(batch.error.errors.map((error: Body) => `${error.field}:${error.code}`), errors);
  }
  const kept = await call({ method: 'PATCH', path: '/raw/uhttpd/main', body: { options: { max_requests: '5' } } });
  assert.is(kept.status, 200, kept.body);
  assert.is(section('main')!.options.get('max_requests'), '5');
  // What keeps the API served goes through: another alias first, a trailing slash, no plain HTTP.
  await written({ method: 'PATCH', path: '/uhttpd/instances/main', body: { alias: ['/files=/srv', API_ALIAS], cgi_prefix: '/cgi-bin/', listen_http: [] } });
  const main = (await call({ method: 'GET', path: '/uhttpd/instances/main' })).json as Body;
  await written({ method: 'PUT', path: '/uhttpd/instances/main', body: main });
  // Another instance is not protected.
  await written({ method: 'POST', path: '/uhttpd/instances', body: { id: 'other', listen_http: ['8080'], alias: [API_ALIAS] } });
  await written({ method: 'PATCH', path: '/uhttpd/instances/other', body: { alias: [] } });
});

test('self-lockout: a main that does not serve this API (no alias: wrtapi not wired) has nothing to protect', async () => {
  writeFileSync(router.path('/etc/config/uhttpd'), STOCK);
  await written({ method: 'PATCH', path: '/uhttpd/instances/main', body: { cgi_prefix: '/cgi', listen_https: [] } });
  assert.is(section('main')!.options.get('cgi_prefix'), '/cgi');
});

test('without /etc/init.d/uhttpd a write to an instance other than main is 503 init_script_missing and changes nothing', async () => {
  await written({ method: 'POST', path: '/uhttpd/instances', body: { id: 'other', listen_http: ['8080'] } });
  rmSync(router.path('/etc/init.d/uhttpd'));
  const created = await refused({ method: 'POST', path: '/uhttpd/instances', body: { id: 'local', listen_http: ['8081'] } }, 503, 'init_script_missing');
  assert.match(created.message, '/etc/init.d/uhttpd');
  await refused({ method: 'PATCH', path: '/uhttpd/instances/other', body: { listen_http: ['8082'] } }, 503, 'init_script_missing');
  await refused({ method: 'DELETE', path: '/uhttpd/instances/other' }, 503, 'init_script_missing');
  assert.is((await call({ method: 'GET', path: '/uhttpd/instances/other' })).status, 200);
});

test('uhttpd/certs: the stock defaults; a write of the subject and key parameters; values px5g would misread are refused', async () => {
  assert.equal((await call({ method: 'GET', path: '/uhttpd/certs' })).json, [DEFAULTS]);
  const ec = await written({ method: 'PATCH', path: '/uhttpd/certs/defaults', body: { days: 397, key_type: 'ec', organization: 'Example Ltd' } });
  assert.equal(ec, { ...DEFAULTS, days: 397, key_type: 'ec', organization: 'Example Ltd' });
  assert.ok(uhttpd().endsWith("config cert 'defaults'\n\toption days '397'\n\toption key_type 'ec'\n\toption bits '2048'\n\toption ec_curve 'P-256'\n" +
    "\toption country 'ZZ'\n\toption state 'Somewhere'\n\toption location 'Unknown'\n\toption commonname '%D'\n\toption organization 'Example Ltd'\n\n"));
  await refused({ method: 'PATCH', path: '/uhttpd/certs/defaults', body: { country: 'ZZZ', commonname: 'a/b', state: 'x,y', days: 0, key_type: 'dsa', bits: 512 } }, 422, [
    'bits:out_of_range', 'commonname:invalid_format', 'country:invalid_format', 'days:out_of_range', 'key_type:not_in_enum', 'state:invalid_format',
  ]);
  const created = await written({ method: 'POST', path: '/uhttpd/certs', body: { commonname: 'router.lan' } });
  assert.match(created.id, /^x_[0-9A-HJKMNP-TV-Z]{26}$/);
  await written({ method: 'DELETE', path: `/uhttpd/certs/${created.id}` });
});

test('round trip: the stock file, the wired one and the file as the package ships it read and PUT back unchanged in meaning', async () => {
  const texts = router.engine === 'wasm' ? [SHIPPED, wired] : [STOCK, SHIPPED, wired];
  for (const text of texts) {
    writeFileSync(router.path('/etc/config/uhttpd'), text);
    const before = parseUci(text).sections.map(({ type, name, options }) => ({ type, name, options: Object.fromEntries(options) }));
    for (const resource of ['instances', 'certs']) {
      for (const item of (await call({ method: 'GET', path: `/uhttpd/${resource}` })).json as Body[]) {
        assert.equal(await written({ method: 'PUT', path: `/uhttpd/${resource}/${item.id}`, body: item }), item);
      }
    }
    const after = parseUci(uhttpd()).sections.map(({ type, name, options }) => ({ type, name, options: Object.fromEntries(options) }));
    // The shipped file spells lists and numbers as options without quotes; uci commit's form quotes them.
    assert.equal(after, before);
  }
  const sweep = (await call({ method: 'GET', path: '/diagnostics?validate=1' })).json as Body;
  assert.equal(sweep.invalid_sections.filter((entry: Body) => entry.resource.startsWith('uhttpd')), []);
});

test.run();
