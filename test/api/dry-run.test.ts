// Writes with ?dry_run=true through the CGI path: checked as the real write is, answered with what it
// would do (the resource, the `uci changes` lines, the services it would reload), and leaving no
// byte changed under /etc, nothing reloaded, no idempotency record and no last-use stamp.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, initLog } = writeChecks(() => ({ router, authorization }));
const messages = () => readFileSync(router.path('/var/log/messages'), 'utf8');
const idempotencyRecords = () => (existsSync(router.path('/tmp/wrtapi/idempotency')) ? readdirSync(router.path('/tmp/wrtapi/idempotency')) : []);
const dry = (options: RequestOptions) => call({ ...options, path: `${options.path}${options.path.includes('?') ? '&' : '?'}dry_run=true` });

const RULE = { id: 'r_bench', name: 'Bench', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp', 'udp'], dest_port: ['8080'] } };

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

/** A dry run that went through: 200 marked as one, no ETag or reload header, every file under /etc as it was, nothing reloaded, no idempotency record. */
async function dryRun(options: RequestOptions): Promise<Body> {
  const before = router.snapshot();
  const mark = initLog().length;
  const response = await dry(options);
  assert.is(response.status, 200, response.body);
  assert.is(response.headers['x-dry-run'], 'true');
  assert.is(response.headers['content-type'], 'application/json');
  for (const header of ['etag', 'x-reload-status', 'x-reload-services', 'x-kernel-status', 'idempotent-replayed']) assert.is(response.headers[header], undefined, header);
  assert.equal(router.snapshot(), before, 'every file under /etc byte for byte as it was');
  assert.equal(initLog().slice(mark), [], 'nothing reloaded');
  assert.equal(idempotencyRecords(), []);
  const body = response.json as Body;
  assert.is(body.dry_run, true);
  return body;
}

/** The real write's refusal and the dry run's are the same status and envelope (but the request id), and neither changed anything. */
async function refusedAlike(options: RequestOptions, status: number, code: string, as = call): Promise<Body> {
  const before = router.snapshot();
  const mark = initLog().length;
  const real = await as(options);
  const tried = await as({ ...options, path: `${options.path}${options.path.includes('?') ? '&' : '?'}dry_run=true` });
  const envelope = (response: Response) => {
    const { request_id, ...rest } = response.json as Body;
    assert.is(request_id, response.headers['x-request-id']);
    // A batch's abort names its failed operation's request id after its own.
    if (rest.error) {
      const { request_id: operation, ...error } = rest.error;
      assert.ok(operation.startsWith(`${request_id}.`));
      rest.error = error;
    }
    return rest;
  };
  assert.is(real.status, status, real.body);
  assert.is(tried.status, status, tried.body);
  assert.is((real.json as Body).code, code);
  assert.equal(envelope(tried), envelope(real));
  assert.is(tried.headers['retry-after'], real.headers['retry-after']);
  assert.equal(router.snapshot(), before);
  assert.equal(initLog().slice(mark), []);
  return envelope(tried);
}

test('a create answers the resource it would write, the uci changes and the reloads, and writes nothing; the real create then answers that resource', async () => {
  const body = await dryRun({ method: 'POST', path: '/firewall/rules', body: RULE });
  assert.equal(Object.keys(body), ['dry_run', 'resource', 'changes', 'reload']);
  assert.equal(body.changes, {
    firewall: [
      "firewall.r_bench='rule'",
      "firewall.r_bench.name='Bench'",
      "firewall.r_bench.target='ACCEPT'",
      "firewall.r_bench.src='wan'",
      "firewall.r_bench.proto+='tcp'",
      "firewall.r_bench.proto+='udp'",
      "firewall.r_bench.dest_port+='8080'",
    ],
  });
  assert.equal(body.reload, ['firewall']);
  const real = await call({ method: 'POST', path: '/firewall/rules', body: RULE });
  assert.is(real.status, 200, real.body);
  assert.equal(body.resource, real.json, 'the resource as the real write answers it');
  assert.equal(initLog(), ['firewall reload']);
  const id = real.headers['x-request-id'];
  assert.match(messages(), ` admin AUDIT - POST /firewall/rules?dry_run=true 200 `);
  assert.match(messages(), `${id} admin AUDIT - POST /firewall/rules 200 `);
});

test('PUT, merge and JSON PATCH, and DELETE: each answers what it would change; a DELETE the resource it would remove', async () => {
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: RULE })).status, 200);
  const read = (await call({ method: 'GET', path: '/firewall/rules/r_bench' })).json as Body;
  const put = await dryRun({ method: 'PUT', path: '/firewall/rules/r_bench', body: { ...RULE, target: 'DROP', match: { ...RULE.match, proto: ['tcp'] } } });
  assert.equal(put.changes, { firewall: ["firewall.r_bench.target='DROP'", '-firewall.r_bench.proto', "firewall.r_bench.proto+='tcp'"] });
  assert.is(put.resource.target, 'DROP');
  const merge = await dryRun({ method: 'PATCH', path: '/firewall/rules/r_bench', body: { match: { dest_port: ['8080', '8443'] }, enabled: false } });
  assert.equal(merge.changes, { firewall: ["firewall.r_bench.dest_port+='8443'", "firewall.r_bench.enabled='0'"] });
  const jsonPatch = await dryRun({
    method: 'PATCH',
    path: '/firewall/rules/r_bench',
    headers: { 'content-type': 'application/json-patch+json' },
    body: JSON.stringify([{ op: 'replace', path: '/name', value: "Bob's bench" }]),
  });
  assert.equal(jsonPatch.changes, { firewall: ["firewall.r_bench.name='Bob'\\''s bench'"] });
  const same = await dryRun({ method: 'PUT', path: '/firewall/rules/r_bench', body: read });
  assert.equal(same.changes, {}, 'a PUT of the read changes nothing');
  assert.equal(same.reload, ['firewall'], 'and reloads as the write would');
  const removed = await dryRun({ method: 'DELETE', path: '/firewall/rules/r_bench' });
  assert.equal(removed, { dry_run: true, resource: null, removed: read, changes: { firewall: ['-firewall.r_bench'] }, reload: ['firewall'] });
});

