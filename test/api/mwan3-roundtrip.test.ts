// The round trip of mwan3's configuration as its package ships it (openwrt/packages openwrt-24.10,
// net/mwan3/files/etc/config/mwan3): every section is read, PUT back as read, and the file keeps what
// mwan3 reads from it. The shipped file balances over `wan` and a second uplink `wanb` (and their
// IPv6 twins): it is valid on a router that has them, and the sections naming an interface netifd
// lacks are reported, and refused, on one that does not.
import { readFileSync, writeFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UciSection, UciValue } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { installDaemon } from '../support/daemons.js';

type Body = Record<string, any>;

const SHIPPED = readFileSync(new URL('../../../../test/fixtures/uci/upstream/mwan3', import.meta.url), 'utf8');
const SECOND_WAN = "\nconfig interface 'wanb'\n\toption device 'eth2'\n\toption proto 'dhcp'\n\nconfig interface 'wanb6'\n\toption device 'eth2'\n\toption proto 'dhcpv6'\n";
const COLLECTIONS: Record<string, number> = { 'mwan3/interfaces': 4, 'mwan3/members': 10, 'mwan3/policies': 5, 'mwan3/rules': 3 };

// Sections a LuCI-edited router has besides: lenient booleans (config_get_bool takes `yes`, the
// rules' sticky is tested with -eq 1 and logging with = "1"), and an option 2.11 no longer reads.
const EXTRA = `
config interface 'lan'
\toption enabled 'yes'
\toption initial_state 'offline'
\tlist track_ip 'openwrt.org'
\toption track_method 'httping'
\toption httping_ssl 'on'
\toption check_quality 'true'
\tlist flush_conntrack 'ifdown'

config rule 'guest_http'
\toption src_ip '192.168.2.0/24'
\toption proto 'udp'
\toption src_port '1024:65535'
\toption sticky 'yes'
\toption logging 'true'
\toption use_policy 'wan_only'
`;

// How mwan3 reads the options above: `shell` is config_get_bool, `one` a comparison with 1.
const SHELL = ['1', 'on', 'true', 'yes', 'enabled', '0', 'off', 'false', 'no', 'disabled'];
const READERS: Record<string, Record<string, 'shell' | 'one'>> = {
  globals: { source_routing: 'shell', logging: 'one' },
  interface: { enabled: 'shell', httping_ssl: 'shell', check_quality: 'shell', keep_failure_interval: 'shell' },
  rule: { sticky: 'one', logging: 'one' },
};

function meaning(section: UciSection) {
  const read = (option: string, value: UciValue) => {
    const reader = READERS[section.type]?.[option];
    if (typeof value !== 'string' || !reader) return value;
    return reader === 'one' ? value === '1' : SHELL.includes(value) ? SHELL.indexOf(value) < 5 : value;
  };
  return { name: section.name, type: section.type, options: Object.fromEntries([...section.options].map(([option, value]) => [option, read(option, value)])) };
}

let router: Router;
let auth: Record<string, string>;
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const mwan3 = () => readFileSync(router.path('/etc/config/mwan3'), 'utf8');

async function invalidSections(): Promise<Body[]> {
  const sweep = (await call({ method: 'GET', path: '/diagnostics?validate=1' })).json as Body;
  for (const resource of ['mwan3:globals', 'mwan3:interfaces', 'mwan3:members', 'mwan3:policies', 'mwan3:rules']) assert.ok(sweep.swept_resources.includes(resource), resource);
  return (sweep.invalid_sections as Body[]).filter((section) => section.resource.startsWith('mwan3'));
}

