// network/routes, rules, devices and bridge_vlans through the CGI path: what lands in
// /etc/config/network, the reloads, the headers, and every refusal with the file set untouched.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

let router: Router;
let auth: Record<string, string>;
const network = () => readFileSync(router.path('/etc/config/network'), 'utf8');
const initLog = () => (existsSync(router.path('/var/log/init.log')) ? readFileSync(router.path('/var/log/init.log'), 'utf8').split('\n').filter(Boolean) : []);
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();
const sections = () => parseUci(network()).sections;
const section = (name: string) => sections().find((candidate) => candidate.name === name);
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/** A 200 write: its body, with the reload headers every network write carries. */
async function written(options: RequestOptions): Promise<Body> {
  const response = await call(options);
  assert.is(response.status, 200, `${options.method} ${options.path}: ${response.body}`);
  assert.match(response.headers.etag, /^"[0-9a-f]{16}"$/);
  assert.is(response.headers['x-reload-status'], 'ok');
  assert.is(response.headers['x-reload-services'], 'network');
  return response.json as Body;
}

/** A refused write: its status, code and field errors, and not one byte changed under /etc, nothing reloaded. */
async function refused(options: RequestOptions, status: number, expected: string, fields?: string[]): Promise<Response> {
  const before = router.snapshot();
  const reloads = initLog().length;
  const response = await call(options);
  const label = `${options.method} ${options.path} ${JSON.stringify(options.body)}`;
  assert.is(response.status, status, `${label}: ${response.body}`);
  const body = response.json as Body;
  assert.is(body.code, expected, label);
  assert.type(body.message, 'string');
  assert.is(body.request_id, response.headers['x-request-id']);
  assert.is(response.headers['content-type'], 'application/json');
  if (fields) {
    assert.equal(fieldErrors(response), [...fields].sort(), label);
    for (const error of body.errors as Body[]) assert.ok(error.message.length > 0, label);
  } else assert.is(body.errors, undefined, label);
  assert.equal(router.snapshot(), before, `${label}: files under /etc changed`);
  assert.is(initLog().length, reloads, `${label}: reloaded`);
  return response;
}

const ROUTE = { family: 'ipv4', interface: 'lan', target: '10.0.0.0/8', gateway: '192.168.1.2' };
const ROUTE6 = { family: 'ipv6', interface: 'lan', target: 'fd00:1::/64', gateway: 'fd4c:7e19:a3b2::2' };

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  await router.cleanup();
});

test('routes: family picks the section type, route or route6, and is read back from it', async () => {
  const v4 = await written({ method: 'POST', path: '/network/routes', body: ROUTE });
  assert.match(v4.id, new RegExp(`^r_${ULID}$`));
  assert.equal(v4, { ...ROUTE, id: v4.id, managed: true });
  assert.ok(network().endsWith(`\nconfig route '${v4.id}'\n\toption interface 'lan'\n\toption target '10.0.0.0/8'\n\toption gateway '192.168.1.2'\n\n`), network());
  const v6 = await written({ method: 'POST', path: '/network/routes', body: ROUTE6 });
  assert.ok(network().endsWith(`\nconfig route6 '${v6.id}'\n\toption interface 'lan'\n\toption target 'fd00:1::/64'\n\toption gateway 'fd4c:7e19:a3b2::2'\n\n`), network());
  assert.not.match(network(), /option family/);
  assert.equal(initLog(), ['network reload', 'network reload']);
  const list = await call({ method: 'GET', path: '/network/routes' });
  assert.equal(list.json, [v4, v6]);
  const one = await call({ method: 'GET', path: `/network/routes/${v6.id}` });
  assert.equal(one.json, { ...ROUTE6, id: v6.id, managed: true });
  assert.match(one.headers.etag, /^"[0-9a-f]{16}"$/);
  const deleted = await call({ method: 'DELETE', path: `/network/routes/${v4.id}` });
  assert.is(deleted.status, 204);
  assert.is(deleted.headers['x-reload-services'], 'network');
  assert.is(section(v4.id), undefined);
  assert.equal(((await call({ method: 'GET', path: '/network/routes' })).json as Body[]).map((route) => route.id), [v6.id]);
});

