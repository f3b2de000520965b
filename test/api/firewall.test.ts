import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { DEAD_OWNER, newRouter, processIdentity, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

let router: Router;
let auth: Record<string, string>;
const firewall = () => readFileSync(router.path('/etc/config/firewall'), 'utf8');
const initLog = () => (existsSync(router.path('/var/log/init.log')) ? readFileSync(router.path('/var/log/init.log'), 'utf8').split('\n').filter(Boolean) : []);
/** A read without the empty lists every list field reads as. */
const compact = (body: Body) => Object.fromEntries(Object.entries(body).filter(([, value]) => !(Array.isArray(value) && value.length === 0)));
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const code = (response: Response) => (response.json as Body | undefined)?.code;
const fieldErrors = (response: Response) =>
  ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();

function section(text: string, name: string) {
  return parseUci(text).sections.find((candidate) => candidate.name === name);
}

const NEW_RULE = { name: 'Allow-SSH', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['22'] } };

test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  await router.cleanup();
});

test('the stock rules read as unmanaged resources with cfg ids, filtered by managed', async () => {
  const all = await call({ method: 'GET', path: '/firewall/rules' });
  assert.is(all.status, 200, all.body);
  const rules = all.json as Body[];
  assert.ok(rules.length >= 8);
  for (const rule of rules) {
    assert.match(rule.id, /^cfg[0-9a-f]{6}$/);
    assert.is(rule.managed, false);
    assert.type(rule.match, 'object');
  }
  assert.is(all.headers.etag, undefined, 'no ETag on collections');
  const ping = rules.find((rule) => rule.name === 'Allow-Ping')!;
  assert.equal(ping.match.proto, ['icmp']);
  assert.equal(ping.match.src_zone, 'wan');
  assert.is(ping.target, 'ACCEPT');
  assert.equal((await call({ method: 'GET', path: '/firewall/rules?managed=true' })).json, []);
  assert.is(((await call({ method: 'GET', path: '/firewall/rules?managed=false' })).json as Body[]).length, rules.length);
  assert.is(code(await call({ method: 'GET', path: '/firewall/rules?managed=maybe' })), 'bad_request');
});

test('collections page with limit and cursor, Link and X-Next-Cursor', async () => {
  const all = (await call({ method: 'GET', path: '/firewall/rules' })).json as Body[];
  const first = await call({ method: 'GET', path: '/firewall/rules?limit=3' });
  assert.equal((first.json as Body[]).map((rule) => rule.id), all.slice(0, 3).map((rule) => rule.id));
  const cursor = `c_${all[2].id}`;
  assert.is(first.headers['x-next-cursor'], cursor);
  assert.is(first.headers.link, `<?cursor=${cursor}&limit=3>; rel="next"`);
  const seen: string[] = [];
  let next: string | undefined = '';
  while (next !== undefined) {
    const page = await call({ method: 'GET', path: `/firewall/rules?limit=3${next ? `&cursor=${next}` : ''}` });
    seen.push(...(page.json as Body[]).map((rule) => rule.id));
    next = page.headers['x-next-cursor'];
  }
  assert.equal(seen, all.map((rule) => rule.id));
  assert.is(code(await call({ method: 'GET', path: '/firewall/rules?cursor=c_nosuch' })), 'invalid_cursor');
  assert.is(code(await call({ method: 'GET', path: '/firewall/rules?cursor=garbage' })), 'invalid_cursor');
  for (const limit of ['0', '501', 'x', '-1']) assert.is(code(await call({ method: 'GET', path: `/firewall/rules?limit=${limit}` })), 'bad_request');
  // The next page keeps the filter, and not what held for one request.
  const unmanaged = (await call({ method: 'GET', path: '/firewall/rules?managed=false&limit=1&request_id=paging_01' })).headers.link;
  assert.is(unmanaged, `<?cursor=c_${all[0].id}&limit=1&managed=false>; rel="next"`);
  assert.equal((await call({ method: 'GET', path: `/firewall/rules${unmanaged.slice(1, unmanaged.indexOf('>'))}` })).json, [all[1]]);
});

