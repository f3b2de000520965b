import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildBytecodePackage, buildDocPackage, buildPackage } from '../../build/package.js';
import { bytecodeModule, runCgi } from '../../shims/emu/engines.js';
import { bundleDir, docDir, projectRoot } from '../../shims/emu/project.js';
import { lanRequestEnvironment } from '../../shims/emu/uhttpd.js';
import { API_ALIAS, apiAliases, initLog, ipkParts, member, runScript, untar, type Member } from '../support/package-tools.js';
import { newRouter, type Router } from '../support/router.js';

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`],
  );
}

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
const {
  ipk: { fileName, bytes: ipk },
} = await buildPackage(projectRoot);
const outer = untar(gunzipSync(ipk));
const dataTar = gunzipSync(member(outer, './data.tar.gz').data);
const { data, control } = ipkParts(ipk);

test('the ipk is a gzipped tar of debian-binary, data.tar.gz and control.tar.gz, in ipkg-build order', () => {
  assert.is(fileName, `wrtapi_${manifest.version}_all.ipk`);
  assert.equal([...ipk.subarray(0, 2)], [0x1f, 0x8b]);
  assert.equal(
    outer.map(({ name, mode, uid, gid, type }) => ({ name, mode, uid, gid, type })),
    ['./debian-binary', './data.tar.gz', './control.tar.gz'].map((name) => ({ name, mode: 0o644, uid: 0, gid: 0, type: '0' })),
  );
  assert.is(member(outer, './debian-binary').data.toString(), '2.0\n');
});

test('the data archive holds the bundle, the launchers, the configuration (0600: it will hold the tokens), the uci-defaults script, the boot hook and what sysupgrade keeps, all root-owned', () => {
  const bundle = filesUnder(bundleDir).map((path) => `./usr/share/wrtapi${path}`);
  const launchers = ['./etc/init.d/wrtapi', './etc/uci-defaults/wrtapi', './usr/bin/wrtapi-token', './www/cgi-bin/wrtapi'];
  const files = [...bundle, ...launchers, './etc/config/wrtapi', './lib/upgrade/keep.d/wrtapi'];
  const directories = new Set(['./']);
  for (const file of files) for (let i = file.indexOf('/', 2); i !== -1; i = file.indexOf('/', i + 1)) directories.add(file.slice(0, i + 1));

  assert.equal(data.map((entry) => entry.name).sort(), [...files, ...directories].sort());
  for (const entry of data) {
    const expected = directories.has(entry.name)
      ? { type: '5', mode: 0o755 }
      : { type: '0', mode: launchers.includes(entry.name) ? 0o755 : entry.name === './etc/config/wrtapi' ? 0o600 : 0o644 };
    assert.equal({ name: entry.name, uid: entry.uid, gid: entry.gid, type: entry.type, mode: entry.mode }, { name: entry.name, uid: 0, gid: 0, ...expected });
  }
  for (const path of bundle) {
    assert.ok(member(data, path).data.equals(readFileSync(join(bundleDir, path.slice('./usr/share/wrtapi'.length)))), path);
  }
  assert.is(member(data, './www/cgi-bin/wrtapi').data.toString(), "#!/usr/bin/qjs -m\nimport '/usr/share/wrtapi/wrtapi.js';\n");
  assert.is(member(data, './usr/bin/wrtapi-token').data.toString(), "#!/usr/bin/qjs -m\nimport '/usr/share/wrtapi/wrtapi-token.js';\n");
  assert.is(
    member(data, './etc/config/wrtapi').data.toString(),
    "\nconfig wrtapi 'global'\n\toption access '0'\n\toption debug '0'\n\nconfig ratelimit 'ratelimit'\n\toption rate '100'\n\toption burst '200'\n\n",
  );
});

test("the control archive carries OpenWrt's control fields, the conffile list and the hooks", () => {
  assert.equal(
    control.map(({ name, mode, uid, gid }) => ({ name, mode, uid, gid })),
    [
      { name: './', mode: 0o755, uid: 0, gid: 0 },
      { name: './conffiles', mode: 0o644, uid: 0, gid: 0 },
      { name: './control', mode: 0o644, uid: 0, gid: 0 },
      { name: './postinst', mode: 0o755, uid: 0, gid: 0 },
      { name: './prerm', mode: 0o755, uid: 0, gid: 0 },
    ],
  );
  const fields = member(control, './control')
    .data.toString()
    .trimEnd()
    .split('\n')
    .map((line) => /^([A-Za-z-]+): (.+)$/.exec(line)!.slice(1));
  assert.equal(fields, [
    ['Package', 'wrtapi'],
    ['Version', manifest.version],
    ['Depends', 'uhttpd, quickjs'],
    ['Source', 'wrtapi'],
    ['SourceName', 'wrtapi'],
    ['License', manifest.license],
    ['Section', 'net'],
    ['Architecture', 'all'],
    ['Installed-Size', String(dataTar.length)],
    ['Description', manifest.description],
  ]);
  assert.is(member(control, './conffiles').data.toString(), '/etc/config/wrtapi\n');
  for (const hook of ['./postinst', './prerm']) assert.ok(member(control, hook).data.toString().startsWith('#!/bin/sh\n'), hook);
});

test('the bundle holds none of the prose wrtapi-doc installs', () => {
  const read = (path: string) => JSON.parse(readFileSync(join(docDir, path), 'utf8'));
  const texts: string[] = Object.values(read('text.json').text as Record<string, string>).flatMap((text) => text.split('%s'));
  const collect = (value: unknown, prose: boolean): void => {
    if (typeof value === 'string' && prose) texts.push(value);
    else if (Array.isArray(value)) value.forEach((item) => collect(item, false));
    else if (value !== null && typeof value === 'object') for (const [key, member] of Object.entries(value)) collect(member, prose || key === 'description' || key === 'summary');
  };
  // A resource's file holds nothing but prose.
  for (const path of filesUnder(join(docDir, 'docs'))) collect(read(`docs${path}`), true);
  const fixed = read('fixed.json');
  collect(fixed, false);
  // An operation of the fixed part is kept as operation()'s arguments, its summary first.
  for (const item of Object.values(fixed.paths as Record<string, Record<string, unknown>>)) for (const value of Object.values(item)) if (Array.isArray(value)) texts.push(value[0]);
  const bundle = filesUnder(bundleDir).map((path) => readFileSync(join(bundleDir, path), 'utf8')).join('\n');
  // Long enough to tell prose from a word the code holds too.
  const held = texts.filter((text) => text.length >= 16 && bundle.includes(text.slice(0, 60)));
  assert.ok(texts.length > 1000, `${texts.length} texts`);
  assert.equal(held, []);
});

test('the package is the same bytes every time it is built', async () => {
  assert.ok((await buildPackage(projectRoot)).ipk.bytes.equals(ipk));
});

/**
 * What `opkg install` does before configuring: the data archive (wrtapi's, or `entries`) unpacked over the router's root, but
 * for the `kept` paths (a conffile an upgrade leaves as the router has it).
 */
function unpack(router: Router, kept: string[] = [], entries: Member[] = data) {
  for (const entry of entries) {
    const target = join(router.root, entry.name);
    if (kept.includes(entry.name)) continue;
    if (entry.type === '5') mkdirSync(target, { recursive: true });
    else {
      writeFileSync(target, entry.data);
      chmodSync(target, entry.mode);
    }
  }
}

/**
 * wrtapi unpacked on the router, and a GET through its CGI program, answered as text. The stub imports
 * the bundle by its absolute router path, which only a real router has; the copy it runs points at
 * the sandbox's instead.
 */
function installedProgram(router: Router): (path: string) => Promise<string> {
  unpack(router);
  const stub = member(data, './www/cgi-bin/wrtapi').data.toString().replace('/usr/share/wrtapi/', router.path('/usr/share/wrtapi/'));
  const program = router.path('/www/cgi-bin/wrtapi.sandbox');
  writeFileSync(program, stub);
  return async (path) => {
    const env = lanRequestEnvironment({ method: 'GET', url: `/api/v3${path}`, headers: {} })!;
    return (await runCgi({ root: router.root, engine: router.engine, env, program })).toString();
  };
}

/** Runs a hook from the control archive (wrtapi's, or `scripts`) as opkg does. */
function runHook(router: Router, hook: 'postinst' | 'prerm' | 'postrm', argument: string, env: Record<string, string> = {}, scripts: Member[] = control) {
  runScript(router, hook, member(scripts, `./${hook}`).data, argument, env);
}

test('installing wires /api/v3 into uhttpd main once, however often it runs, and restarts uhttpd each time', async () => {
  const router = await newRouter({ wired: false });
  const emulated = await newRouter();
  try {
    unpack(router);
    runHook(router, 'postinst', 'configure');
    assert.equal(apiAliases(router), [API_ALIAS]);
    // The emulator's routers are wired as the package wires a router.
    for (const path of ['/etc/config/uhttpd', '/www/cgi-bin/wrtapi', '/etc/init.d/wrtapi']) assert.is(readFileSync(emulated.path(path), 'utf8'), readFileSync(router.path(path), 'utf8'), path);
    for (const on of [router, emulated]) assert.is(readlinkSync(on.path('/etc/rc.d/S13wrtapi')), '../init.d/wrtapi', 'the boot hook is enabled');
    assert.not.ok(existsSync(router.path('/etc/uci-defaults/wrtapi')), 'a uci-defaults script that succeeded is deleted');
    // An upgrade over a version that left the token store readable by all makes it root's alone.
    chmodSync(router.path('/etc/config/wrtapi'), 0o644);
    unpack(router, ['./etc/config/wrtapi']);
    runHook(router, 'postinst', 'configure');
    assert.equal(apiAliases(router), [API_ALIAS]);
    assert.is(statSync(router.path('/etc/config/wrtapi')).mode & 0o777, 0o600);
    assert.is(initLog(router), 'uhttpd restart\nuhttpd restart\n');
  } finally {
    await router.cleanup();
    await emulated.cleanup();
  }
});

test('removing unwires it, leaves /etc/config/uhttpd byte for byte as before the install, and restarts uhttpd', async () => {
  const router = await newRouter({ wired: false });
  try {
    const before = readFileSync(router.path('/etc/config/uhttpd'), 'utf8');
    unpack(router);
    runHook(router, 'postinst', 'configure');
    runHook(router, 'prerm', 'remove');
    assert.is(readFileSync(router.path('/etc/config/uhttpd'), 'utf8'), before);
    assert.not.ok(existsSync(router.path('/etc/rc.d/S13wrtapi')), 'the boot hook is disabled');
    assert.is(initLog(router), 'uhttpd restart\nuhttpd restart\n');
  } finally {
    await router.cleanup();
  }
});

test('in an image build the hooks leave uhttpd alone, and the uci-defaults script wires it at first boot', async () => {
  const router = await newRouter({ wired: false });
  try {
    const before = readFileSync(router.path('/etc/config/uhttpd'), 'utf8');
    unpack(router);
    runHook(router, 'postinst', 'configure', { IPKG_INSTROOT: router.root });
    assert.is(readFileSync(router.path('/etc/config/uhttpd'), 'utf8'), before);
    assert.ok(existsSync(router.path('/etc/uci-defaults/wrtapi')));
    assert.is(initLog(router), '');

    // First boot: /etc/init.d/boot sources each uci-defaults script in a subshell and deletes those that succeed.
    const boot = spawnSync('/bin/sh', ['-c', 'cd "$WRTAPI_ROOT/etc/uci-defaults" && ( . ./wrtapi ) && rm -f wrtapi'], {
      env: { PATH: process.env.PATH!, WRTAPI_ROOT: router.root },
      encoding: 'utf8',
    });
    assert.is(boot.status, 0, boot.stderr);
    assert.equal(apiAliases(router), [API_ALIAS]);
    assert.not.ok(existsSync(router.path('/etc/uci-defaults/wrtapi')));
  } finally {
    await router.cleanup();
  }
});

test('the CGI program runs the bundle: qjs skips its shebang line and the entry finds its chunks', async () => {
  const router = await newRouter();
  try {
    const answer = await installedProgram(router)('/healthz');
    assert.match(answer, /^Status: \d{3} [A-Za-z]/);
    // Degraded or not, only the bundle's own /healthz says its version.
    assert.ok(answer.includes(`"version":"${manifest.version}"`), answer);
  } finally {
    await router.cleanup();
  }
});

test('wrtapi-doc holds the prose, 0644 under /usr/share/wrtapi-doc; installed beside wrtapi, /openapi.json and /schema state it, and removed, they do not', async () => {
  const built = await buildDocPackage(projectRoot);
  assert.is(built.ipk.fileName, `wrtapi-doc_${manifest.version}_all.ipk`);
  assert.ok((await buildDocPackage(projectRoot)).ipk.bytes.equals(built.ipk.bytes), 'the same bytes every time');
  const parts = untar(gunzipSync(built.ipk.bytes));
  const files = untar(gunzipSync(member(parts, './data.tar.gz').data));
  const prose = filesUnder(docDir);
  assert.ok(prose.includes('/text.json') && prose.includes('/fixed.json') && prose.includes('/docs/firewall/rules.json'), prose.join(' '));
  assert.equal(files.filter((entry) => entry.type === '0').map(({ name }) => name).sort(), prose.map((path) => `./usr/share/wrtapi-doc${path}`).sort());
  for (const path of prose) {
    const entry = member(files, `./usr/share/wrtapi-doc${path}`);
    assert.is(entry.mode, 0o644, path);
    assert.ok(entry.data.equals(readFileSync(join(docDir, path))), path);
  }
  const scripts = untar(gunzipSync(member(parts, './control.tar.gz').data));
  assert.equal(scripts.map(({ name, mode }) => ({ name, mode })), [
    { name: './', mode: 0o755 },
    { name: './control', mode: 0o644 },
    { name: './postinst', mode: 0o755 },
    { name: './postrm', mode: 0o755 },
  ]);
  const fields = member(scripts, './control').data.toString();
  assert.match(fields, /^Package: wrtapi-doc$/m);
  assert.match(fields, /^Depends: wrtapi$/m);
  assert.match(fields, /^Architecture: all$/m);
  assert.match(fields, new RegExp(`^Installed-Size: ${built.ipk.installedSize}$`, 'm'));
  assert.not.match(fields, /@[A-Z_]+@/);

  const router = await newRouter();
  try {
    const program = installedProgram(router);
    const get = async (path: string) => {
      const answer = await program(path);
      assert.match(answer, /^Status: 200 /, path);
      return answer;
    };
    // The kept document and its gzip.
    const kept = () => readdirSync(router.path('/tmp')).filter((name) => /^wrtapi-openapi\.[0-9a-f]+\.json(\.gz)?$/.test(name));
    const described = /"summary":"Read firewall\/rules"/;
    const describedField = /"description":"False for an anonymous section/;
    // wrtapi alone: no prose, and the copy kept without it.
    assert.not.match(await get('/openapi.json'), described);
    assert.is(kept().length, 2);
    assert.not.match(await get('/schema/firewall/rules'), describedField);
    // opkg install wrtapi-doc: its files, then postinst, which drops the copy kept without them.
    unpack(router, [], files);
    runHook(router, 'postinst', 'configure', {}, scripts);
    assert.equal(kept(), []);
    assert.match(await get('/openapi.json'), described);
    assert.is(kept().length, 2);
    assert.match(await get('/openapi.json'), described, 'the copy kept with the prose');
    assert.match(await get('/schema/firewall/rules'), describedField);
    // opkg remove wrtapi-doc: its files go, then postrm drops the copy kept with them.
    rmSync(router.path('/usr/share/wrtapi-doc'), { recursive: true });
    runHook(router, 'postrm', 'remove', {}, scripts);
    assert.equal(kept(), []);
    assert.not.match(await get('/openapi.json'), described);
    assert.not.match(await get('/schema/firewall/rules'), describedField);
    // In an image build the hooks do nothing: /tmp starts empty at boot.
    writeFileSync(router.path('/tmp/wrtapi-openapi.0000000000000000.json'), '{}');
    runHook(router, 'postinst', 'configure', { IPKG_INSTROOT: router.root }, scripts);
    assert.is(kept().length, 3);
  } finally {
    await router.cleanup();
  }
});

test('wrtapi-bytecode is the module, 0755 in /usr/lib/wrtapi, for this machine; installed beside wrtapi, the CGI program fills the cache, and removing it frees the cache', async () => {
  const built = (await buildBytecodePackage(projectRoot, await bytecodeModule())).ipk;
  assert.match(built.fileName, new RegExp(`^wrtapi-bytecode_${manifest.version.replaceAll('.', '\\.')}_(x86_64|aarch64_generic|\\w+)\\.ipk$`));
  assert.ok((await buildBytecodePackage(projectRoot, await bytecodeModule())).ipk.bytes.equals(built.bytes), 'the same bytes every time');
  const parts = untar(gunzipSync(built.bytes));
  const files = untar(gunzipSync(member(parts, './data.tar.gz').data));
  const module = member(files, './usr/lib/wrtapi/bytecode.so');
  assert.is(module.mode, 0o755);
  assert.equal([...module.data.subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46], 'an ELF shared object');
  assert.equal(files.filter((entry) => entry.type === '0').map((entry) => entry.name), ['./usr/lib/wrtapi/bytecode.so']);
  const scripts = untar(gunzipSync(member(parts, './control.tar.gz').data));
  const fields = member(scripts, './control').data.toString();
  assert.match(fields, /^Package: wrtapi-bytecode$/m);
  assert.match(fields, /^Depends: wrtapi, quickjs$/m);
  assert.match(fields, new RegExp(`^Installed-Size: ${built.installedSize}$`, 'm'));
  assert.not.match(fields, /@[A-Z_]+@/);

  const router = await newRouter();
  try {
    unpack(router);
    unpack(router, [], files);
    const stub = member(data, './www/cgi-bin/wrtapi').data.toString().replace('/usr/share/wrtapi/', router.path('/usr/share/wrtapi/'));
    const program = router.path('/www/cgi-bin/wrtapi.sandbox');
    writeFileSync(program, stub);
    const env = lanRequestEnvironment({ method: 'GET', url: '/api/v3/healthz', headers: {} })!;
    assert.match((await runCgi({ root: router.root, engine: router.engine, env, program })).toString(), /^Status: 200 /);
    const cache = router.path('/tmp/wrtapi/bytecode');
    // Only the native engine loads a native module; the wasm engine answers the same without it.
    if (router.engine === 'native') assert.ok(readdirSync(cache).some((name) => name.endsWith('.usr.share.wrtapi.handlers.healthz.js')), readdirSync(cache).join(' '));
    else assert.not.ok(existsSync(cache));
    const prerm = router.path('/tmp/wrtapi-bytecode.prerm');
    writeFileSync(prerm, member(scripts, './prerm').data, { mode: 0o755 });
    const removed = spawnSync('/bin/sh', ['-c', prerm], { env: { PATH: process.env.PATH!, WRTAPI_ROOT: router.root }, encoding: 'utf8' });
    assert.is(removed.status, 0, removed.stderr);
    assert.not.ok(existsSync(cache));
  } finally {
    await router.cleanup();
  }
});

test.run();