test('adopt answers the rename as uci prints it, and the id it would give', async () => {
  const rules = (await call({ method: 'GET', path: '/firewall/rules?managed=false' })).json as Body[];
  const anonymous = rules[0].id;
  const adopted = await dryRun({ method: 'POST', path: `/firewall/rules/${anonymous}/adopt` });
  assert.match(adopted.resource.id, /^r_[0-9A-Z]{26}$/);
  assert.is(adopted.resource.managed, true);
  assert.equal(adopted.changes, { firewall: [`firewall.${anonymous}='${adopted.resource.id}'`] });
});

test('a raw write and a raw delete answer the section as raw passthrough shows it', async () => {
  const patched = await dryRun({ method: 'PATCH', path: '/raw/network/lan', body: { options: { ip6assign: '64', ip6hint: null } } });
  assert.is(patched.resource.options.ip6assign, '64');
  assert.equal(patched.changes, { network: ["network.lan.ip6assign='64'"] });
  assert.equal(patched.reload, ['network']);
  const created = await dryRun({ method: 'POST', path: '/raw/dhcp', body: { id: 'printer', type: 'host', options: { name: 'printer', mac: ['52:54:00:12:34:56'] } } });
  assert.equal(created.changes, { dhcp: ["dhcp.printer='host'", "dhcp.printer.name='printer'", "dhcp.printer.mac+='52:54:00:12:34:56'"] });
  const removed = await dryRun({ method: 'DELETE', path: '/raw/dhcp/wan' });
  assert.equal(removed, {
    dry_run: true,
    resource: null,
    removed: { id: 'wan', type: 'dhcp', anonymous: false, options: { interface: 'wan', ignore: '1' }, redacted: [] },
    changes: { dhcp: ['-dhcp.wan'] },
    reload: ['dnsmasq', 'odhcpd'],
  });
});