test('an empty string removes the option, and the answer and its ETag say so; a weak ETag never satisfies If-Match', async () => {
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'blank' } })).status, 200);
  const patched = await call({ method: 'PATCH', path: '/firewall/rules/blank', body: { name: '' } });
  assert.is(patched.status, 200, patched.body);
  assert.is((patched.json as Body).name, undefined);
  const read = await call({ method: 'GET', path: '/firewall/rules/blank' });
  assert.equal(patched.json, read.json);
  assert.is(patched.headers.etag, read.headers.etag);
  assert.is(section(firewall(), 'blank')!.options.has('name'), false);
  const weak = await call({ method: 'PATCH', path: '/firewall/rules/blank', query: { if_match: `W/${read.headers.etag}` }, body: { name: 'x' } });
  assert.is(weak.status, 412);
  assert.is(section(firewall(), 'blank')!.options.has('name'), false, 'the refused PATCH wrote nothing');
  assert.is((await call({ method: 'GET', path: '/firewall/rules/blank', query: { if_none_match: `W/${read.headers.etag}` } })).status, 304, 'If-None-Match compares weakly');
});

test('two zones cannot share a name: rules and firewall4\'s chains name a zone by it', async () => {
  const before = firewall();
  const taken = await call({ method: 'POST', path: '/firewall/zones', body: { name: 'lan', network: ['lan'] } });
  assert.is(taken.status, 422, taken.body);
  assert.equal(fieldErrors(taken), ['name:conflict']);
  assert.is(firewall(), before);
  const [lan] = ((await call({ method: 'GET', path: '/firewall/zones' })).json as Body[]).filter((zone) => zone.name === 'lan');
  const adopted = (await call({ method: 'POST', path: `/firewall/zones/${lan.id}/adopt` })).json as Body;
  assert.is((await call({ method: 'PATCH', path: `/firewall/zones/${adopted.id}`, body: { name: 'lan' } })).status, 200, 'a zone keeps its own name');
});

test('zones and defaults in uapi\'s provider shapes: network and output_policy, stored as firewall4\'s network and output', async () => {
  const [lan] = ((await call({ method: 'GET', path: '/firewall/zones' })).json as Body[]).filter((zone) => zone.name === 'lan');
  assert.equal([lan.network, lan.output_policy, 'networks' in lan, 'output' in lan], [['lan'], 'ACCEPT', false, false]);
  const zone = await call({ method: 'POST', path: '/firewall/zones', body: { id: 'guest', name: 'guest', input: 'REJECT', output_policy: 'DROP', forward: 'REJECT', network: ['lan'] } });
  assert.is(zone.status, 200, zone.body);
  assert.equal(compact(zone.json as Body), { id: 'guest', managed: true, name: 'guest', input: 'REJECT', output_policy: 'DROP', forward: 'REJECT', network: ['lan'] });
  assert.ok(firewall().endsWith("\nconfig zone 'guest'\n\toption name 'guest'\n\toption input 'REJECT'\n\toption output 'DROP'\n\toption forward 'REJECT'\n\tlist network 'lan'\n\n"), firewall());
  const old = await call({ method: 'PATCH', path: '/firewall/zones/guest', body: { networks: ['lan'], output: 'ACCEPT' } });
  assert.equal(fieldErrors(old), ['networks:unknown_field', 'output:unknown_field']);
  const defaults = await call({ method: 'PATCH', path: '/firewall/defaults', body: { output_policy: 'DROP', synflood_rate: 30, synflood_burst: 60 } });
  assert.is(defaults.status, 200, defaults.body);
  assert.equal([(defaults.json as Body).output_policy, (defaults.json as Body).synflood_rate], ['DROP', 30]);
  const stored = parseUci(firewall()).sections[0];
  assert.equal([stored.options.get('output'), stored.options.get('synflood_rate'), stored.options.has('output_policy')], ['DROP', '30', false]);
});