test('routes: changing family retypes the section in place, same id and position, and needs addresses of the new family', async () => {
  const first = await written({ method: 'POST', path: '/network/routes', body: ROUTE });
  const second = await written({ method: 'POST', path: '/network/routes', body: { ...ROUTE, target: '10.1.0.0/16' } });
  const path = `/network/routes/${first.id}`;
  await refused({ method: 'PATCH', path, body: { family: 'ipv6' } }, 422, 'validation_failed', ['gateway:conflict', 'target:conflict']);
  await refused({ method: 'PATCH', path, body: { family: 'ipv6', target: 'fd00:2::/64' } }, 422, 'validation_failed', ['gateway:conflict']);
  const order = sections().map((candidate) => candidate.name);
  const patched = await written({ method: 'PATCH', path, body: { family: 'ipv6', target: 'fd00:2::/64', gateway: 'fd4c:7e19:a3b2::3' } });
  assert.equal(patched, { id: first.id, managed: true, family: 'ipv6', interface: 'lan', target: 'fd00:2::/64', gateway: 'fd4c:7e19:a3b2::3' });
  assert.equal(sections().map((candidate) => candidate.name), order);
  assert.is(section(first.id)!.type, 'route6');
  assert.is(section(second.id)!.type, 'route');
  assert.equal(Object.fromEntries(section(first.id)!.options), { interface: 'lan', target: 'fd00:2::/64', gateway: 'fd4c:7e19:a3b2::3' });
  // PUT takes it back to IPv4, in place again.
  const put = await written({ method: 'PUT', path, body: { ...ROUTE, target: '172.16.0.0/12' } });
  assert.is(put.family, 'ipv4');
  assert.equal(sections().map((candidate) => candidate.name), order);
  assert.is(section(first.id)!.type, 'route');
  assert.equal(((await call({ method: 'GET', path: '/network/routes' })).json as Body[]).map((route) => [route.id, route.family]), [[first.id, 'ipv4'], [second.id, 'ipv4']]);
});

test('routes and rules without family: the address form of target (routes) or src (rules) picks route/route6 and rule/rule6, IPv4 when none says', async () => {
  const v6 = await written({ method: 'POST', path: '/network/routes', body: { interface: 'lan', target: 'fd00:5::/64', gateway: 'fd4c:7e19:a3b2::5', table: 100 } });
  assert.is(v6.family, 'ipv6');
  assert.ok(network().endsWith(`\nconfig route6 '${v6.id}'\n\toption interface 'lan'\n\toption target 'fd00:5::/64'\n\toption gateway 'fd4c:7e19:a3b2::5'\n\toption table '100'\n\n`), network());
  const v4 = await written({ method: 'POST', path: '/network/routes', body: { interface: 'lan', target: '10.5.0.0/16', table: 'main' } });
  assert.equal([v4.family, section(v4.id)!.type, section(v4.id)!.options.get('table')], ['ipv4', 'route', 'main']);
  // A PUT without family (as the provider sends one) keeps the section's type; a new target's form moves it.
  const { family: _family, id: _id, managed: _managed, ...sent } = v6;
  assert.is((await written({ method: 'PUT', path: `/network/routes/${v6.id}`, body: sent })).family, 'ipv6');
  assert.is(section(v6.id)!.type, 'route6');
  await written({ method: 'PUT', path: `/network/routes/${v6.id}`, body: { interface: 'lan', target: '10.6.0.0/16', gateway: '192.168.1.6' } });
  assert.is(section(v6.id)!.type, 'route');
  assert.not.match(network(), /option family/);
  const rule6 = await written({ method: 'POST', path: '/network/rules', body: { src: 'fd00:5::/64', lookup: 100 } });
  const rule4 = await written({ method: 'POST', path: '/network/rules', body: { dest: '10.5.0.0/16', lookup: 'main' } });
  const bare = await written({ method: 'POST', path: '/network/rules', body: { in: 'lan', action: 'prohibit' } });
  assert.equal([rule6, rule4, bare].map((rule) => [rule.family, section(rule.id)!.type]), [['ipv6', 'rule6'], ['ipv4', 'rule'], ['ipv4', 'rule']]);
  assert.equal(Object.fromEntries(section(rule6.id)!.options), { src: 'fd00:5::/64', lookup: '100' });
  assert.equal([rule6.lookup, rule4.lookup], [100, 'main']);
  // Without an address to tell, a PUT keeps the section's type: a rule6 on an interface stays one.
  const onLan = await written({ method: 'POST', path: '/network/rules', body: { family: 'ipv6', in: 'lan', lookup: 100 } });
  assert.is((await written({ method: 'PUT', path: `/network/rules/${onLan.id}`, body: { in: 'lan', lookup: 101 } })).family, 'ipv6');
  assert.is(section(onLan.id)!.type, 'rule6');
});

