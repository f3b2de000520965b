// An upgrade keeps what the user made, in both formats: installed as opkg installs the .ipk, and as
// apk-tools 3 installs the .apk (its steps done here; and apk itself when WRTAPI_APK names it), a
// token minted and a setting changed survive an upgrade to the next version unchanged, the token
// store stays 0600 and uhttpd stays wired once; removing the package leaves them and unwires uhttpd.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { buildPackage } from '../../build/package.js';
import { runCgi } from '../../shims/emu/engines.js';
import { projectRoot } from '../../shims/emu/project.js';
import { lanRequestEnvironment } from '../../shims/emu/uhttpd.js';
import { readApk } from '../support/adb.js';
import { API_ALIAS, apiAliases, apkSteps, apkTool, apkTool3, opkg, type PackageTool } from '../support/package-tools.js';
import { newRouter, type Router } from '../support/router.js';

const current = await buildPackage(projectRoot);
const next = await buildPackage(projectRoot, '3.0.1');
const defaults = current.files.get('/etc/config/wrtapi')!;

/** A request through the CGI program the package installed, which imports the bundle it installed. */
async function request(router: Router, url: string, bearer: string): Promise<string> {
  const program = router.path('/www/cgi-bin/wrtapi.sandbox');
  writeFileSync(program, readFileSync(router.path('/www/cgi-bin/wrtapi'), 'utf8').replace('/usr/share/wrtapi/', router.path('/usr/share/wrtapi/')));
  const env = lanRequestEnvironment({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } })!;
  const answer = (await runCgi({ root: router.root, engine: router.engine, env, program })).toString();
  rmSync(program);
  return answer;
}

const mode = (router: Router, path: string) => statSync(router.path(path)).mode & 0o777;

async function upgradeKeepsWhatTheUserMade(tool: (router: Router) => PackageTool) {
  const router = await newRouter({ wired: false });
  try {
    const uhttpd = readFileSync(router.path('/etc/config/uhttpd'), 'utf8');
    // A router that never had wrtapi: the sandbox's own token store goes.
    rmSync(router.path('/etc/config/wrtapi'));
    const steps = tool(router);
    steps.install(current);
    assert.equal(apiAliases(router), [API_ALIAS], `${steps.name}: wired`);
    assert.ok(readFileSync(router.path('/etc/config/wrtapi')).equals(defaults));
    assert.is(mode(router, '/etc/config/wrtapi'), 0o600);

    // What the user makes: a token, and a setting changed as `uci set` and `uci commit` would.
    const bearer = await router.mint('upgrade', ['firewall:ro']);
    const store = router.path('/etc/config/wrtapi');
    writeFileSync(store, readFileSync(store, 'utf8').replace("option rate '100'", "option rate '20'"));
    const made = readFileSync(store);
    assert.match(made.toString(), /option rate '20'[^]*config token/);
    const wired = readFileSync(router.path('/etc/config/uhttpd'), 'utf8');

    steps.upgrade(next);
    assert.ok(readFileSync(store).equals(made), `${steps.name}: the token store is as the user left it`);
    assert.is(mode(router, '/etc/config/wrtapi'), 0o600);
    assert.is(readFileSync(router.path('/etc/config/uhttpd'), 'utf8'), wired, `${steps.name}: uhttpd wired once, as before`);
    assert.ok(readFileSync(router.path('/usr/share/wrtapi/cgi.js')).equals(next.files.get('/usr/share/wrtapi/cgi.js')!));
    assert.match(await request(router, '/api/v3/firewall/zones', bearer), /^Status: 200 /, `${steps.name}: the token still works`);
    assert.match(await request(router, '/api/v3/firewall/zones', 'wrtapi_00000000000000000000000000000000'), /^Status: 401 /);
    if (steps.name.startsWith('apk')) {
      // apk writes the package's own copy of a changed file under /etc beside it, as every 25.12 package's.
      assert.ok(readFileSync(`${store}.apk-new`).equals(defaults));
      assert.is(mode(router, '/etc/config/wrtapi.apk-new'), 0o600);
    }

    steps.remove();
    assert.ok(readFileSync(store).equals(made), `${steps.name}: removing leaves the user's configuration`);
    assert.is(mode(router, '/etc/config/wrtapi'), 0o600);
    assert.not.ok(existsSync(`${store}.apk-new`));
    assert.is(readFileSync(router.path('/etc/config/uhttpd'), 'utf8'), uhttpd, `${steps.name}: unwired, uhttpd's configuration as before the install`);
    for (const path of ['/www/cgi-bin/wrtapi', '/usr/bin/wrtapi-token', '/usr/share/wrtapi/cgi.js']) assert.not.ok(existsSync(router.path(path)), path);
  } finally {
    await router.cleanup();
  }
}

test('opkg: an upgrade to the next .ipk keeps the token, the setting, the 0600 store and the wiring; removing it leaves the store and unwires uhttpd', async () => {
  await upgradeKeepsWhatTheUserMade(opkg);
});

test("apk's steps: the same with the .apk", async () => {
  await upgradeKeepsWhatTheUserMade(apkSteps);
});

if (!apkTool) console.log('package-upgrade: WRTAPI_APK names no apk-tools 3 binary; the upgrade by apk itself is skipped');
else {
  test('apk-tools 3: the same with the .apk, its scripts run by apk, its database recording each version', async () => {
    await upgradeKeepsWhatTheUserMade((router) => {
      const real = apkTool3(router);
      const version = () => /^P:wrtapi\nV:(.*)$/m.exec(readFileSync(router.path('/lib/apk/db/installed'), 'utf8'))?.[1];
      return {
        ...real,
        install(built) {
          real.install(built);
          assert.is(version(), readApk(built.apk.bytes).info.version);
        },
        upgrade(built) {
          real.upgrade(built);
          assert.is(version(), '3.0.1');
        },
        remove() {
          real.remove();
          assert.is(version(), undefined);
        },
      };
    });
  });
}

test.run();