test('defaults synflood_rate: an integer per second as uapi\'s provider sends it, or firewall4\'s N/unit; a stored plain number reads as an integer', async () => {
  const rate = async (value: unknown) => {
    const response = await call({ method: 'PATCH', path: '/firewall/defaults', body: { synflood_rate: value } });
    assert.is(response.status, 200, response.body);
    return [(response.json as Body).synflood_rate, parseUci(firewall()).sections[0].options.get('synflood_rate')];
  };
  assert.equal(await rate(25), [25, '25']);
  assert.equal(await rate('100/minute'), ['100/minute', '100/minute']);
  assert.equal(await rate('5/s'), ['5/s', '5/s']);
  const refused = await call({ method: 'PATCH', path: '/firewall/defaults', body: { synflood_rate: '25' } });
  assert.is(refused.status, 422, 'a plain number is sent as a JSON integer');
  assert.is(((await call({ method: 'PATCH', path: '/firewall/defaults', body: { synflood_rate: 0 } })).json as Body).errors[0].field, 'synflood_rate');
  writeFileSync(router.path('/etc/config/firewall'), firewall().replace("\toption synflood_rate '5/s'\n", "\toption synflood_rate '40'\n"));
  const read = await call({ method: 'GET', path: '/firewall/defaults' });
  assert.is((read.json as Body).synflood_rate, 40);
  const before = firewall();
  assert.is((await call({ method: 'PUT', path: '/firewall/defaults', body: read.json as Body })).status, 200);
  assert.is(firewall(), before, 'a PUT of the read writes the file it read');
});

test('redirects keep the DNAT target in match: dest_ip and dest_port scalars, src_mac one string, as firewall4\'s options', async () => {
  const body = {
    name: 'Web', target: 'DNAT', reflection_zone: ['lan'],
    match: { src_zone: 'wan', dest_zone: 'lan', proto: ['tcp'], src_dport: '8080', dest_ip: '192.168.1.10', dest_port: '80', src_mac: '52:54:00:aa:bb:01  52:54:00:aa:bb:02' },
  };
  const created = await call({ method: 'POST', path: '/firewall/redirects', body: { id: 'web', ...body } });
  assert.is(created.status, 200, created.body);
  const redirect = created.json as Body;
  assert.equal(compact(redirect.match), { ...body.match, src_mac: '52:54:00:aa:bb:01 52:54:00:aa:bb:02' });
  assert.not.ok('dest_ip' in redirect || 'dest_port' in redirect);
  const stored = section(firewall(), 'web')!;
  assert.equal(Object.fromEntries(stored.options), {
    name: 'Web', target: 'DNAT', reflection_zone: ['lan'], src: 'wan', dest: 'lan', proto: ['tcp'],
    src_mac: '52:54:00:aa:bb:01 52:54:00:aa:bb:02', src_dport: '8080', dest_ip: '192.168.1.10', dest_port: '80',
  });
  const old = await call({ method: 'PUT', path: '/firewall/redirects/web', body: { ...body, dest_ip: '192.168.1.10', match: { ...body.match, src_mac: ['52:54:00:aa:bb:01'] } } });
  assert.equal(fieldErrors(old), ['dest_ip:unknown_field', 'match.src_mac:invalid_type']);
  const rewrite = await call({ method: 'PATCH', path: '/firewall/redirects/web', body: { match: { dest_ip: '192.168.1.0/24', dest_port: '!80' } } });
  assert.equal(fieldErrors(rewrite), ['match.dest_ip:conflict', 'match.dest_port:conflict']);
  // A UCI list, as LuCI writes src_mac, reads joined; a PUT of the read keeps the list.
  writeFileSync(router.path('/etc/config/firewall'), firewall().replace("\toption src_mac '52:54:00:aa:bb:01 52:54:00:aa:bb:02'\n", "\tlist src_mac '52:54:00:aa:bb:01'\n\tlist src_mac '!52:54:00:aa:bb:03'\n"));
  const read = (await call({ method: 'GET', path: '/firewall/redirects/web' })).json as Body;
  assert.is(read.match.src_mac, '52:54:00:aa:bb:01 !52:54:00:aa:bb:03');
  const before = firewall();
  assert.is((await call({ method: 'PUT', path: '/firewall/redirects/web', body: read })).status, 200);
  assert.is(firewall(), before);
});