test('rules: action lookup and goto, as the provider sends them beside the field of that name, write no action option and read back', async () => {
  const lookup = await written({ method: 'POST', path: '/network/rules', body: { action: 'lookup', lookup: 100, priority: 100, src: '192.168.1.0/24' } });
  assert.equal(Object.fromEntries(section(lookup.id)!.options), { lookup: '100', priority: '100', src: '192.168.1.0/24' });
  assert.equal([lookup.action, lookup.lookup], ['lookup', 100]);
  const jump = await written({ method: 'POST', path: '/network/rules', body: { action: 'goto', goto: 200, priority: 10, mark: '0x10' } });
  assert.equal(Object.fromEntries(section(jump.id)!.options), { goto: '200', priority: '10', mark: '0x10' });
  assert.is(jump.action, 'goto');
  // A rule written without action reads the one its fields imply; a drop action is an option.
  const plain = await written({ method: 'POST', path: '/network/rules', body: { priority: 300, lookup: 'main' } });
  assert.is(plain.action, 'lookup');
  const drop = await written({ method: 'POST', path: '/network/rules', body: { priority: 400, action: 'blackhole' } });
  assert.is(section(drop.id)!.options.get('action'), 'blackhole');
  // The provider sends its read back: nothing changes.
  const before = network();
  const { id: _id, managed: _managed, ...read } = lookup;
  assert.equal(await written({ method: 'PUT', path: `/network/rules/${lookup.id}`, body: read }), lookup);
  assert.is(network(), before);
  const post = (body: Body) => ({ method: 'POST', path: '/network/rules', body });
  await refused(post({ action: 'lookup', priority: 5 }), 422, 'validation_failed', ['action:conflict']);
  await refused(post({ action: 'goto', priority: 5 }), 422, 'validation_failed', ['action:conflict']);
  await refused(post({ action: 'lookup', goto: 50, priority: 5 }), 422, 'validation_failed', ['action:conflict', 'goto:conflict']);
  await refused(post({ action: 'goto', lookup: 100, goto: 50, priority: 5 }), 422, 'validation_failed', ['lookup:conflict']);
  await refused(post({ action: 'throw', priority: 5 }), 422, 'validation_failed', ['action:not_in_enum']);
  // `action lookup` stored by hand is what netifd refuses (it drops the rule): it reads null, and a PUT of the read keeps it.
  appendFileSync(router.path('/etc/config/network'), "\nconfig rule 'by_hand'\n\toption lookup 'main'\n\toption action 'lookup'\n");
  const byHand = (await call({ method: 'GET', path: '/network/rules/by_hand' })).json as Body;
  assert.equal([byHand.action, byHand.lookup], [null, 'main']);
  await written({ method: 'PUT', path: '/network/rules/by_hand', body: byHand });
  assert.is(section('by_hand')!.options.get('action'), 'lookup');
  // Switching a lookup rule to goto by merge patch needs the table cleared.
  await refused({ method: 'PATCH', path: `/network/rules/${lookup.id}`, body: { goto: 500 } }, 422, 'validation_failed', ['goto:conflict', 'lookup:conflict']);
  const moved = await written({ method: 'PATCH', path: `/network/rules/${lookup.id}`, body: { goto: 500, lookup: null, action: 'goto' } });
  assert.equal([moved.action, moved.goto, moved.lookup], ['goto', 500, undefined]);
  assert.equal(Object.fromEntries(section(lookup.id)!.options), { priority: '100', src: '192.168.1.0/24', goto: '500' });
});

