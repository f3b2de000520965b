import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installBytecodeModule, runCgi } from '../../shims/emu/engines.js';
import { bundleDir } from '../../shims/emu/project.js';
import { httpAnswer, lanRequestEnvironment } from '../../shims/emu/uhttpd.js';
import { newRouter, type Router } from '../support/router.js';

// wrtapi-bytecode (packaging/wrtapi-bytecode): the cache must be read when it is valid, and never
// when anything about it is unexpected. Each refusal is shown on a forged entry that is valid in
// every other respect and holds the bytecode of a changed handler: loading it would answer
// `"ubus":"poisoned"`, and a refused cache answers `"ubus":"ok"` from the source.
const engine = process.env.WRTAPI_ENGINE ?? 'wasm';
const HANDLER = 'handlers/healthz.js';

let router: Router;
let bundle: string;
let genuineHandler: string;
let forgedEntry: Buffer;

const cacheDir = () => router.path('/tmp/wrtapi/bytecode');
const entryOf = (module: string) => join(cacheDir(), join(bundle, module).replace(/^\/+/, '').replaceAll('/', '.'));

async function healthz(): Promise<string> {
  const env = lanRequestEnvironment({ method: 'GET', url: '/api/v3/healthz', headers: {} })!;
  const answer = httpAnswer(await runCgi({ root: router.root, engine: 'native', env, program: join(bundle, 'wrtapi.js') }));
  assert.is(answer.status, 200, answer.body.toString());
  return (JSON.parse(answer.body.toString()) as { checks: { ubus: string } }).checks.ubus;
}

/** An entry's header lines and the rest: `wrtapi-bytecode 1`, `engine`, `source`, `module`, then `code` and the bytecode. */
function split(entry: Buffer): { head: string[]; code: Buffer } {
  let at = 0;
  for (let line = 0; line < 4; line++) at = entry.indexOf(10, at) + 1;
  return { head: entry.subarray(0, at).toString('latin1').split('\n').slice(0, 4), code: entry.subarray(at) };
}

/** Writes the forged entry into a fresh cache made as the module makes it. */
function forge(entry: Buffer = forgedEntry): void {
  rmSync(cacheDir(), { recursive: true, force: true });
  mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
  writeFileSync(entryOf(HANDLER), entry, { mode: 0o600 });
}