test('GET one carries an ETag; a matching If-None-Match answers 304; ETags ignore sibling writes', async () => {
  const [rule] = (await call({ method: 'GET', path: '/firewall/rules' })).json as Body[];
  const one = await call({ method: 'GET', path: `/firewall/rules/${rule.id}` });
  assert.is(one.status, 200);
  assert.equal(one.json, rule);
  assert.match(one.headers.etag, /^"[0-9a-f]{16}"$/);
  const cached = await call({ method: 'GET', path: `/firewall/rules/${rule.id}`, query: { if_none_match: one.headers.etag } });
  assert.is(cached.status, 304);
  assert.is(cached.body, '');
  assert.equal(Object.keys(cached.headers).sort(), ['cache-control', 'etag', 'x-request-id']);
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE })).status, 200);
  const again = await call({ method: 'GET', path: `/firewall/rules/${rule.id}` });
  assert.is(again.headers.etag, one.headers.etag);
  assert.is(code(await call({ method: 'GET', path: '/firewall/rules/nosuch' })), 'not_found');
});

test('POST creates a managed rule with a generated id, reloads the firewall and audits the write', async () => {
  const created = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  assert.is(created.status, 200, created.body);
  const rule = created.json as Body;
  assert.match(rule.id, /^r_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.is(rule.managed, true);
  assert.equal(compact(rule.match), { src_zone: 'wan', proto: ['tcp'], dest_port: ['22'] });
  assert.is(created.headers['x-reload-status'], 'ok');
  assert.is(created.headers['x-reload-services'], 'firewall');
  assert.is(created.headers['x-kernel-status'], 'no_kernel');
  assert.match(created.headers.etag, /^"[0-9a-f]{16}"$/);
  assert.ok(firewall().endsWith(`\nconfig rule '${rule.id}'\n\toption name 'Allow-SSH'\n\toption target 'ACCEPT'\n\toption src 'wan'\n\tlist proto 'tcp'\n\tlist dest_port '22'\n\n`), firewall());
  assert.equal(initLog(), ['firewall reload']);
  assert.match(readFileSync(router.path('/var/log/messages'), 'utf8'), new RegExp(`^daemon\\.notice wrtapi: ${created.headers['x-request-id']} admin AUDIT - POST /firewall/rules 200 \\d+ms$`, 'm'));
  const fetched = await call({ method: 'GET', path: `/firewall/rules/${rule.id}` });
  assert.equal(fetched.json, rule);
  assert.is(fetched.headers.etag, created.headers.etag);
});

test('a supplied id is checked for charset, length and collision', async () => {
  const named = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'ssh_in' } });
  assert.is((named.json as Body).id, 'ssh_in');
  const taken = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'ssh_in' } });
  assert.is(taken.status, 409);
  assert.is(code(taken), 'conflict');
  const bad = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'bad-id' } });
  assert.equal(fieldErrors(bad), ['id:invalid_format']);
  const long = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'x'.repeat(33) } });
  assert.equal(fieldErrors(long), ['id:out_of_range']);
});

test('an id of the anonymous form is refused: a deletion would renumber an anonymous section onto it', async () => {
  const before = firewall();
  // No section is named cfg0392bd now, but the stock file's first anonymous rule (its fifth section)
  // takes that name once two sections before it are gone, and libuci would merge a rule of that name into it.
  const taken = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'cfg0392bd' } });
  assert.is(taken.status, 422, taken.body);
  assert.equal(fieldErrors(taken), ['id:invalid_format']);
  assert.is(firewall(), before);
  const unlike = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, id: 'cfgsomething' } });
  assert.is(unlike.status, 200, unlike.body);
});