test('routes: each value netifd would drop or the kernel refuse is a 422 naming its field, with nothing written', async () => {
  const post = (body: Body) => ({ method: 'POST', path: '/network/routes', body });
  await refused(post({ ...ROUTE, target: '10.0.0.1/8' }), 422, 'validation_failed', ['target:conflict']);
  await refused(post({ ...ROUTE, target: '10.0.0.1', netmask: '255.0.0.0' }), 422, 'validation_failed', ['target:conflict']);
  await refused(post({ ...ROUTE, gateway: 'fd00::1' }), 422, 'validation_failed', ['gateway:conflict']);
  await refused(post({ ...ROUTE6, gateway: '192.168.1.2' }), 422, 'validation_failed', ['gateway:conflict']);
  await refused(post({ ...ROUTE, type: 'blackhole' }), 422, 'validation_failed', ['gateway:conflict']);
  await refused(post({ ...ROUTE, interface: 'nosuch' }), 422, 'validation_failed', ['interface:conflict']);
  await refused(post({ ...ROUTE, table: 'vpn' }), 422, 'validation_failed', ['table:conflict']);
  // The stock rt_tables names table 0 `unspec`, which netifd refuses like any unknown name.
  await refused(post({ ...ROUTE, table: 'unspec' }), 422, 'validation_failed', ['table:conflict']);
  await refused(post({ ...ROUTE, table: 0 }), 422, 'validation_failed', ['table:out_of_range']);
  await refused(post({ ...ROUTE, table: '100' }), 422, 'validation_failed', ['table:invalid_format']);
  await refused(post({ ...ROUTE, proto: 'nosuch' }), 422, 'validation_failed', ['proto:conflict']);
  await refused(post({ ...ROUTE, netmask: '255.255.0.0' }), 422, 'validation_failed', ['netmask:conflict']);
  await refused(post({ ...ROUTE6, mtu: 1000 }), 422, 'validation_failed', ['mtu:conflict']);
  await refused(post({ ...ROUTE, target: '10.0.0.0/33' }), 422, 'validation_failed', ['target:invalid_format']);
  await refused(post({ ...ROUTE, family: 'inet' }), 422, 'validation_failed', ['family:not_in_enum']);
  // Without family, the target's form says it; a gateway of the other form is then the wrong one.
  await refused(post({ interface: 'lan', target: '10.0.0.0/8', gateway: 'fd00::1' }), 422, 'validation_failed', ['gateway:conflict']);
  await refused(post({ family: 'ipv4', interface: 'lan' }), 422, 'validation_failed', ['target:required']);
  await refused(post({ ...ROUTE, metric: '10', via: 'x' }), 422, 'validation_failed', ['metric:invalid_type', 'via:unknown_field']);
  const message = await refused(post({ ...ROUTE, type: 'unreachable', gateway: '192.168.1.2' }), 422, 'validation_failed', ['gateway:conflict']);
  assert.match((message.json as Body).errors[0].message, 'unreachable route has no next hop');
  assert.equal(((await call({ method: 'GET', path: '/network/routes' })).json as Body[]), []);
  const blackhole = await written(post({ family: 'ipv4', interface: 'lan', target: '10.0.0.0/8', type: 'blackhole' }));
  assert.is(blackhole.type, 'blackhole');
});

test('routes: a table or protocol name resolves through /etc/iproute2', async () => {
  appendFileSync(router.path('/etc/iproute2/rt_tables'), '100\tvpn\n');
  const route = await written({ method: 'POST', path: '/network/routes', body: { ...ROUTE, table: 'vpn', proto: 'bird' } });
  assert.equal(Object.fromEntries(section(route.id)!.options), { interface: 'lan', target: '10.0.0.0/8', gateway: '192.168.1.2', table: 'vpn', proto: 'bird' });
  for (const [table, stored] of [['main', 'main'], ['local', 'local'], [4294967295, '4294967295'], [100, '100']] as const) {
    assert.is((await written({ method: 'PATCH', path: `/network/routes/${route.id}`, body: { table } })).table, table);
    assert.is(section(route.id)!.options.get('table'), stored);
  }
  await refused({ method: 'PATCH', path: `/network/routes/${route.id}`, body: { table: 'vpn2' } }, 422, 'validation_failed', ['table:conflict']);
  await refused({ method: 'PATCH', path: `/network/routes/${route.id}`, body: { table: 4294967296 } }, 422, 'validation_failed', ['table:out_of_range']);
  // A table netifd reads as strtoul(…, 0) does: 0x64 is 100.
  appendFileSync(router.path('/etc/config/network'), "\nconfig route 'hex_table'\n\toption interface 'lan'\n\toption target '10.9.0.0/16'\n\toption table '0x64'\n");
  assert.is(((await call({ method: 'GET', path: '/network/routes/hex_table' })).json as Body).table, 100);
});