test('a batch answers each operation\'s result and the changes and reloads of them all, as one transaction would', async () => {
  const operations = [
    { method: 'POST', path: '/firewall/zones', body: { id: 'dmz', name: 'dmz', input: 'REJECT', output_policy: 'ACCEPT', forward: 'REJECT' } },
    { method: 'POST', path: '/firewall/rules', body: { ...RULE, match: { ...RULE.match, src_zone: 'dmz' } } },
    { method: 'GET', path: '/firewall/rules/r_bench' },
    { method: 'PATCH', path: '/raw/network/lan', body: { options: { ip6assign: '64' } } },
    { method: 'DELETE', path: '/firewall/rules/r_bench' },
  ];
  const body = await dryRun({ method: 'POST', path: '/batch', body: { operations } });
  assert.equal(Object.keys(body), ['dry_run', 'results', 'changes', 'reload']);
  assert.equal(body.results.map((result: Body) => result.status), [200, 200, 200, 200, 204]);
  assert.is(body.results[2].body.match.src_zone, 'dmz', 'a read sees what the operations before it staged');
  assert.is(body.results[4].body, null);
  // Each package from where the batch found it to where it leaves it: the rule it creates and deletes shows nothing.
  assert.equal(body.changes, {
    firewall: ["firewall.dmz='zone'", "firewall.dmz.name='dmz'", "firewall.dmz.input='REJECT'", "firewall.dmz.output='ACCEPT'", "firewall.dmz.forward='REJECT'"],
    network: ["network.lan.ip6assign='64'"],
  });
  assert.equal(body.reload, ['firewall', 'network']);
  const real = await call({ method: 'POST', path: '/batch', body: { operations } });
  assert.is(real.status, 207, real.body);
  assert.equal((real.json as Body).results, body.results, 'each operation answers as the real batch does');
  const lines = messages().split('\n').filter((line) => line.includes('dry_run=true'));
  assert.equal(lines.map((line) => line.replace(/^.*? wrtapi: \S+ /, '').replace(/ \d+ms$/, '')), [
    'admin AUDIT - POST /firewall/zones?dry_run=true 200',
    'admin AUDIT - POST /firewall/rules?dry_run=true 200',
    'admin AUDIT - PATCH /raw/network/lan?dry_run=true 200',
    'admin AUDIT - DELETE /firewall/rules/r_bench?dry_run=true 204',
    'admin AUDIT - POST /batch?dry_run=true 200',
  ]);
});

test('refusals are the real write\'s: validation, conflict, not found, precondition, scope, lock, missing init script, and a batch\'s abort', async () => {
  const errors = await refusedAlike({ method: 'POST', path: '/firewall/rules', body: { ...RULE, match: { src_zone: 'nowhere' } } }, 422, 'validation_failed');
  assert.equal(errors.errors, [{ field: 'match.src_zone', code: 'conflict', message: 'match.src_zone: no firewall zone named nowhere' }]);
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: RULE })).status, 200);
  await refusedAlike({ method: 'POST', path: '/firewall/rules', body: RULE }, 409, 'conflict');
  await refusedAlike({ method: 'DELETE', path: '/firewall/rules/nosuch' }, 404, 'not_found');
  await refusedAlike({ method: 'PATCH', path: '/firewall/rules/r_bench?if_match=%220000000000000000%22', body: { name: 'x' } }, 412, 'precondition_failed');
  const zones = (await call({ method: 'GET', path: '/firewall/zones' })).json as Body[];
  const adopted = (await call({ method: 'POST', path: `/firewall/zones/${zones.find((zone) => zone.name === 'wan')!.id}/adopt` })).json as Body;
  await refusedAlike({ method: 'DELETE', path: `/firewall/zones/${adopted.id}` }, 409, 'conflict');
  const reader = `Bearer ${await router.mint('reader', ['firewall:ro', 'raw:rw'])}`;
  const asReader = (options: RequestOptions) => router.request({ ...options, headers: { authorization: reader } });
  await refusedAlike({ method: 'POST', path: '/firewall/rules', body: RULE }, 403, 'insufficient_scope', asReader);
  await refusedAlike({ method: 'PATCH', path: '/raw/firewall/r_bench', body: { options: { name: 'x' } } }, 403, 'insufficient_scope', asReader);
  router.lock('/var/lock/wrtapi.firewall.lock');
  await refusedAlike({ method: 'PATCH', path: '/firewall/rules/r_bench', body: { name: 'x' } }, 423, 'locked');
  await refusedAlike({ method: 'POST', path: '/batch', body: { operations: [{ method: 'DELETE', path: '/firewall/rules/r_bench' }] } }, 423, 'batch_partial_failure');
  rmSync(router.path('/var/lock/wrtapi.firewall.lock'));
  const missing = await refusedAlike({ method: 'PUT', path: '/lldpd/config', body: { interface: ['lan'] } }, 503, 'init_script_missing');
  assert.match(missing.message, 'Init script /etc/init.d/lldpd is missing');
  const aborted = await refusedAlike(
    { method: 'POST', path: '/batch', body: { operations: [{ method: 'POST', path: '/firewall/zones', body: { id: 'dmz', name: 'dmz' } }, { method: 'POST', path: '/firewall/rules', body: RULE }] } },
    409,
    'batch_partial_failure',
  );
  assert.is(aborted.aborted_at_index, 1);
  assert.is(aborted.error.code, 'conflict');
});