test('validation reports every field error at once and writes nothing', async () => {
  const before = firewall();
  const invalid = await call({
    method: 'POST',
    path: '/firewall/rules',
    body: { name: 'x', target: 'BOGUS', colour: 'red', match: { src_zone: 'nosuch', proto: ['icmp'], dest_port: '22', extra: 1 } },
  });
  assert.is(invalid.status, 422, invalid.body);
  assert.is(code(invalid), 'validation_failed');
  const errors = fieldErrors(invalid);
  for (const expected of ['colour:unknown_field', 'match.extra:unknown_field', 'target:not_in_enum', 'match.src_zone:conflict', 'match.dest_port:conflict']) {
    assert.ok(errors.includes(expected), `${expected} in ${errors}`);
  }
  assert.is(new Set(errors).size, errors.length, 'de-duplicated');
  assert.is(firewall(), before);
  assert.equal(initLog(), []);
  assert.not.match(readFileSync(router.path('/var/log/messages'), 'utf8'), /POST \/firewall\/rules 422/, 'a 422 is not logged');
  const metrics = (await call({ method: 'GET', path: '/metrics' })).body;
  assert.match(metrics, /^wrtapi_validate_errors_total\{resource="firewall\/rules",code="unknown_field"\} 2$/m);
  assert.match(metrics, /^wrtapi_validate_errors_total\{resource="firewall\/rules",code="conflict"\} [1-9]\d*$/m);
  const tolerated = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, managed: false, runtime: { up: true } } });
  assert.is(tolerated.status, 200, tolerated.body);
  const nullRequired = await call({ method: 'POST', path: '/firewall/forwardings', body: { src: null, dest: 'wan' } });
  assert.equal(fieldErrors(nullRequired), ['src:required']);
  assert.is(code(await call({ method: 'POST', path: '/firewall/rules', body: '{"name":' })), 'bad_request');
  assert.is(code(await call({ method: 'POST', path: '/firewall/rules', body: '[]' })), 'bad_request');
});

test('PUT replaces the resource and drops unmodeled options; PATCH keeps them and writes only what changed', async () => {
  const created = (await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE })).json as Body;
  const path = `/firewall/rules/${created.id}`;
  writeFileSync(router.path('/etc/config/firewall'), firewall().replace("\tlist dest_port '22'\n", "\tlist dest_port '22'\n\toption custom_note 'kept by PATCH'\n"));
  const read = (await call({ method: 'GET', path })).json as Body;
  const patched = await call({ method: 'PATCH', path, body: { ...read, name: 'Allow-SSH-renamed' } });
  assert.is(patched.status, 200, patched.body);
  let stored = section(firewall(), created.id)!;
  assert.is(stored.options.get('custom_note'), 'kept by PATCH');
  assert.equal([...stored.options.keys()], ['name', 'target', 'src', 'proto', 'dest_port', 'custom_note']);
  assert.is(stored.options.get('name'), 'Allow-SSH-renamed');
  const delta = await call({ method: 'PATCH', path, body: { match: { dest_port: null } } });
  assert.is(delta.status, 200, delta.body);
  stored = section(firewall(), created.id)!;
  assert.not.ok(stored.options.has('dest_port'));
  assert.not.ok(stored.options.has('enabled'), 'defaults are never materialised');
  const replaced = await call({ method: 'PUT', path, body: { name: 'Only-name', target: 'DROP', match: { src_zone: 'wan' } } });
  assert.is(replaced.status, 200, replaced.body);
  stored = section(firewall(), created.id)!;
  assert.equal(Object.fromEntries(stored.options), { name: 'Only-name', target: 'DROP', src: 'wan' });
  assert.is(code(await call({ method: 'PUT', path, body: '' })), 'bad_request');
  assert.is(code(await call({ method: 'PATCH', path, body: '' })), 'bad_request');
});