test('routes and rules: disabled reads true for 1 and true as stored by hand, false otherwise', async () => {
  const stored = [['1', true], ['true', true], ['0', false], ['false', false], ['yes', false]] as const;
  appendFileSync(
    router.path('/etc/config/network'),
    stored
      .map(([value], i) => `\nconfig route 'route_${i}'\n\toption interface 'lan'\n\toption target '10.${i}.0.0/16'\n\toption disabled '${value}'\n` +
        `\nconfig rule6 'rule_${i}'\n\toption src 'fd00:${i}::/64'\n\toption lookup 'main'\n\toption disabled '${value}'\n`)
      .join('') + "\nconfig route\n\toption target '192.0.2.0/24'\n\toption disabled 'true'\n",
  );
  const routes = (await call({ method: 'GET', path: '/network/routes' })).json as Body[];
  const rules = (await call({ method: 'GET', path: '/network/rules' })).json as Body[];
  assert.equal(routes.map((route) => route.disabled), [...stored.map(([, read]) => read), true]);
  assert.equal(rules.map((rule) => [rule.family, rule.disabled]), stored.map(([, read]) => ['ipv6', read]));
  const anonymous = routes[stored.length];
  assert.match(anonymous.id, /^cfg[0-9a-f]{6}$/);
  assert.equal(anonymous, { id: anonymous.id, managed: false, family: 'ipv4', target: '192.0.2.0/24', disabled: true });
  // A PATCH leaves what it does not change as stored; what it changes it writes canonically.
  await written({ method: 'PATCH', path: '/network/routes/route_1', body: { metric: 5 } });
  assert.is(section('route_1')!.options.get('disabled'), 'true');
  await written({ method: 'PATCH', path: '/network/rules/rule_1', body: { disabled: false } });
  assert.is(section('rule_1')!.options.get('disabled'), '0');
  await written({ method: 'PATCH', path: '/network/rules/rule_4', body: { disabled: true } });
  assert.is(section('rule_4')!.options.get('disabled'), '1');
});

test('rules: rule and rule6 by family; goto, priority, action and lookup checks', async () => {
  const v4 = await written({ method: 'POST', path: '/network/rules', body: { family: 'ipv4', priority: 100, src: '192.168.1.0/24', lookup: 100 } });
  assert.match(v4.id, new RegExp(`^p_${ULID}$`));
  assert.ok(network().endsWith(`\nconfig rule '${v4.id}'\n\toption priority '100'\n\toption src '192.168.1.0/24'\n\toption lookup '100'\n\n`), network());
  const v6 = await written({ method: 'POST', path: '/network/rules', body: { family: 'ipv6', in: 'lan', dest: 'fd00::/8', action: 'unreachable' } });
  assert.ok(network().endsWith(`\nconfig rule6 '${v6.id}'\n\toption in 'lan'\n\toption dest 'fd00::/8'\n\toption action 'unreachable'\n\n`), network());
  const jump = await written({ method: 'POST', path: '/network/rules', body: { family: 'ipv4', priority: 10, goto: 200, mark: '0x10/0xff' } });
  assert.equal(((await call({ method: 'GET', path: '/network/rules' })).json as Body[]).map((rule) => [rule.id, rule.family]), [[v4.id, 'ipv4'], [v6.id, 'ipv6'], [jump.id, 'ipv4']]);
  const post = (body: Body) => ({ method: 'POST', path: '/network/rules', body: { family: 'ipv4', ...body } });
  await refused(post({ lookup: 'main', action: 'prohibit' }), 422, 'validation_failed', ['lookup:conflict']);
  await refused(post({ goto: 50 }), 422, 'validation_failed', ['priority:conflict']);
  await refused(post({ goto: 50, priority: 50 }), 422, 'validation_failed', ['goto:conflict']);
  await refused(post({ goto: 50, priority: 10, action: 'blackhole' }), 422, 'validation_failed', ['goto:conflict']);
  await refused(post({ goto: 50, priority: 10, lookup: 'main' }), 422, 'validation_failed', ['lookup:conflict']);
  await refused(post({ goto: 0, priority: 10 }), 422, 'validation_failed', ['goto:conflict', 'goto:out_of_range']);
  await refused(post({ src: '10.0.0.1', lookup: 'main' }), 422, 'validation_failed', ['src:invalid_format']);
  await refused(post({ family: 'ipv6', src: '10.0.0.0/8', lookup: 'main' }), 422, 'validation_failed', ['src:conflict']);
  await refused(post({ dest: 'fd00::/8', lookup: 'main' }), 422, 'validation_failed', ['dest:conflict']);
  await refused(post({ lookup: 'vpn' }), 422, 'validation_failed', ['lookup:conflict']);
  await refused(post({ lookup: 'unspec' }), 422, 'validation_failed', ['lookup:conflict']);
  await refused(post({ uidrange: '2000-1000', lookup: 'main' }), 422, 'validation_failed', ['uidrange:conflict']);
  await refused(post({ uidrange: '0-0', lookup: 'main' }), 422, 'validation_failed', ['uidrange:conflict']);
  await refused(post({ suppress_prefixlength: 64, lookup: 'main' }), 422, 'validation_failed', ['suppress_prefixlength:conflict']);
  await refused(post({ action: 'throw' }), 422, 'validation_failed', ['action:not_in_enum']);
  await refused(post({ in: 'nosuch', out: 'nosuch2', lookup: 'main' }), 422, 'validation_failed', ['in:conflict', 'out:conflict']);
  await refused(post({ family: undefined, src: 'fd00::/64', dest: '10.0.0.0/8', lookup: 'main' }), 422, 'validation_failed', ['dest:conflict']);
  // A retype to IPv6 needs IPv6 prefixes, then rewrites the type only.
  await refused({ method: 'PATCH', path: `/network/rules/${v4.id}`, body: { family: 'ipv6' } }, 422, 'validation_failed', ['src:conflict']);
  await written({ method: 'PATCH', path: `/network/rules/${v4.id}`, body: { family: 'ipv6', src: 'fd00:1::/64' } });
  assert.is(section(v4.id)!.type, 'rule6');
  assert.equal(sections().slice(-3).map((candidate) => candidate.name), [v4.id, v6.id, jump.id]);
});

