// Commit-confirm through the CGI path: a write with ?confirm_within arms a rollback to the packages as
// they were, which its helper carries out at the deadline unless POST /confirm/<id> makes the change
// stay; other writes meanwhile answer 423 unless they join with ?confirm_id; a killed helper is
// restarted by the next write it refuses, and a reboot rolls back what nobody confirmed.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, initLog, refused } = writeChecks(() => ({ router, authorization }));

const RULE = { name: 'Armed', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2222'] } };
const ROUTE = { family: 'ipv4', interface: 'lan', target: '10.99.0.0/16', gateway: '192.168.1.2' };
const STATE = '/etc/wrtapi/confirm/armed.json';
const HELPER = '/tmp/wrtapi/confirm-helper';

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

const read = (on: Router, path: string) => readFileSync(on.path(path), 'utf8');
const armedState = (on: Router): Body | undefined => (existsSync(on.path(STATE)) ? JSON.parse(read(on, STATE)) : undefined);
const messages = (on: Router) => read(on, '/var/log/messages');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** Resolves once `done()` holds, or fails after `ms`. */
async function until(what: string, done: () => boolean, ms: number): Promise<number> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) assert.unreachable(`${what} within ${ms} ms`);
    await sleep(100);
  }
  return Date.now() - started;
}

/** An armed write that went through: its ordinary answer, plus the window's id and deadline. */
async function arm(on: Router, bearer: string, request: RequestOptions, seconds: number): Promise<{ id: string; response: Response }> {
  const started = Date.now();
  const response = await on.request({ ...request, path: withQuery(request.path, `confirm_within=${seconds}`), headers: { authorization: bearer } });
  assert.ok(response.status === 200 || response.status === 204 || response.status === 207, `${request.method} ${request.path}: ${response.status} ${response.body}`);
  assert.is(response.headers['x-reload-status'], 'ok');
  const id = response.headers['x-confirm-id'];
  assert.match(id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  const deadline = Date.parse(response.headers['x-confirm-deadline']);
  assert.match(response.headers['x-confirm-deadline'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.ok(Math.abs(deadline - (started + seconds * 1000)) < 3000, 'the deadline is the window from now');
  assert.is(armedState(on)?.id, id);
  return { id, response };
}

/** Where the helper of a window names itself once it runs: its identity, `<pid>:<start time>`. */
async function helperPid(on: Router): Promise<number> {
  await until('the helper names itself', () => existsSync(on.path(HELPER)) && read(on, HELPER).includes(':'), 10_000);
  return Number(read(on, HELPER).split(':')[0]);
}

/** Whether the process runs (a zombie, which a container's init may never reap, does not). */
const running = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return false;
  }
};

test('an armed write keeps the packages as they were on flash, answers its window, and holds off every other write until confirmed', async () => {
  const firewall = read(router, '/etc/config/firewall');
  const { id, response } = await arm(router, authorization, { method: 'POST', path: '/firewall/rules', body: RULE }, 60);
  const created = response.json as Body;
  assert.is(created.name, 'Armed');
  assert.equal(initLog(), ['firewall reload']);
  const state = armedState(router)!;
  assert.equal({ ...state, armed_at: 0, deadline: 0 }, { id, token: 'admin', armed_at: 0, deadline: 0, packages: ['firewall'], absent: [], services: ['firewall'] });
  assert.is(read(router, '/etc/wrtapi/confirm/firewall.uci'), firewall, 'the package byte for byte as it was');
  assert.is(statSync(router.path('/etc/wrtapi/confirm/firewall.uci')).mode & 0o777, 0o600);
  const helper = await helperPid(router);
  assert.ok(running(helper), 'the helper keeps the window');

  // Every other configuration write, a second arm and a dry run included, is refused naming the change.
  for (const path of ['/firewall/rules', '/firewall/rules?confirm_within=60', '/firewall/rules?dry_run=true']) {
    const envelope = await refused({ method: 'POST', path, body: { ...RULE, name: 'Other' } }, 423, 'locked');
    assert.is(envelope.confirm_id, id);
    assert.is(envelope.expires_at, response.headers['x-confirm-deadline']);
    assert.match(envelope.message, `POST /confirm/${id}`);
  }
  await refused({ method: 'DELETE', path: `/firewall/rules/${created.id}` }, 423, 'locked');
  // A raw write joins as a curated one does, and answers the window it joined.
  const raw = await call({ method: 'PATCH', path: `/raw/firewall/${created.id}?confirm_id=${id}`, body: { options: { enabled: '0' } } });
  assert.is(raw.status, 200, raw.body);
  assert.equal([raw.headers['x-confirm-id'], raw.headers['x-confirm-deadline']], [id, response.headers['x-confirm-deadline']]);
  await refused({ method: 'PATCH', path: '/raw/network/lan', body: { options: { mtu: '1400' } } }, 423, 'locked');
  // Writes that are not configuration writes go on.
  assert.is((await call({ method: 'POST', path: '/tokens', body: { name: 'reader', scopes: ['firewall:ro'] } })).status, 201);

  const shown = await call({ method: 'GET', path: `/confirm/${id}` });
  assert.is(shown.status, 200, shown.body);
  assert.equal(shown.json, { id, token: 'admin', armed_at: (shown.json as Body).armed_at, expires_at: response.headers['x-confirm-deadline'], packages: ['firewall'], services: ['firewall'] });

  const reloads = initLog().length;
  const confirmed = await call({ method: 'POST', path: `/confirm/${id}` });
  assert.is(confirmed.status, 204, confirmed.body);
  assert.is(armedState(router), undefined);
  assert.not.ok(existsSync(router.path('/etc/wrtapi/confirm/firewall.uci')), 'the snapshot goes with the state');
  await until('the helper ends with its window', () => !running(helper), 3000);
  assert.match(read(router, '/etc/config/firewall'), "option name 'Armed'");
  assert.is(initLog().length, reloads, 'a confirmation reloads nothing');
  assert.match(messages(router), new RegExp(`admin AUDIT - POST /confirm/${id} 204`));
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: { ...RULE, name: 'After' } })).status, 200, 'writes go on once confirmed');
  assert.is((await call({ method: 'POST', path: `/confirm/${id}` })).status, 404);
});