test('JSON Patch applies all six operations; a failed test answers 412 and changes nothing', async () => {
  const created = (await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE })).json as Body;
  const path = `/firewall/rules/${created.id}`;
  const headers = { 'content-type': 'application/json-patch+json' };
  const ops = [
    { op: 'test', path: '/name', value: 'Allow-SSH' },
    { op: 'replace', path: '/name', value: 'Patched' },
    { op: 'add', path: '/match/proto/-', value: 'udp' },
    { op: 'copy', from: '/match/dest_port', path: '/match/src_port' },
    { op: 'move', from: '/match/src_port', path: '/match/dest_port' },
    { op: 'remove', path: '/match/src_zone' },
    { op: 'add', path: '/match/src_zone', value: 'lan' },
  ];
  const patched = await call({ method: 'PATCH', path, headers, body: JSON.stringify(ops) });
  assert.is(patched.status, 200, patched.body);
  const rule = patched.json as Body;
  assert.is(rule.name, 'Patched');
  assert.equal(compact(rule.match), { src_zone: 'lan', proto: ['tcp', 'udp'], dest_port: ['22'] });
  const before = firewall();
  const failed = await call({ method: 'PATCH', path, headers, body: JSON.stringify([{ op: 'test', path: '/name', value: 'Other' }, { op: 'remove', path: '/name' }]) });
  assert.is(failed.status, 412);
  assert.is(code(failed), 'precondition_failed');
  assert.is(firewall(), before);
  assert.is(code(await call({ method: 'PATCH', path, headers, body: JSON.stringify([{ op: 'jump', path: '/name' }]) })), 'bad_request');
});

test('If-Match and If-None-Match guard writes before any change', async () => {
  const created = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  const id = (created.json as Body).id;
  const etag = created.headers.etag;
  const before = firewall();
  const stale = await call({ method: 'PATCH', path: `/firewall/rules/${id}`, query: { if_match: '"0123"' }, body: { name: 'x' } });
  assert.is(stale.status, 412);
  const noneMatch = await call({ method: 'PUT', path: `/firewall/rules/${id}`, query: { if_none_match: '*' }, body: NEW_RULE });
  assert.is(noneMatch.status, 412);
  assert.is(code(await call({ method: 'DELETE', path: `/firewall/rules/${id}`, query: { if_match: '"stale"' } })), 'precondition_failed');
  assert.is(firewall(), before);
  const fresh = await call({ method: 'PATCH', path: `/firewall/rules/${id}`, query: { if_match: etag }, body: { name: 'x' } });
  assert.is(fresh.status, 200);
  assert.is.not(fresh.headers.etag, etag);
  assert.is((await call({ method: 'PATCH', path: `/firewall/rules/${id}`, query: { if_match: '*' }, body: { name: 'y' } })).status, 200);
});

test('DELETE answers 204 with reload headers and removes the section', async () => {
  const id = ((await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE })).json as Body).id;
  const deleted = await call({ method: 'DELETE', path: `/firewall/rules/${id}` });
  assert.is(deleted.status, 204);
  assert.is(deleted.body, '');
  assert.is(deleted.headers['x-reload-status'], 'ok');
  assert.is(deleted.headers['x-reload-services'], 'firewall');
  assert.is(deleted.headers['x-kernel-status'], 'no_kernel');
  assert.not.ok(firewall().includes(id));
  assert.is((await call({ method: 'DELETE', path: `/firewall/rules/${id}` })).status, 404);
});