test('cross-references: a route or rule naming lan is accepted, nosuch or a disabled interface is a conflict', async () => {
  await written({ method: 'POST', path: '/network/routes', body: ROUTE });
  await written({ method: 'POST', path: '/network/rules', body: { family: 'ipv4', in: 'lan', out: 'wan', lookup: 'main' } });
  await written({ method: 'POST', path: '/network/routes', body: { family: 'ipv4', target: '198.51.100.0/24', type: 'unreachable' } });
  const missing = await refused({ method: 'POST', path: '/network/routes', body: { ...ROUTE, interface: 'nosuch' } }, 422, 'validation_failed', ['interface:conflict']);
  assert.match((missing.json as Body).errors[0].message, 'no network interface named nosuch');
  appendFileSync(router.path('/etc/config/network'), "\nconfig interface 'guest'\n\toption proto 'static'\n\toption disabled '1'\n");
  await refused({ method: 'POST', path: '/network/routes', body: { ...ROUTE, interface: 'guest' } }, 422, 'validation_failed', ['interface:conflict']);
  await refused({ method: 'POST', path: '/network/rules', body: { family: 'ipv4', in: 'guest', lookup: 'main' } }, 422, 'validation_failed', ['in:conflict']);
  // netifd ignores a disabled route, so it may wait for its interface.
  await written({ method: 'POST', path: '/network/routes', body: { ...ROUTE, interface: 'guest', disabled: true } });
});

test('devices: the stock br-lan section reads unmanaged with its ports; adopted, it is PUT back unchanged', async () => {
  const list = (await call({ method: 'GET', path: '/network/devices' })).json as Body[];
  assert.is(list.length, 1);
  const [bridge] = list;
  assert.match(bridge.id, /^cfg[0-9a-f]{6}$/);
  assert.is(bridge.managed, false);
  assert.is(bridge.name, 'br-lan');
  assert.is(bridge.type, 'bridge');
  assert.equal(bridge.ports, ['eth0']);
  const path = `/network/devices/${bridge.id}`;
  await refused({ method: 'PUT', path, body: bridge }, 409, 'unmanaged_resource');
  await refused({ method: 'PATCH', path, body: { mtu: 1500 } }, 409, 'unmanaged_resource');
  await refused({ method: 'DELETE', path }, 409, 'unmanaged_resource');
  const order = sections().map((candidate) => candidate.type);
  const adopted = await written({ method: 'POST', path: `${path}/adopt` });
  assert.match(adopted.id, new RegExp(`^d_${ULID}$`));
  assert.equal(adopted, { ...bridge, id: adopted.id, managed: true });
  assert.equal(sections().map((candidate) => candidate.type), order);
  assert.equal([...section(adopted.id)!.options], [['name', 'br-lan'], ['type', 'bridge'], ['ports', ['eth0']]]);
  const file = network();
  assert.equal(await written({ method: 'PUT', path: `/network/devices/${adopted.id}`, body: bridge }), adopted);
  assert.is(network(), file);
  await refused({ method: 'POST', path: `/network/devices/${adopted.id}/adopt` }, 409, 'unmanaged_resource');
  assert.equal(initLog(), ['network reload', 'network reload']);
});