test('a missed deadline rolls back and reloads; an extended window holds; a killed helper is restarted by the next write it refuses', async () => {
  const extended = await newRouter();
  const abandoned = await newRouter();
  try {
    const routers = [router, extended, abandoned];
    const bearers = [authorization, ...(await Promise.all([extended, abandoned].map(async (on) => `Bearer ${await on.mint('admin', ['*:rw'])}`)))];
    const before = routers.map((on) => read(on, '/etc/config/firewall'));
    const windows = await Promise.all(routers.map((on, i) => arm(on, bearers[i], { method: 'POST', path: '/firewall/rules', body: RULE }, 10)));
    const armedAt = Date.now();
    const renewed = await extended.request({ method: 'POST', path: `/confirm/${windows[1].id}?extend=25`, headers: { authorization: bearers[1] } });
    assert.is(renewed.status, 200, renewed.body);
    assert.ok(Date.parse((renewed.json as Body).expires_at) - Date.now() > 20_000);
    const killed = await helperPid(abandoned);
    process.kill(killed, 'SIGKILL');

    // The helper keeps the deadline: not early, and within a tick or two after it.
    // The helper's line reaches the log last: its logger is not waited for.
    await until('the rollback', () => messages(router).includes('AUDIT rolled_back'), 16_000);
    assert.ok(Date.now() - armedAt >= 8_500, `rolled back ${Date.now() - armedAt} ms after the arm`);
    assert.is(read(router, '/etc/config/firewall'), before[0], 'the package byte for byte as it was');
    assert.equal(initLog(), ['firewall reload', 'firewall reload'], 'the rollback reloads the services');
    assert.match(messages(router), new RegExp(`daemon\\.notice wrtapi: ${windows[0].id} admin AUDIT rolled_back ROLLBACK /confirm/${windows[0].id} - \\d+ms reason=deadline deadline=\\S+ packages=firewall services=firewall\\n`));
    assert.not.ok(existsSync(router.path('/etc/wrtapi/confirm/firewall.uci')));

    // Past the first deadline: the extended window still holds, and so does the one nobody keeps.
    await sleep(Math.max(0, armedAt + 12_000 - Date.now()));
    assert.is(armedState(extended)?.id, windows[1].id);
    assert.match(read(extended, '/etc/config/firewall'), "option name 'Armed'");
    assert.is(armedState(abandoned)?.id, windows[2].id);
    const refusal = await abandoned.request({ method: 'POST', path: '/firewall/rules', body: { ...RULE, name: 'Other' }, headers: { authorization: bearers[2] } });
    assert.is(refusal.status, 423);
    await until('the restarted helper keeps the missed deadline', () => messages(abandoned).includes(`AUDIT rolled_back ROLLBACK /confirm/${windows[2].id}`), 8_000);
    assert.is(armedState(abandoned), undefined);
    assert.is(read(abandoned, '/etc/config/firewall'), before[2]);

    const confirmed = await extended.request({ method: 'POST', path: `/confirm/${windows[1].id}`, headers: { authorization: bearers[1] } });
    assert.is(confirmed.status, 204, confirmed.body);
    assert.match(read(extended, '/etc/config/firewall'), "option name 'Armed'");
  } finally {
    await extended.cleanup();
    await abandoned.cleanup();
  }
});

