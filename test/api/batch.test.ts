// POST /batch through the CGI path: one transaction over curated and raw operations on several
// packages, operations that see each other's staged changes, every service reloaded once, and any
// failure (validation, precondition, scope, lock, reload) leaving every file as it was.
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, initLog } = writeChecks(() => ({ router, authorization }));
const file = (pkg: string) => readFileSync(router.path(`/etc/config/${pkg}`), 'utf8');
const messages = () => readFileSync(router.path('/var/log/messages'), 'utf8');
const batch = (operations: unknown[], extra: Body = {}) => call({ method: 'POST', path: '/batch', body: { operations }, ...extra });

const ZONE = { method: 'POST', path: '/firewall/zones', body: { id: 'dmz', name: 'dmz', input: 'REJECT', output_policy: 'ACCEPT', forward: 'REJECT' } };
const RULE = { method: 'POST', path: '/firewall/rules', body: { id: 'ssh_dmz', name: 'SSH-DMZ', target: 'ACCEPT', match: { src_zone: 'dmz', proto: ['tcp'], dest_port: ['22'] } } };
const HOST = { method: 'POST', path: '/dhcp/hosts', body: { id: 'nas', name: 'nas', macs: ['52:54:00:aa:bb:01'], ip: '192.168.1.10' } };
const LAN = { method: 'PATCH', path: '/raw/network/lan', body: { options: { ip6assign: '64' } } };

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

/** A refused batch: its status, the abort envelope for `index`, nothing under /etc changed, nothing (or only `reloads`) run. */
async function aborted(operations: unknown[], status: number, index: number, code: string, reloads: string[] = []): Promise<Body> {
  const before = router.snapshot();
  const mark = initLog().length;
  const response = await batch(operations);
  assert.is(response.status, status, response.body);
  const body = response.json as Body;
  assert.is(body.code, 'batch_partial_failure');
  assert.is(body.aborted_at_index, index);
  assert.is(body.reverted, true);
  assert.is(body.error.code, code);
  assert.is(body.error.request_id, `${response.headers['x-request-id']}.${index}`);
  assert.is(response.headers['x-reload-status'], undefined);
  assert.equal(router.snapshot(), before, 'every file under /etc as it was');
  assert.equal(initLog().slice(mark), reloads);
  return body;
}

test('one transaction over firewall, dhcp and raw network: operations see each other, each service reloads once, each operation is logged', async () => {
  const response = await batch([ZONE, RULE, { method: 'GET', path: '/firewall/rules/ssh_dmz' }, HOST, LAN, { method: 'GET', path: '/raw/network/lan' }, { method: 'DELETE', path: '/firewall/rules/ssh_dmz' }]);
  assert.is(response.status, 207, response.body);
  const { results } = response.json as Body;
  assert.equal(results.map((result: Body) => result.status), [200, 200, 200, 200, 200, 200, 204]);
  assert.is(results[1].body.match.src_zone, 'dmz');
  assert.equal(results[2].body, results[1].body, 'a read sees the rule created before it');
  assert.is(results[5].body.options.ip6assign, '64');
  assert.is(results[6].body, null);
  assert.is(response.headers['x-reload-status'], 'ok');
  assert.is(response.headers['x-reload-services'], 'firewall,dnsmasq,odhcpd,network');
  assert.is(response.headers['x-kernel-status'], 'no_kernel');
  assert.is(response.headers['strict-transport-security'], undefined, 'the 207 is hand-built');
  assert.equal(initLog(), ['firewall reload', 'dnsmasq reload', 'odhcpd reload', 'network reload']);
  assert.match(file('firewall'), /\nconfig zone 'dmz'\n\toption name 'dmz'\n/);
  assert.not.match(file('firewall'), /ssh_dmz/);
  assert.match(file('dhcp'), /\nconfig host 'nas'\n\toption name 'nas'\n\toption mac '52:54:00:aa:bb:01'\n/);
  assert.match(file('network'), /option ip6assign '64'/);
  const id = response.headers['x-request-id'];
  for (const [index, line] of [[0, 'POST /firewall/zones 200'], [3, 'POST /dhcp/hosts 200'], [4, 'PATCH /raw/network/lan 200'], [6, 'DELETE /firewall/rules/ssh_dmz 204']] as const) {
    assert.match(messages(), `${id}.${index} admin AUDIT - ${line} `);
  }
  assert.not.match(messages(), `${id}.2 `, 'reads are no audit event');
  const reads = await batch([{ method: 'GET', path: '/firewall/zones' }, { method: 'GET', path: '/system' }]);
  assert.is(reads.status, 207);
  assert.is(reads.headers['x-reload-status'], undefined, 'a batch of reads carries no reload header');
  assert.is(reads.headers['x-kernel-status'], undefined);
});