test('unmanaged sections must be adopted before a write; adoption gives them a generated id', async () => {
  const ping = ((await call({ method: 'GET', path: '/firewall/rules' })).json as Body[]).find((rule) => rule.name === 'Allow-Ping')!;
  for (const [method, body] of [['PUT', ping], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
    const refused = await call({ method, path: `/firewall/rules/${ping.id}`, body });
    assert.is(refused.status, 409, `${method}: ${refused.body}`);
    assert.is(code(refused), 'unmanaged_resource');
  }
  const adopted = await call({ method: 'POST', path: `/firewall/rules/${ping.id}/adopt` });
  assert.is(adopted.status, 200, adopted.body);
  const rule = adopted.json as Body;
  assert.match(rule.id, /^r_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.is(rule.managed, true);
  assert.equal({ ...rule, id: ping.id, managed: false }, ping);
  assert.is(adopted.headers['x-reload-status'], 'ok');
  assert.is(code(await call({ method: 'POST', path: `/firewall/rules/${rule.id}/adopt` })), 'unmanaged_resource');
  assert.is((await call({ method: 'GET', path: `/firewall/rules/${ping.id}` })).status, 404);
  assert.is((await call({ method: 'PATCH', path: `/firewall/rules/${rule.id}`, body: { name: 'Allow-Ping-2' } })).status, 200);
});

test('a failed reload restores the file byte for byte and answers 500 reload_failed_restored', async () => {
  const before = firewall();
  const script = router.path('/etc/init.d/firewall');
  // Fails the first reload only, as a daemon rejecting the new configuration would.
  writeFileSync(script, `#!/bin/sh\necho "firewall $1" >> "$WRTAPI_ROOT/var/log/init.log"\nif [ ! -e "$WRTAPI_ROOT/tmp/failed-once" ]; then : > "$WRTAPI_ROOT/tmp/failed-once"; echo "nft: syntax error" >&2; exit 1; fi\n`);
  const failed = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  assert.is(failed.status, 500, failed.body);
  assert.is(code(failed), 'reload_failed_restored');
  assert.is((failed.json as Body).reload_error, '/etc/init.d/firewall reload exited 1: nft: syntax error');
  assert.is(firewall(), before);
  assert.equal(initLog(), ['firewall reload', 'firewall reload']);
  assert.match(readFileSync(router.path('/var/log/messages'), 'utf8'), / admin ERROR reload_failed_restored POST \/firewall\/rules 500 /);
});

test('a write keeps the file\'s permissions, as uci commit does, and so does the restore after a failed reload', async () => {
  const path = router.path('/etc/config/firewall');
  chmodSync(path, 0o600);
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE })).status, 200);
  assert.is(statSync(path).mode & 0o777, 0o600);
  writeFileSync(router.path('/etc/init.d/firewall'), `#!/bin/sh\nif [ ! -e "$WRTAPI_ROOT/tmp/failed-once" ]; then : > "$WRTAPI_ROOT/tmp/failed-once"; exit 1; fi\n`);
  const before = firewall();
  const failed = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, name: 'Allow-SSH-2' } });
  assert.is(code(failed), 'reload_failed_restored');
  assert.is(firewall(), before);
  assert.is(statSync(path).mode & 0o777, 0o600);
});

test('when the restore cannot reload either, the answer is reload_failed_unrecovered', async () => {
  const before = firewall();
  writeFileSync(router.path('/etc/init.d/firewall'), '#!/bin/sh\necho "still broken" >&2\nexit 2\n');
  const failed = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  assert.is(failed.status, 500);
  const body = failed.json as Body;
  assert.is(body.code, 'reload_failed_unrecovered');
  assert.is(body.reload_error, '/etc/init.d/firewall reload exited 2: still broken');
  assert.is(body.restore_error, '/etc/init.d/firewall reload exited 2: still broken');
  assert.is(firewall(), before);
});

test('a missing init script is 503 init_script_missing naming it, with nothing changed', async () => {
  const before = firewall();
  const { rmSync } = await import('node:fs');
  rmSync(router.path('/etc/init.d/firewall'));
  const refused = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  assert.is(refused.status, 503);
  assert.is(code(refused), 'init_script_missing');
  assert.match((refused.json as Body).message, '/etc/init.d/firewall');
  assert.is(firewall(), before);
});

test('a held lock answers 423 with Retry-After 1; a lock left by a killed writer does not block', async () => {
  router.lock('/var/lock/wrtapi.firewall.lock');
  const locked = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  assert.is(locked.status, 423);
  assert.is(locked.headers['retry-after'], '1');
  assert.match((locked.json as Body).message, '/var/lock/wrtapi.firewall.lock');
  // The writer that held the lock was killed: its owner no longer runs.
  rmSync(router.path('/var/lock/wrtapi.firewall.lock'));
  router.lock('/var/lock/wrtapi.firewall.lock', DEAD_OWNER);
  const written = await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  assert.is(written.status, 200, written.body);
  // A live process that took a dead writer's pid is not taken for it.
  const [pid] = processIdentity(process.pid).split(':');
  router.lock('/var/lock/wrtapi.firewall.lock', `${pid}:1`);
  assert.is((await call({ method: 'DELETE', path: `/firewall/rules/${(written.json as Body).id}` })).status, 204);
  assert.equal(readdirSync(router.path('/var/lock')), [], 'the stale lock was taken over, then released');
});