test('a reboot in the window rolls the change back before the services start', async () => {
  const firewall = read(router, '/etc/config/firewall');
  const { id } = await arm(router, authorization, { method: 'POST', path: '/firewall/rules', body: RULE }, 600);
  const helper = await helperPid(router);
  await router.reboot();
  assert.not.ok(running(helper), 'the reboot ended the helper');
  assert.is(armedState(router), undefined);
  assert.is(read(router, '/etc/config/firewall'), firewall);
  assert.match(messages(router), new RegExp(`^daemon\\.notice wrtapi: ${id} admin AUDIT rolled_back ROLLBACK /confirm/${id} - \\d+ms reason=reboot deadline=\\S+ packages=firewall services=firewall\\n`));
  const booted = initLog();
  assert.equal(booted.slice(0, 1), ['firewall reload'], 'only the arm reloaded');
  assert.ok(booted.slice(1).every((line) => / boot$/.test(line)), 'the services then start on the restored files');
  assert.is((await call({ method: 'POST', path: '/firewall/rules', body: RULE })).status, 200, 'writes go on after the reboot');
});

test('writes with ?confirm_id join the window: a rollback restores every package they touched and reloads each service', async () => {
  const before = { firewall: read(router, '/etc/config/firewall'), network: read(router, '/etc/config/network') };
  const { id, response } = await arm(router, authorization, { method: 'POST', path: '/firewall/rules', body: RULE }, 60);
  await refused({ method: 'POST', path: '/network/routes', body: ROUTE }, 423, 'locked');
  const joined = await call({ method: 'POST', path: `/network/routes?confirm_id=${id}`, body: ROUTE });
  assert.is(joined.status, 200, joined.body);
  assert.is(joined.headers['x-confirm-id'], id);
  const again = await call({ method: 'PATCH', path: `/firewall/rules/${(response.json as Body).id}?confirm_id=${id}`, body: { name: 'Renamed' } });
  assert.is(again.status, 200, again.body);
  const state = armedState(router)!;
  assert.equal([state.packages, state.services], [['firewall', 'network'], ['firewall', 'network']]);
  assert.is(read(router, '/etc/wrtapi/confirm/firewall.uci'), before.firewall, "a package's snapshot is taken before the window's first change only");
  assert.is(read(router, '/etc/wrtapi/confirm/network.uci'), before.network);
  const mark = initLog().length;
  const rolledBack = await call({ method: 'DELETE', path: `/confirm/${id}` });
  assert.is(rolledBack.status, 204, rolledBack.body);
  assert.equal(before, { firewall: read(router, '/etc/config/firewall'), network: read(router, '/etc/config/network') });
  assert.equal(initLog().slice(mark), ['firewall reload', 'network reload']);
  assert.is(armedState(router), undefined);
  assert.is((await call({ method: 'POST', path: `/network/routes?confirm_id=${id}`, body: ROUTE })).status, 409, 'a finished window cannot be joined');
});