test('a failure at the last operation leaves firewall, network and dhcp byte-identical and reloads nothing', async () => {
  const body = await aborted([ZONE, RULE, HOST, LAN, { method: 'POST', path: '/firewall/rules', body: { name: 'bad', target: 'ACCEPT', match: { src_zone: 'nowhere' } } }], 422, 4, 'validation_failed');
  assert.equal(body.error.errors, [{ field: 'match.src_zone', code: 'conflict', message: 'match.src_zone: no firewall zone named nowhere' }]);
  await aborted([ZONE, { method: 'PATCH', path: '/firewall/zones/dmz', if_match: '"0000000000000000"', body: { input: 'ACCEPT' } }], 412, 1, 'precondition_failed');
  await aborted([HOST, { method: 'DELETE', path: '/firewall/rules/nosuch' }], 404, 1, 'not_found');
  await aborted([HOST, { method: 'GET', path: '/tokens' }], 422, 1, 'validation_failed');
  await aborted([HOST, { method: 'PUT', path: '/dhcp/leases' }], 405, 1, 'method_not_allowed');
});

test('a failed reload restores every package and reloads each service again once', async () => {
  const before = { firewall: file('firewall'), dhcp: file('dhcp'), network: file('network') };
  writeFileSync(router.path('/etc/init.d/network'), `#!/bin/sh\necho "network $1" >> "$WRTAPI_ROOT/var/log/init.log"\nif [ ! -e "$WRTAPI_ROOT/tmp/failed-once" ]; then : > "$WRTAPI_ROOT/tmp/failed-once"; echo "netifd: bad config" >&2; exit 1; fi\n`);
  const response = await batch([ZONE, HOST, LAN]);
  assert.is(response.status, 500, response.body);
  const body = response.json as Body;
  assert.is(body.code, 'batch_partial_failure');
  assert.is(body.aborted_at_index, 2, 'the network reload belongs to the raw network operation');
  assert.is(body.error.code, 'reload_failed_restored');
  assert.is(body.error.reload_error, '/etc/init.d/network reload exited 1: netifd: bad config');
  assert.equal({ firewall: file('firewall'), dhcp: file('dhcp'), network: file('network') }, before);
  assert.equal(initLog(), ['firewall reload', 'dnsmasq reload', 'odhcpd reload', 'network reload', 'firewall reload', 'dnsmasq reload', 'odhcpd reload', 'network reload']);
});

test('when the restore cannot reload either, the batch says the router was not reverted', async () => {
  writeFileSync(router.path('/etc/init.d/firewall'), '#!/bin/sh\necho "still broken" >&2\nexit 2\n');
  const response = await batch([ZONE]);
  assert.is(response.status, 500, response.body);
  const body = response.json as Body;
  assert.is(body.error.code, 'reload_failed_unrecovered');
  assert.is(body.reverted, false);
  assert.match(body.message, 'needs manual recovery');
  assert.not.match(body.message, 'nothing was changed');
});

test('a failure carries none of the operation\'s own headers but Retry-After', async () => {
  const notAllowed = await batch([{ method: 'PUT', path: '/firewall/rules' }]);
  assert.is(notAllowed.status, 405);
  assert.is(notAllowed.headers.allow, undefined, 'the batch itself allows POST');
  router.lock('/var/lock/wrtapi.firewall.lock');
  const locked = await batch([ZONE]);
  assert.is(locked.status, 423);
  assert.is(locked.headers['retry-after'], '1');
});