test('dry_run takes true or false on a write; another value or none is a 400, as is a write that has no dry run; a read ignores it', async () => {
  for (const query of ['dry_run=yes', 'dry_run=', 'dry_run', 'dry_run=TRUE']) {
    const response = await call({ method: 'POST', path: `/firewall/rules?${query}`, body: RULE });
    assert.is(response.status, 400, query);
    assert.is((response.json as Body).code, 'bad_request');
    assert.is((response.json as Body).message, 'dry_run must be true or false');
  }
  const shadow = readFileSync(router.path('/etc/shadow'), 'utf8');
  for (const [method, path, body] of [['POST', '/system/password', { user: 'root', password: 'secret-1' }], ['POST', '/tokens', { name: 'x', scopes: ['firewall:ro'] }], ['DELETE', '/tokens/admin', undefined]] as const) {
    const refused = await call({ method, path: `${path}?dry_run=true`, body });
    assert.is(refused.status, 400, `${method} ${path}`);
    assert.is((refused.json as Body).message, `${method} ${path === '/tokens/admin' ? '/tokens/:name' : path} has no dry run`);
  }
  assert.is(readFileSync(router.path('/etc/shadow'), 'utf8'), shadow);
  assert.ok((await call({ method: 'GET', path: '/auth/whoami' })).status === 200, 'the token was not revoked');
  const real = await call({ method: 'POST', path: '/firewall/rules?dry_run=false', body: RULE });
  assert.is(real.status, 200, real.body);
  assert.is(real.headers['x-dry-run'], undefined);
  assert.is(real.headers['x-reload-status'], 'ok');
  const read = await call({ method: 'GET', path: '/firewall/rules/r_bench?dry_run=maybe' });
  assert.is(read.status, 200);
  assert.is(read.headers['x-dry-run'], undefined);
  assert.equal(read.json, real.json);
});

test('an Idempotency-Key is neither consumed nor replayed by a dry run: the real write then runs with it, and its repeat replays', async () => {
  // uhttpd passes no Idempotency-Key header: the query form is the one a router sees.
  const path = '/firewall/rules?idempotency_key=bench-1';
  await dryRun({ method: 'POST', path, body: RULE });
  const real = await call({ method: 'POST', path, body: RULE });
  assert.is(real.status, 200, real.body);
  assert.is(real.headers['idempotent-replayed'], undefined);
  assert.equal(initLog(), ['firewall reload']);
  assert.is(idempotencyRecords().length, 1);
  const after = await dry({ method: 'POST', path, body: RULE });
  assert.is(after.status, 409, 'a dry run after the write is checked as a new write: the rule exists');
  assert.is(after.headers['idempotent-replayed'], undefined);
  const replay = await call({ method: 'POST', path, body: RULE });
  assert.is(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.json, real.json);
});

test('no stamp: a token whose only use was a dry run has never been used; the bucket still counts it', async () => {
  const bearer = await router.mint('probe', ['firewall:rw'], ['--rate', '1', '--burst', '100']);
  const asProbe = (options: RequestOptions) => router.request({ ...options, headers: { authorization: `Bearer ${bearer}` } });
  const state = () => readFileSync(router.path('/tmp/wrtapi/tokens/probe'), 'utf8').split(' ');
  const tried = await asProbe({ method: 'POST', path: '/firewall/rules?dry_run=true', body: RULE });
  assert.is(tried.status, 200, tried.body);
  assert.is(state().length, 2, 'the bucket and its time, no last use');
  assert.is(state()[0], '99', 'the dry run took one request from the full bucket');
  const whoami = await asProbe({ method: 'GET', path: '/auth/whoami' });
  assert.is((whoami.json as Body).last_used_at, null);
  assert.is(state().length, 4, 'a real request stamps');
  assert.not.match(readFileSync(router.path('/etc/config/wrtapi'), 'utf8'), /last_used/);
});