test('a batch arms one window over every package it writes', async () => {
  const before = { firewall: read(router, '/etc/config/firewall'), network: read(router, '/etc/config/network') };
  const operations = [1, 2, 3, 4, 5].flatMap((i) => [
    { method: 'POST', path: '/firewall/rules', body: { ...RULE, name: `Batch-${i}` } },
    { method: 'POST', path: '/network/rules', body: { family: 'ipv4', priority: 100 + i, src: `10.${i}.0.0/16`, lookup: 100 } },
  ]);
  const { id, response } = await arm(router, authorization, { method: 'POST', path: '/batch', body: { operations } }, 60);
  assert.is(response.status, 207);
  assert.equal(armedState(router)!.packages, ['firewall', 'network']);
  assert.is((await call({ method: 'DELETE', path: `/confirm/${id}` })).status, 204);
  assert.equal(before, { firewall: read(router, '/etc/config/firewall'), network: read(router, '/etc/config/network') });
});

test('an arm whose reload fails is forgotten once restored, and stays armed, single write or batch, when the restore failed too', async () => {
  const firewall = read(router, '/etc/config/firewall');
  const script = read(router, '/etc/init.d/firewall');
  const setScript = (text: string) => writeFileSync(router.path('/etc/init.d/firewall'), text);
  setScript(`#!/bin/sh\nif [ ! -e "$WRTAPI_ROOT/tmp/failed-once" ]; then : > "$WRTAPI_ROOT/tmp/failed-once"; exit 1; fi\n`);
  const restored = await call({ method: 'POST', path: '/firewall/rules?confirm_within=60', body: RULE });
  assert.is(restored.status, 500, restored.body);
  assert.is((restored.json as Body).code, 'reload_failed_restored');
  assert.is(restored.headers['x-confirm-id'], undefined);
  assert.is(armedState(router), undefined, 'the arm is forgotten');
  assert.not.ok(existsSync(router.path('/etc/wrtapi/confirm/firewall.uci')));
  assert.is(read(router, '/etc/config/firewall'), firewall);
  const forgotten = await helperPid(router);
  await until('the helper of a forgotten arm ends', () => !running(forgotten), 3000);

  // A reload that never succeeds: the router keeps the window, whose snapshot is what it needs back.
  const single = { method: 'POST', path: '/firewall/rules?confirm_within=60', body: RULE };
  const batch = { method: 'POST', path: '/batch?confirm_within=60', body: { operations: [{ method: 'POST', path: '/firewall/rules', body: RULE }] } };
  for (const [request, code] of [[single, (body: Body) => body.code], [batch, (body: Body) => body.error.code]] as const) {
    setScript('#!/bin/sh\necho "still broken" >&2\nexit 2\n');
    const failed = await call(request);
    assert.is(failed.status, 500, failed.body);
    assert.is(code(failed.json as Body), 'reload_failed_unrecovered', request.path);
    const state = armedState(router);
    assert.ok(state, `${request.path}: the window stays armed`);
    assert.equal(state!.packages, ['firewall']);
    assert.is(read(router, '/etc/wrtapi/confirm/firewall.uci'), firewall, 'its snapshot is the package as it was');
    assert.ok(running(await helperPid(router)), 'its helper keeps it');
    // The rollback reloads with the script as shipped, which the tests after this one run too.
    setScript(script);
    assert.is((await call({ method: 'DELETE', path: `/confirm/${state!.id}` })).status, 204);
    assert.is(armedState(router), undefined);
  }
  assert.is(read(router, '/etc/config/firewall'), firewall);
  assert.is(read(router, '/etc/init.d/firewall'), script);
});