test('50 operations succeed, 51 are refused; a malformed batch is a 422 before anything runs', async () => {
  const hosts = Array.from({ length: 50 }, (_, i) => ({ method: 'POST', path: '/dhcp/hosts', body: { id: `h${i}`, name: `h${i}`, macs: [`52:54:00:00:00:${i.toString(16).padStart(2, '0')}`] } }));
  const fifty = await batch(hosts);
  assert.is(fifty.status, 207, fifty.body.slice(0, 300));
  assert.is((fifty.json as Body).results.length, 50);
  assert.is(file('dhcp').match(/\nconfig host /g)!.length, 50);
  assert.equal(initLog(), ['dnsmasq reload', 'odhcpd reload']);
  const before = router.snapshot();
  const malformed: [unknown[], string][] = [
    [[...hosts, HOST], 'operations:out_of_range'],
    [[], 'operations:out_of_range'],
    [[{ method: 'HEAD', path: '/firewall/rules' }], 'operations[0].method:not_in_enum'],
    [[{ method: 'GET', path: '/firewall/rules?limit=1' }], 'operations[0].path:invalid_format'],
    [[{ method: 'GET', path: '/firewall/rules', ifmatch: 'x' }], 'operations[0].ifmatch:unknown_field'],
  ];
  for (const [operations, field] of malformed) {
    const refused = await batch(operations);
    assert.is(refused.status, 422);
    assert.is((refused.json as Body).code, 'validation_failed');
    assert.equal(((refused.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`), [field]);
  }
  assert.equal(router.snapshot(), before);
});

test('an operation\'s body is the value the batch holds: a number past a double\'s range is refused as in a request of its own, not read as null', async () => {
  const rule = '{"id":"big","family":"ipv4","priority":1e400,"src":"10.9.0.0/16","lookup":100}';
  const alone = await call({ method: 'POST', path: '/network/rules', body: rule });
  assert.is(alone.status, 422, alone.body);
  const before = router.snapshot();
  const response = await call({ method: 'POST', path: '/batch', body: `{"operations":[{"method":"POST","path":"/network/rules","body":${rule}}]}` });
  assert.is(response.status, 422, response.body);
  const body = response.json as Body;
  assert.is(body.code, 'batch_partial_failure');
  assert.equal(body.error.errors, (alone.json as Body).errors);
  assert.equal(router.snapshot(), before);
});

test('each operation is scope-checked on its own; a held lock refuses the whole batch', async () => {
  authorization = `Bearer ${await router.mint('firewall_only', ['firewall:rw', 'raw:network:ro', 'network:ro'])}`;
  await aborted([ZONE, HOST], 403, 1, 'insufficient_scope');
  await aborted([ZONE, LAN], 403, 1, 'insufficient_scope');
  const read = await batch([{ method: 'GET', path: '/raw/network/lan' }, { method: 'GET', path: '/firewall/zones' }]);
  assert.is(read.status, 207, read.body);
  authorization = `Bearer ${await router.mint('admin2', ['*:rw'])}`;
  router.lock('/var/lock/wrtapi.dhcp.lock');
  const body = await aborted([ZONE, HOST], 423, 0, 'locked');
  assert.type(body.message, 'string');
});

test('a raw section an earlier operation created is written by a later one, and checked on its own curated type', async () => {
  const route = { method: 'POST', path: '/raw/network', body: { type: 'route', id: 'r9', options: { interface: 'lan', target: '10.9.0.0/16' } } };
  const response = await batch([route, { method: 'PATCH', path: '/raw/network/r9', body: { options: { gateway: '192.168.1.9' } } }, { method: 'GET', path: '/raw/network/r9' }]);
  assert.is(response.status, 207, response.body);
  const results = (response.json as Body).results as Body[];
  assert.equal(results.map(({ status }) => status), [200, 200, 200]);
  assert.equal(results[2].body.options, { interface: 'lan', target: '10.9.0.0/16', gateway: '192.168.1.9' });
  assert.match(file('network'), "config route 'r9'\n\toption interface 'lan'\n\toption target '10.9.0.0/16'\n\toption gateway '192.168.1.9'\n");
  // A route is network:routes, whatever raw scope the token holds.
  authorization = `Bearer ${await router.mint('interfaces_only', ['raw:network:rw', 'network:interfaces:rw'])}`;
  await aborted([LAN, { ...route, body: { ...route.body, id: 'r10' } }], 403, 1, 'insufficient_scope');
  await aborted([LAN, { method: 'PATCH', path: '/raw/network/r9', body: { options: { metric: '5' } } }], 403, 1, 'insufficient_scope');
});

test('a raw delete or rename of a section an earlier operation created keeps the references later ones made to it', async () => {
  const zone = { method: 'POST', path: '/raw/firewall', body: { type: 'zone', id: 'zz', options: { name: 'zzname' } } };
  const rule = { method: 'POST', path: '/firewall/rules', body: { id: 'dang1', target: 'ACCEPT', match: { src_zone: 'zzname' } } };
  const deleted = await aborted([zone, rule, { method: 'DELETE', path: '/raw/firewall/zz' }], 409, 2, 'conflict');
  assert.match(deleted.error.message, 'firewall/rules/dang1 (match.src_zone: zzname)');
  const renamed = await aborted([zone, rule, { method: 'PATCH', path: '/raw/firewall/zz', body: { options: { name: 'other' } } }], 409, 2, 'conflict');
  assert.match(renamed.error.message, 'firewall/rules/dang1 (match.src_zone: zzname)');
  // Within a batch, uhttpd's main is as undeletable through raw as on its own.
  await aborted([{ method: 'DELETE', path: '/raw/uhttpd/main' }], 409, 0, 'conflict');
});

test('an adopt is an operation of the batch\'s transaction: a later operation writes the section under its new id, and a failure after it undoes it', async () => {
  const anonymous = ((await call({ method: 'GET', path: '/firewall/rules?managed=false' })).json as Body[])[0].id;
  const adopt = { method: 'POST', path: `/firewall/rules/${anonymous}/adopt` };
  await aborted([adopt, { method: 'DELETE', path: '/firewall/rules/nosuch' }], 404, 1, 'not_found');
  const response = await batch([adopt]);
  assert.is(response.status, 207, response.body);
  const { id } = (response.json as Body).results[0].body;
  assert.match(file('firewall'), `\nconfig rule '${id}'\n`);
  assert.equal(initLog(), ['firewall reload']);
});

test('Idempotency-Key (query form) replays a batch\'s answer without running it again', async () => {
  const first = await call({ method: 'POST', path: '/batch?idempotency_key=batch-1', body: { operations: [ZONE, RULE] } });
  assert.is(first.status, 207);
  const replay = await call({ method: 'POST', path: '/batch?idempotency_key=batch-1', body: { operations: [ZONE, RULE] } });
  assert.is(replay.status, 207);
  assert.is(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.json, first.json);
  assert.equal(initLog(), ['firewall reload']);
});

test.run();
