import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exitCode, startCgi } from '../../shims/emu/engines.js';
import { lanRequestEnvironment } from '../../shims/emu/uhttpd.js';
import { parseUci } from '../../src/uci/parse.js';
import { serializeUci } from '../../src/uci/index.js';
import { newRouter, type Router } from '../support/router.js';

// uhttpd SIGKILLs a CGI program whose client hangs up, at any instant of a write. Whatever instant
// that is, the configuration is never torn, nothing is left behind once the next write has run, no
// lock outlives its holder, and that next write goes through at once.
let router: Router;
let authorization: string;
test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('killer', ['*:rw'], ['--rate', '100000', '--burst', '100000'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

const rule = (name: string) => ({ name, target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2222'] } });

/**
 * A POST of a rule, killed `afterMs` after it starts or as it starts its `killAt`th file or process
 * operation (wasm engine). Resolves to its exit code: 137 when it was killed.
 */
async function killedWrite(name: string, kill: { afterMs?: number; killAt?: number }): Promise<number> {
  const body = JSON.stringify(rule(name));
  const env = lanRequestEnvironment({
    method: 'POST',
    url: '/api/v3/firewall/rules',
    headers: { authorization, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  })!;
  if (kill.killAt) env.WRTAPI_EMU_KILL_AT = String(kill.killAt);
  const child = await startCgi({ root: router.root, engine: router.engine, env, body });
  child.stdout!.resume();
  const timer = kill.afterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), kill.afterMs);
  const code = await exitCode(child);
  clearTimeout(timer);
  return code;
}

/** Whether a path is there, a dangling symbolic link included. */
const lstatExists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** The firewall file is whole: libuci's reader takes it, and it is exactly as `uci commit` writes it. */
function assertWhole(): void {
  const text = readFileSync(router.path('/etc/config/firewall'), 'utf8');
  assert.is(serializeUci(parseUci(text)), text);
}

/** The write after the kills: answered at once, and it clears whatever the killed ones left. */
async function assertNextWriteClears(name: string): Promise<void> {
  const diagnostics = await router.request({ method: 'GET', path: '/diagnostics', headers: { authorization } });
  const { global_held, per_package } = (diagnostics.json as { lock_state: { global_held: boolean; per_package: Record<string, boolean> } }).lock_state;
  assert.is(global_held, false, 'no live process holds the global lock');
  assert.equal(Object.values(per_package).filter(Boolean), [], 'nor a package lock');
  const started = Date.now();
  const next = await router.request({ method: 'POST', path: '/firewall/rules', headers: { authorization }, body: rule(name) });
  assert.is(next.status, 200, next.body);
  assert.ok(Date.now() - started < 1000, `the next write took ${Date.now() - started} ms`);
  assertWhole();
  // A record's temporary is the fold's to clear (GET /metrics folds), not the write's.
  assert.is((await router.request({ method: 'GET', path: '/metrics', headers: { authorization } })).status, 200);
  assert.equal(router.leftovers(), []);
}

test('the next write removes what each kind of dead owner left, the next fold a record\'s temporary, and both keep what a live one holds', async () => {
  const dead = '999999999';
  const files = (paths: string[]) => paths.map((path) => [path, router.path(path)] as const);
  const gone = files([`/etc/config/.dhcp.${dead}.2.tmp`, `/tmp/wrtapi/.armed.${dead}.0.tmp`, `/tmp/.wrtapi-run.${dead}.3.out`, `/var/lock/wrtapi.healthz.${dead}`]);
  const kept = files([`/tmp/wrtapi/metrics/.1234.${process.pid}.0.tmp`, '/tmp/wrtapi-notes.tmp', '/var/lock/other.lock']);
  const folded = files([`/tmp/wrtapi/metrics/.1234.${dead}.0.tmp`]);
  for (const [, path] of [...gone, ...kept, ...folded]) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'left');
  }
  router.lock('/var/lock/wrtapi.dhcp.lock', `${dead}:1`);
  router.lock('/tmp/wrtapi/tokens/killer.lock', `${dead}:1`);
  router.lock('/tmp/wrtapi/tokens/live.lock');
  const written = await router.request({ method: 'POST', path: '/firewall/rules', headers: { authorization }, body: rule('Sweeper') });
  assert.is(written.status, 200, written.body);
  for (const [name, path] of gone) assert.not.ok(existsSync(path), `${name} removed`);
  for (const [name, path] of kept) assert.ok(existsSync(path), `${name} kept`);
  for (const name of ['/var/lock/wrtapi.dhcp.lock', '/tmp/wrtapi/tokens/killer.lock']) assert.not.ok(lstatExists(router.path(name)), `${name} removed`);
  assert.ok(lstatExists(router.path('/tmp/wrtapi/tokens/live.lock')), 'a live mutex kept');
  for (const [name, path] of folded) assert.ok(existsSync(path), `${name} left by the write to the fold`);
  assert.is((await router.request({ method: 'GET', path: '/metrics', headers: { authorization } })).status, 200);
  for (const [name, path] of folded) assert.not.ok(existsSync(path), `${name} removed by the fold`);
  for (const [name, path] of kept) assert.ok(existsSync(path), `${name} kept by the fold`);
});

test('writers killed at random instants leave no torn file, no leftover and no lock in the way', async () => {
  const probe = Date.now();
  await killedWrite('probe', {});
  const writeMs = Date.now() - probe;
  const kills = router.engine === 'native' ? 30 : 6;
  let seed = 42;
  for (let i = 0; i < kills; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    await killedWrite(`killed${i}`, { afterMs: (seed >>> 8) % (writeMs + 1) });
    assertWhole();
  }
  await assertNextWriteClears('after');
});

test('a writer killed at each of its file and process operations in turn leaves nothing that matters', async () => {
  // Only the emulator's wasm engine can stop a program at a chosen operation.
  if (router.engine !== 'wasm') return;
  let killAt = 1;
  // Once the kill point lies past its last operation, the write runs to its end.
  while ((await killedWrite(`op${killAt}`, { killAt })) === 137) {
    assertWhole();
    await assertNextWriteClears(`next${killAt}`);
    killAt++;
  }
  assert.ok(killAt > 20, `a write made only ${killAt - 1} operations`);
});

test.run();