test('devices: an 8021q device; bridge fields under another type, a port of another bridge and a second section for one name are conflicts', async () => {
  const vlan = await written({ method: 'POST', path: '/network/devices', body: { name: 'eth1.10', type: '8021q', ifname: 'eth1', vid: 10 } });
  assert.ok(network().endsWith(`\nconfig device '${vlan.id}'\n\toption name 'eth1.10'\n\toption type '8021q'\n\toption ifname 'eth1'\n\toption vid '10'\n\n`), network());
  assert.equal([vlan.vid, vlan.ingress_qos_mapping, vlan.egress_qos_mapping, vlan.ports], [10, [], [], []]);
  const post = (body: Body) => ({ method: 'POST', path: '/network/devices', body });
  await refused(post({ name: 'eth1.11', type: '8021q', ifname: 'eth1', vid: 11, stp: true, ports: [] }), 422, 'validation_failed', ['stp:conflict']);
  await refused(post({ name: 'eth1.11', type: '8021q', vid: 11 }), 422, 'validation_failed', ['ifname:required']);
  await refused(post({ name: 'br-x', type: 'bridge', ifname: 'eth1' }), 422, 'validation_failed', ['ifname:conflict']);
  await refused(post({ name: 'br-x', type: 'bridge', vid: 5 }), 422, 'validation_failed', ['vid:conflict']);
  await refused(post({ name: 'eth1.12', type: '8021q', ifname: 'eth1', vid: 'office' }), 422, 'validation_failed', ['vid:conflict']);
  await refused(post({ name: 'eth1.13', type: '8021q', ifname: 'eth1', vid: 4095 }), 422, 'validation_failed', ['vid:out_of_range']);
  await refused(post({ name: 'eth1.13', type: '8021q', ifname: 'eth1', vid: '13' }), 422, 'validation_failed', ['vid:invalid_format']);
  await refused(post({ name: 'br-guest', type: 'bridge', ports: ['eth2', 'eth0'] }), 422, 'validation_failed', ['ports[1]:conflict']);
  await refused(post({ name: 'br-guest', type: 'bridge', ports: ['br-guest'] }), 422, 'validation_failed', ['ports[0]:conflict']);
  await refused(post({ name: 'br-lan', type: 'bridge', ports: ['eth2'] }), 422, 'validation_failed', ['name:conflict']);
  await refused(post({ name: 'eth1.10', mtu: 1500 }), 422, 'validation_failed', ['name:conflict']);
  await refused(post({ name: 'lan1', mtu: 1500, mtu6: 9000, macaddr: '00:00:00:00:00:00' }), 422, 'validation_failed', ['macaddr:conflict', 'mtu6:conflict']);
  await refused(post({ name: 'a-very-long-name0', macaddr: '01:00:5e:00:00:01' }), 422, 'validation_failed', ['macaddr:invalid_format', 'name:out_of_range']);
  // netifd has no tun or tap device type: a tun/tap device is configured by a section without type.
  await refused(post({ name: 'tun0', type: 'tun' }), 422, 'validation_failed', ['type:not_in_enum']);
  await refused(post({ name: 'tap0', type: 'tap' }), 422, 'validation_failed', ['type:not_in_enum']);
  // The ports a bridge-vlan of br-lan lists are br-lan's members too.
  await written({ method: 'POST', path: '/network/bridge_vlans', body: { device: 'br-lan', vlan: 10, ports: ['lan1:t'] } });
  await refused(post({ name: 'br-guest', type: 'bridge', ports: ['lan1'] }), 422, 'validation_failed', ['ports[0]:conflict']);
  const guest = await written(post({ name: 'br-guest', type: 'bridge', ports: ['eth2'], stp: true, forward_delay: 4 }));
  assert.equal(Object.fromEntries(section(guest.id)!.options), { name: 'br-guest', type: 'bridge', ports: ['eth2'], stp: '1', forward_delay: '4' });
  await refused({ method: 'PATCH', path: `/network/devices/${vlan.id}`, body: { name: 'br-guest' } }, 422, 'validation_failed', ['name:conflict']);
  await refused({ method: 'PATCH', path: `/network/devices/${guest.id}`, body: { forward_delay: 1 } }, 422, 'validation_failed', ['forward_delay:conflict']);
});

test('devices: a bridge with its ports in the legacy ifname owns them; a PUT moves them to ports', async () => {
  appendFileSync(router.path('/etc/config/network'), "\nconfig device 'old_bridge'\n\toption name 'br-old'\n\toption type 'bridge'\n\toption ifname 'eth2 eth3'\n");
  const read = (await call({ method: 'GET', path: '/network/devices/old_bridge' })).json as Body;
  assert.equal([read.managed, read.ifname, read.ports], [true, 'eth2 eth3', []]);
  await refused({ method: 'POST', path: '/network/devices', body: { name: 'br-new', type: 'bridge', ports: ['eth3'] } }, 422, 'validation_failed', ['ports[0]:conflict']);
  await refused({ method: 'POST', path: '/network/bridge_vlans', body: { device: 'br-lan', vlan: 5, ports: ['eth2:t'] } }, 422, 'validation_failed', ['ports[0]:conflict']);
  const legacy = await refused({ method: 'PUT', path: '/network/devices/old_bridge', body: read }, 422, 'validation_failed', ['ifname:conflict', 'ifname:invalid_format']);
  assert.match(((legacy.json as Body).errors as Body[]).find((error) => error.code === 'conflict')!.message, 'give them in ports');
  await written({ method: 'PUT', path: '/network/devices/old_bridge', body: { ...read, ifname: null, ports: ['eth2', 'eth3'] } });
  assert.equal([...section('old_bridge')!.options], [['name', 'br-old'], ['type', 'bridge'], ['ports', ['eth2', 'eth3']]]);
});