/** Every resource read (each item valid for the served response schema) and PUT back as read; the answers equal the reads. */
async function roundTrip(counts: Record<string, number>) {
  const document = (await call({ method: 'GET', path: '/openapi.json' })).json as Body;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  const schema = (resource: string) => ajv.compile({ $ref: `openapi.json#/components/schemas/${resource.split('/').map((word) => word[0].toUpperCase() + word.slice(1)).join('')}` });
  for (const [resource, count] of Object.entries(counts)) {
    const validate = schema(resource);
    const items = (await call({ method: 'GET', path: `/${resource}` })).json as Body[];
    assert.is(items.length, count, resource);
    for (const item of items) {
      assert.ok(validate(item), `${resource}/${item.id}: ${JSON.stringify(validate.errors)}`);
      const put = await call({ method: 'PUT', path: `/${resource}/${item.id}`, body: item });
      assert.is(put.status, 200, put.body);
      assert.equal(put.json, item);
    }
    assert.equal((await call({ method: 'GET', path: `/${resource}` })).json, items);
  }
  const globals = await call({ method: 'GET', path: '/mwan3/globals' });
  assert.ok(schema('mwan3/globals')(globals.json));
  const put = await call({ method: 'PUT', path: '/mwan3/globals', body: globals.json });
  assert.equal([put.status, put.headers.etag], [200, globals.headers.etag]);
}

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
  installDaemon(router, 'mwan3', ['mwan3']);
});
test.after.each(async () => {
  await router.cleanup();
});

test('shipped, on a router with wan and wanb: every section valid, and a PUT of each as read keeps the same UCI content', async () => {
  writeFileSync(router.path('/etc/config/network'), readFileSync(router.path('/etc/config/network'), 'utf8') + SECOND_WAN);
  assert.equal(await invalidSections(), []);
  const before = parseUci(SHIPPED).sections.map((section) => ({ name: section.name, type: section.type, options: Object.fromEntries(section.options) }));
  await roundTrip(COLLECTIONS);
  const after = parseUci(mwan3()).sections.map((section) => ({ name: section.name, type: section.type, options: Object.fromEntries(section.options) }));
  assert.equal(after, before);
});

test('with LuCI\'s spellings and an option 2.11 ignores: a round trip keeps what mwan3 reads', async () => {
  writeFileSync(router.path('/etc/config/network'), readFileSync(router.path('/etc/config/network'), 'utf8') + SECOND_WAN);
  writeFileSync(router.path('/etc/config/mwan3'), SHIPPED.replace("option mmx_mask '0x3F00'", "option mmx_mask '0x3F00'\n\toption local_source 'lan'") + EXTRA);
  assert.equal(await invalidSections(), []);
  const lan = (await call({ method: 'GET', path: '/mwan3/interfaces/lan' })).json as Body;
  assert.equal([lan.enabled, lan.httping_ssl, lan.check_quality], [true, true, true]);
  const rule = (await call({ method: 'GET', path: '/mwan3/rules/guest_http' })).json as Body;
  assert.equal([rule.sticky, rule.logging], [false, false], 'mwan3 tests sticky with -eq 1 and logging with = "1"');
  const before = parseUci(mwan3()).sections.map(meaning);
  await roundTrip({ ...COLLECTIONS, 'mwan3/interfaces': 5, 'mwan3/rules': 4 });
  const after = parseUci(mwan3()).sections.map(meaning);
  delete before[0].options.local_source;
  assert.equal(after, before);
});

test('shipped, on a stock router without wanb: the sections naming it are reported, and a PUT of one is refused', async () => {
  const invalid = await invalidSections();
  assert.equal(invalid.map((section) => [section.resource, section.id, section.errors.map((error: Body) => `${error.field}:${error.code}`)]), [
    ['mwan3:interfaces', 'wanb', ['id:conflict']],
    ['mwan3:interfaces', 'wanb6', ['id:conflict']],
  ]);
  const wanb = (await call({ method: 'GET', path: '/mwan3/interfaces/wanb' })).json as Body;
  const refused = await call({ method: 'PUT', path: '/mwan3/interfaces/wanb', body: wanb });
  assert.is(refused.status, 422);
  assert.is(mwan3(), SHIPPED);
  assert.is((await call({ method: 'PATCH', path: '/mwan3/interfaces/wan', body: { reliability: 1 } })).status, 200, 'wan exists');
});

test.run();