if (engine === 'native' && process.env.WRTAPI_BYTECODE !== '1') {
  test.before(async () => {
    router = await newRouter();
    await installBytecodeModule(router.root);
    // A bundle of the test's own, whose handler it can change, as a router's /usr/share/wrtapi.
    bundle = mkdtempSync(join(tmpdir(), 'wrtapi-bundle-'));
    cpSync(bundleDir, bundle, { recursive: true });
    genuineHandler = readFileSync(join(bundle, HANDLER), 'utf8');
    assert.is(await healthz(), 'ok');
    const genuine = split(readFileSync(entryOf(HANDLER)));
    writeFileSync(join(bundle, HANDLER), genuineHandler.replace('ubus:"ok"', 'ubus:"poisoned"'));
    assert.is(await healthz(), 'poisoned', 'a changed source is compiled again');
    const changed = split(readFileSync(entryOf(HANDLER)));
    writeFileSync(join(bundle, HANDLER), genuineHandler);
    forgedEntry = Buffer.concat([Buffer.from(genuine.head.join('\n') + '\n', 'latin1'), changed.code]);
  });
  test.after(async () => {
    rmSync(bundle, { recursive: true, force: true });
    await router.cleanup();
  });

  test('the first request writes an entry per module it loads, 0600 in a 0700 folder, and the next loads them', async () => {
    rmSync(router.path('/tmp/wrtapi'), { recursive: true, force: true });
    assert.is(await healthz(), 'ok');
    assert.is(statSync(router.path('/tmp/wrtapi')).mode & 0o777, 0o700);
    assert.is(statSync(cacheDir()).mode & 0o777, 0o700);
    const entries = readdirSync(cacheDir());
    const has = (module: string) => entries.includes(basename(entryOf(module)));
    assert.ok(has('cgi.js') && has(HANDLER), entries.join(' '));
    assert.not.ok(has('wrtapi.js'), 'the launcher is compiled before the cache is in place');
    for (const name of entries) assert.is(statSync(join(cacheDir(), name)).mode & 0o777, 0o600, name);
    const { head } = split(readFileSync(entryOf(HANDLER)));
    assert.is(head[0], 'wrtapi-bytecode 1');
    assert.match(head[1], /^engine 2021-03-27 \d+:\d+:\d+:\d+$/);
    assert.match(head[2], new RegExp(`^source [0-9a-f]{16} ${Buffer.byteLength(genuineHandler)}$`));
    assert.is(head[3], `module ${join(bundle, HANDLER)}`);
    const written = statSync(entryOf(HANDLER)).mtimeMs;
    assert.is(await healthz(), 'ok');
    assert.is(statSync(entryOf(HANDLER)).mtimeMs, written, 'a valid entry is read, not written again');
  });

  test('a forged entry valid in every respect is loaded: the control for every refusal below', async () => {
    forge();
    assert.is(await healthz(), 'poisoned');
  });

  test('a folder owned by another user is not used', async () => {
    forge();
    chownSync(cacheDir(), 65534, 65534);
    assert.is(await healthz(), 'ok');
    assert.equal(readdirSync(cacheDir()), [entryOf(HANDLER).split('/').pop()], 'nothing is written into it either');
    forge();
    chownSync(router.path('/tmp/wrtapi'), 65534, 65534);
    assert.is(await healthz(), 'ok', 'nor is a folder whose parent another user owns');
    chownSync(router.path('/tmp/wrtapi'), process.getuid!(), process.getgid!());
  });

  test('a group- or world-writable folder or parent is not used', async () => {
    for (const [dir, mode] of [[cacheDir(), 0o777], [cacheDir(), 0o770], [router.path('/tmp/wrtapi'), 0o757]] as const) {
      forge();
      chmodSync(dir, mode);
      assert.is(await healthz(), 'ok', `${dir} ${mode.toString(8)}`);
      chmodSync(dir, 0o700);
    }
  });

  test('a symbolic link in place of the folder, of its parent or of an entry is not followed', async () => {
    forge();
    const elsewhere = router.path('/tmp/elsewhere');
    renameSync(cacheDir(), elsewhere);
    symlinkSync(elsewhere, cacheDir());
    assert.is(await healthz(), 'ok', 'the folder');
    rmSync(cacheDir());
    rmSync(elsewhere, { recursive: true });
    forge();
    const parent = router.path('/tmp/wrtapi');
    renameSync(parent, router.path('/tmp/wrtapi-real'));
    symlinkSync(router.path('/tmp/wrtapi-real'), parent);
    assert.is(await healthz(), 'ok', 'the parent');
    rmSync(parent);
    renameSync(router.path('/tmp/wrtapi-real'), parent);
    forge();
    renameSync(entryOf(HANDLER), join(router.path('/tmp'), 'entry'));
    symlinkSync(join(router.path('/tmp'), 'entry'), entryOf(HANDLER));
    assert.is(await healthz(), 'ok', 'an entry');
  });

  test('an entry owned by another user or writable by others is not read', async () => {
    forge();
    chownSync(entryOf(HANDLER), 65534, 65534);
    assert.is(await healthz(), 'ok');
    forge();
    chmodSync(entryOf(HANDLER), 0o622);
    assert.is(await healthz(), 'ok');
  });

  test('a truncated or damaged entry is compiled again and rewritten', async () => {
    for (const damaged of [forgedEntry.subarray(0, forgedEntry.length - 7), Buffer.concat([forgedEntry.subarray(0, -1), Buffer.from([forgedEntry.at(-1)! ^ 1])])]) {
      forge(damaged);
      assert.is(await healthz(), 'ok');
      assert.is(split(readFileSync(entryOf(HANDLER))).head[0], 'wrtapi-bytecode 1');
      assert.is(await healthz(), 'ok', 'the rewritten entry is the genuine one');
    }
  });

  test('an entry of a changed source is not loaded', async () => {
    const { head, code } = split(forgedEntry);
    forge(Buffer.concat([Buffer.from([head[0], head[1], head[2].replace(/ [0-9a-f]{16} /, ' 0123456789abcdef '), head[3], ''].join('\n'), 'latin1'), code]));
    assert.is(await healthz(), 'ok');
    forge(Buffer.concat([Buffer.from([head[0], head[1], head[2].replace(/ (\d+)$/, (_, n) => ` ${Number(n) + 1}`), head[3], ''].join('\n'), 'latin1'), code]));
    assert.is(await healthz(), 'ok');
  });

  test('an entry another engine wrote is not loaded', async () => {
    const { head, code } = split(forgedEntry);
    for (const engineLine of [head[1].replace('2021-03-27', '2025-09-13'), head[1].replace(/:\d+$/, ':1')]) {
      forge(Buffer.concat([Buffer.from([head[0], engineLine, head[2], head[3], ''].join('\n'), 'latin1'), code]));
      assert.is(await healthz(), 'ok', engineLine);
    }
  });

  test('a request answers the same when the cache cannot be made', async () => {
    rmSync(cacheDir(), { recursive: true, force: true });
    // root writes into a read-only folder all the same: a file where the folder should be stops it.
    writeFileSync(cacheDir(), '');
    assert.is(await healthz(), 'ok');
    assert.is(readFileSync(cacheDir(), 'utf8'), '', 'nothing written in its place');
    rmSync(cacheDir());
  });
}