test('bridge_vlans: port specs, the VLAN range, the bridge and one PVID per port are checked', async () => {
  const first = await written({ method: 'POST', path: '/network/bridge_vlans', body: { device: 'br-lan', vlan: 1, ports: ['lan1:u*', 'lan2:t'] } });
  assert.match(first.id, new RegExp(`^v_${ULID}$`));
  assert.equal(first, { id: first.id, managed: true, device: 'br-lan', vlan: 1, ports: ['lan1:u*', 'lan2:t'], alias: [] });
  assert.ok(network().endsWith(`\nconfig bridge-vlan '${first.id}'\n\toption device 'br-lan'\n\toption vlan '1'\n\tlist ports 'lan1:u*'\n\tlist ports 'lan2:t'\n\n`), network());
  const last = await written({ method: 'POST', path: '/network/bridge_vlans', body: { device: 'br-lan', vlan: 4094, ports: ['lan2:t', 'lan3', 'lan4:*u'], local: false, alias: ['office'] } });
  assert.equal(Object.fromEntries(section(last.id)!.options), { device: 'br-lan', vlan: '4094', ports: ['lan2:t', 'lan3', 'lan4:*u'], local: '0', alias: ['office'] });
  await written({ method: 'POST', path: '/network/devices', body: { name: 'br-guest', type: 'bridge', ports: ['eth2'] } });
  const post = (body: Body) => ({ method: 'POST', path: '/network/bridge_vlans', body: { device: 'br-lan', ...body } });
  await refused(post({ vlan: 0 }), 422, 'validation_failed', ['vlan:out_of_range']);
  await refused(post({ vlan: 4095 }), 422, 'validation_failed', ['vlan:out_of_range']);
  await refused(post({ vlan: '10' }), 422, 'validation_failed', ['vlan:invalid_type']);
  await refused(post({ vlan: 10, ports: ['lan1:tu', 'lan2:x', 'lan3:T', 'lan4:', 'lan5:u**'] }), 422, 'validation_failed', [
    'ports[0]:invalid_format', 'ports[1]:invalid_format', 'ports[2]:invalid_format', 'ports[4]:invalid_format',
  ]);
  await refused(post({ vlan: 10, device: 'br-nosuch' }), 422, 'validation_failed', ['device:conflict']);
  await refused(post({ vlan: 10, device: 'eth0' }), 422, 'validation_failed', ['device:conflict']);
  await refused(post({ vlan: 1, ports: ['lan5'] }), 422, 'validation_failed', ['vlan:conflict']);
  await refused(post({ vlan: 10, ports: ['lan1:*'] }), 422, 'validation_failed', ['ports[0]:conflict']);
  await refused(post({ vlan: 10, ports: ['lan5', 'lan5:t'] }), 422, 'validation_failed', ['ports[1]:conflict']);
  await refused(post({ vlan: 10, ports: ['eth2:t'] }), 422, 'validation_failed', ['ports[0]:conflict']);
  await refused(post({ vlan: 10, alias: ['office'] }), 422, 'validation_failed', ['alias[0]:conflict']);
  await refused(post({ ports: ['lan5'] }), 422, 'validation_failed', ['vlan:required']);
  // The same VLAN on another bridge is another VLAN; an 8021q device may name a VLAN by its alias.
  await written(post({ device: 'br-guest', vlan: 1, ports: ['eth2:u*'] }));
  const office = await written({ method: 'POST', path: '/network/devices', body: { name: 'br-lan.office', type: '8021q', ifname: 'br-lan', vid: 'office' } });
  assert.is(office.vid, 'office');
  assert.is(section(office.id)!.options.get('vid'), 'office');
  await written({ method: 'PATCH', path: `/network/bridge_vlans/${first.id}`, body: { ports: ['lan1:u*'] } });
  assert.equal(section(first.id)!.options.get('ports'), ['lan1:u*']);
});

test.run();