test('two concurrent writers to one package: one 200, one 423, and the file is never torn', async () => {
  // A slow reload keeps the first writer inside its transaction while the second arrives.
  writeFileSync(router.path('/etc/init.d/firewall'), '#!/bin/sh\nsleep 1\n');
  const first = call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE });
  await new Promise((resolve) => setTimeout(resolve, router.engine === 'wasm' ? 500 : 300));
  const second = await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, name: 'Second' } });
  const statuses = [(await first).status, second.status];
  assert.equal(statuses, [200, 423]);
  const text = firewall();
  const rules = parseUci(text).sections.filter((candidate) => candidate.options.get('name') === 'Allow-SSH' || candidate.options.get('name') === 'Second');
  assert.is(rules.length, 1);
});

test('a zone still named by other sections cannot be deleted or renamed', async () => {
  const zone = (await call({ method: 'POST', path: '/firewall/zones', body: { name: 'dmz', input: 'REJECT', output_policy: 'ACCEPT', forward: 'REJECT' } })).json as Body;
  assert.is(zone.name, 'dmz');
  const rule = (await call({ method: 'POST', path: '/firewall/rules', body: { ...NEW_RULE, match: { ...NEW_RULE.match, src_zone: 'dmz' } } })).json as Body;
  const before = firewall();
  const deleted = await call({ method: 'DELETE', path: `/firewall/zones/${zone.id}` });
  assert.is(deleted.status, 409, deleted.body);
  assert.is(code(deleted), 'conflict');
  assert.match((deleted.json as Body).message, `firewall/rules/${rule.id} (match.src_zone: dmz)`);
  const renamed = await call({ method: 'PATCH', path: `/firewall/zones/${zone.id}`, body: { name: 'dmz2' } });
  assert.is(renamed.status, 409);
  assert.is(firewall(), before);
  assert.is((await call({ method: 'PATCH', path: `/firewall/zones/${zone.id}`, body: { input: 'DROP' } })).status, 200, 'other changes are fine');
  assert.is((await call({ method: 'DELETE', path: `/firewall/rules/${rule.id}` })).status, 204);
  assert.is((await call({ method: 'DELETE', path: `/firewall/zones/${zone.id}` })).status, 204);
});

test('every zone a write names must exist, list items included', async () => {
  const redirect = await call({
    method: 'POST',
    path: '/firewall/redirects',
    body: { name: 'Web', target: 'DNAT', reflection_zone: ['lan', 'nosuch'], match: { src_zone: 'wan', proto: ['tcp'], src_dport: '8080', dest_ip: '192.168.1.10', dest_port: '80' } },
  });
  assert.is(redirect.status, 422, redirect.body);
  assert.equal(fieldErrors(redirect), ['reflection_zone[1]:conflict']);
  const forwarding = await call({ method: 'POST', path: '/firewall/forwardings', body: { src: 'lan', dest: 'guest' } });
  assert.equal(fieldErrors(forwarding), ['dest:conflict']);
});

test('a value the read cannot represent reads as null and survives the read being sent back', async () => {
  const created = (await call({ method: 'POST', path: '/firewall/rules', body: NEW_RULE })).json as Body;
  const path = `/firewall/rules/${created.id}`;
  // firewall4 skips a rule whose `enabled` it cannot parse, and a scalar given as a UCI list.
  writeFileSync(
    router.path('/etc/config/firewall'),
    firewall().replace(`config rule '${created.id}'\n`, `config rule '${created.id}'\n\toption enabled 'Yes'\n\tlist name 'a'\n\tlist name 'b'\n`).replace("\toption name 'Allow-SSH'\n", ''),
  );
  const read = (await call({ method: 'GET', path })).json as Body;
  assert.is(read.enabled, null);
  assert.is(read.name, null);
  const put = await call({ method: 'PUT', path, body: { ...read, target: 'DROP' } });
  assert.is(put.status, 200, put.body);
  const stored = section(firewall(), created.id)!;
  assert.is(stored.options.get('enabled'), 'Yes');
  assert.equal(stored.options.get('name'), ['a', 'b']);
  assert.is(stored.options.get('target'), 'DROP');
  const cleared = await call({ method: 'PATCH', path, body: { enabled: true } });
  assert.is((cleared.json as Body).enabled, true);
});

test.run();