if (engine === 'native' && process.env.WRTAPI_BYTECODE !== '1') {
  test('answers, files, log lines and the programs run are the same with the module and without it', async () => {
    const [cached, plain] = [await newRouter(), await newRouter()];
    try {
      await installBytecodeModule(cached.root);
      const bearer = await cached.mint('same', ['*:rw']);
      writeFileSync(plain.path('/etc/config/wrtapi'), readFileSync(cached.path('/etc/config/wrtapi')), { mode: 0o600 });
      const authorization = `Bearer ${bearer}`;
      // A name past ASCII, so that the ETags compare the module's hash of UTF-8 against etag.ts's of UTF-16.
      const rule = { id: 'same', name: 'Sämé 中 \u{1f600}', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2200'] } };
      const requests = [
        { method: 'GET', path: '/healthz' },
        { method: 'POST', path: '/firewall/rules', body: rule },
        { method: 'POST', path: '/firewall/rules', body: rule },
        { method: 'GET', path: '/firewall/rules/same' },
        // Refused, naming the ETag the precondition check hashed.
        { method: 'PATCH', path: '/firewall/rules/same?if_match=%220000000000000000%22', body: { name: 'Other' } },
        { method: 'PATCH', path: '/firewall/rules/same', body: { name: 'Same-2', match: { dest_port: ['x'] } } },
        { method: 'PATCH', path: '/firewall/rules/same', body: { name: 'Same-2' } },
        { method: 'GET', path: '/firewall/rules?limit=2' },
        { method: 'GET', path: '/network/interfaces/lan' },
        { method: 'POST', path: '/batch', body: { operations: [{ method: 'DELETE', path: '/firewall/rules/same' }, { method: 'POST', path: '/network/routes', body: { id: 'r1', interface: 'lan', target: '10.9.0.0/16' } }] } },
        { method: 'GET', path: '/raw/network/r1' },
        { method: 'GET', path: '/nowhere' },
        { method: 'GET', path: '/openapi.json' },
      ];
      // Request ids and durations differ between any two runs.
      const masked = (text: string) => text.replace(/[0-9A-HJKMNP-TV-Z]{26}/g, '<id>').replace(/ \d+ms\b/g, ' <ms>');
      for (const request of requests) {
        const answers = await Promise.all([cached, plain].map((router) => router.request({ ...request, headers: { authorization } })));
        const [a, b] = answers.map(({ status, headers, body }) => ({ status, headers: masked(JSON.stringify({ ...headers, 'x-request-id': undefined })), body: masked(body) }));
        assert.equal(a, b, `${request.method} ${request.path}`);
      }
      assert.equal([...cached.snapshot('/etc')].map(([path, text]) => [path.slice(cached.root.length), text]), [...plain.snapshot('/etc')].map(([path, text]) => [path.slice(plain.root.length), text]));
      const log = (router: Router) => masked(readFileSync(router.path('/var/log/messages'), 'utf8')).split('\n').filter((line) => line.includes('wrtapi'));
      assert.ok(log(plain).filter((line) => line.includes(' AUDIT ')).length >= 4, log(plain).join('\n'));
      assert.equal(log(cached), log(plain));
      // The programs wrtapi ran, started by the module's exec() on one router and os.exec on the other.
      const calls = (router: Router) => ['ubus', 'init'].map((log) => readFileSync(router.path(`/var/log/${log}.log`), 'utf8'));
      assert.ok(calls(plain)[0].includes('system info\n') && calls(plain)[1].includes('firewall reload\n'), calls(plain).join('\n'));
      assert.equal(calls(cached), calls(plain));
      assert.ok(readdirSync(cached.path('/tmp/wrtapi/bytecode')).length > 20, 'the cache was in use');
    } finally {
      await Promise.all([cached.cleanup(), plain.cleanup()]);
    }
  });
}

if (engine === 'wasm') {
  test('the wasm engine, which cannot load a native module, answers as without it', async () => {
    const router = await newRouter();
    try {
      await installBytecodeModule(router.root);
      const answer = await router.request({ method: 'GET', path: '/healthz' });
      assert.is(answer.status, 200);
      assert.is((answer.json as { status: string }).status, 'ok');
    } finally {
      await router.cleanup();
    }
  });
}

test.run();