test('a dry run leaves what a killed writer left for the next real write to sweep', async () => {
  const leftover = router.path('/etc/config/.firewall.999999999.1.tmp');
  writeFileSync(leftover, 'half a file');
  await dryRun({ method: 'POST', path: '/firewall/rules', body: RULE });
  assert.ok(existsSync(leftover));
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: RULE })).status, 200);
  assert.not.ok(existsSync(leftover));
});

test('the management-path warning of the write, on its dry run', async () => {
  const body = await dryRun({ method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddrs: ['192.168.1.1/24'], netmask: null } });
  assert.equal(body.changes, { network: ["-network.lan.netmask", "network.lan.ipaddr='192.168.1.1/24'"] });
  const response = await dry({ method: 'PATCH', path: '/network/interfaces/lan', body: { ipaddrs: ['192.168.1.1/24'], netmask: null } });
  assert.is(response.headers['x-mgmt-path-warning'], 'interface=lan changed=ipaddrs,netmask');
});

test('a wireguard peer: nothing applied to the kernel, and its keys are never shown', async () => {
  const privateKey = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=';
  const preshared = 'FpCyhws9cxwWoV4xELtfJvjJN+zQVRPISllRWgeopVE=';
  const publicKey = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';
  const wg0 = await dryRun({ method: 'POST', path: '/network/interfaces', body: { id: 'wg0', proto: 'wireguard', private_key: privateKey, addresses: ['10.9.0.1/24'] } });
  assert.ok(wg0.changes.network.includes('network.wg0.private_key=<redacted>'));
  assert.is((await call({ method: 'POST', path: '/network/interfaces', body: { id: 'wg0', proto: 'wireguard', private_key: privateKey, addresses: ['10.9.0.1/24'] } })).status, 200);
  const peer = { id: 'laptop', interface: 'wg0', public_key: publicKey, preshared_key: preshared, allowed_ips: ['10.9.0.2/32'], route_allowed_ips: true };
  const body = await dryRun({ method: 'POST', path: '/network/wireguard_peers', body: peer });
  assert.equal(body.changes, {
    network: ["network.laptop='wireguard_wg0'", `network.laptop.public_key='${publicKey}'`, 'network.laptop.preshared_key=<redacted>', "network.laptop.allowed_ips+='10.9.0.2/32'", "network.laptop.route_allowed_ips='1'"],
  });
  const written = router.texts('/var/log', '/tmp');
  assert.not.ok(written.includes(preshared) || written.includes(privateKey), 'no key in an answer, a log or a state file');
  assert.not.ok(existsSync(router.path('/var/log/wg.log')), 'no wg set');
  const real = await call({ method: 'POST', path: '/network/wireguard_peers', body: peer });
  assert.is(real.headers['x-kernel-applied'], 'wg0');
  assert.ok(existsSync(router.path('/var/log/wg.log')));
});

test('metrics count a dry run apart from the requests: it is no write done', async () => {
  await dryRun({ method: 'POST', path: '/firewall/rules', body: RULE });
  await refusedAlike({ method: 'POST', path: '/firewall/rules', body: { ...RULE, match: { src_zone: 'nowhere' } } }, 422, 'validation_failed');
  const text = (await call({ method: 'GET', path: '/metrics' })).body;
  assert.match(text, 'wrtapi_dry_runs_total{method="POST",path="/firewall/rules",status="200",token_id="admin"} 1\n');
  assert.match(text, 'wrtapi_dry_runs_total{method="POST",path="/firewall/rules",status="422",token_id="admin"} 1\n');
  assert.match(text, 'wrtapi_requests_total{method="POST",path="/firewall/rules",status="422",token_id="admin"} 1\n');
  assert.not.match(text, 'wrtapi_requests_total{method="POST",path="/firewall/rules",status="200"');
  assert.match(text, 'wrtapi_validate_errors_total{resource="firewall/rules",code="conflict"} 2\n', 'a refused body is counted whatever the mode');
});

test.run();