test('confirming or rolling back needs the write scope of every package the change touched, and so does arming', async () => {
  const rulesOnly = `Bearer ${await router.mint('rules', ['firewall:rules:rw'])}`;
  const networkOnly = `Bearer ${await router.mint('net', ['network:rw'])}`;
  const firewallWide = `Bearer ${await router.mint('fw', ['firewall:rw'])}`;
  const before = router.snapshot();
  const refusedArm = await router.request({ method: 'POST', path: '/firewall/rules?confirm_within=60', body: RULE, headers: { authorization: rulesOnly } });
  assert.is(refusedArm.status, 403, refusedArm.body);
  assert.is((refusedArm.json as Body).code, 'insufficient_scope');
  assert.match((refusedArm.json as Body).message, 'firewall:rw');
  assert.equal(router.snapshot(), before, 'a refused arm changes nothing');
  assert.not.ok(existsSync(router.path(HELPER)));
  const { id } = await arm(router, authorization, { method: 'POST', path: '/firewall/rules', body: RULE }, 60);
  for (const [method, path] of [['GET', `/confirm/${id}`], ['POST', `/confirm/${id}`], ['POST', `/confirm/${id}?extend=60`], ['DELETE', `/confirm/${id}`], ['POST', `/firewall/rules?confirm_id=${id}`]]) {
    const response = await router.request({ method, path, body: method === 'POST' && path.startsWith('/firewall') ? RULE : undefined, headers: { authorization: networkOnly } });
    assert.is(response.status, 403, `${method} ${path}: ${response.body}`);
  }
  assert.is(armedState(router)?.id, id);
  const confirmed = await router.request({ method: 'POST', path: `/confirm/${id}`, headers: { authorization: firewallWide } });
  assert.is(confirmed.status, 204, confirmed.body);
});

test('bad confirm parameters are refused and change nothing', async () => {
  for (const query of ['confirm_within=9', 'confirm_within=3601', 'confirm_within=60s', 'confirm_within=', 'confirm_within=60&confirm_id=01M8KD1ZTTQDG7AAPER0XRD9XQ', 'confirm_id=nope']) {
    await refused({ method: 'POST', path: `/firewall/rules?${query}`, body: RULE }, 400, 'bad_request');
  }
  await refused({ method: 'POST', path: '/tokens?confirm_within=60', body: { name: 'x', scopes: ['firewall:ro'] } }, 400, 'bad_request');
  const unknown = await refused({ method: 'POST', path: '/firewall/rules?confirm_id=01M8KD1ZTTQDG7AAPER0XRD9XQ', body: RULE }, 409, 'conflict');
  assert.match(unknown.message, 'confirmed or rolled back');
  // A write refused on its own merits arms nothing.
  await refused({ method: 'POST', path: '/firewall/rules?confirm_within=60', body: { ...RULE, target: 'EXPLODE' } }, 422, ['target:not_in_enum']);
  assert.not.ok(existsSync(router.path(STATE)));
  assert.not.ok(existsSync(router.path(HELPER)), 'no helper was started');
  const { id } = await arm(router, authorization, { method: 'POST', path: '/firewall/rules', body: RULE }, 60);
  for (const extend of ['9', '3601', 'x']) {
    const response = await call({ method: 'POST', path: `/confirm/${id}?extend=${extend}` });
    assert.is(response.status, 400, response.body);
  }
  assert.is((await call({ method: 'GET', path: '/confirm/01M8KD1ZTTQDG7AAPER0XRD9XQ' })).status, 404);
  // A dry run that joins is checked as the write, and changes nothing of the window.
  const tried = await call({ method: 'POST', path: `/network/routes?confirm_id=${id}&dry_run=true`, body: ROUTE });
  assert.is(tried.status, 200, tried.body);
  assert.equal(armedState(router)!.packages, ['firewall']);
});

test.run();
