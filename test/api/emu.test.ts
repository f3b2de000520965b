import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { engines, runCgi, runProgram } from '../../shims/emu/engines.js';
import { projectRoot } from '../../shims/emu/project.js';
import { initSandbox } from '../../shims/emu/sandbox.js';
import { baseUrl, serve } from '../../shims/emu/server.js';
import { cgiEnvironment, httpAnswer } from '../../shims/emu/uhttpd.js';
import { newRouter, type Router } from '../support/router.js';

const programs = mkdtempSync(join(tmpdir(), 'wrtapi-emu-programs-'));
test.after(() => rmSync(programs, { recursive: true, force: true }));

function program(name: string, source: string): string {
  writeFileSync(join(programs, name), source);
  return join(programs, name);
}

function runStandIn(router: Router, argv: string[], input = '') {
  const run = spawnSync(router.path(argv[0]), argv.slice(1), {
    env: { PATH: '/usr/bin:/bin', WRTAPI_ROOT: router.root },
    input,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function withRouter(body: (router: Router) => Promise<void> | void) {
  const router = await newRouter();
  try {
    await body(router);
  } finally {
    await router.cleanup();
  }
}

test('init creates the router filesystem and refuses a non-empty directory', () =>
  withRouter((router) => {
    for (const name of ['network', 'firewall', 'dhcp', 'system', 'wireless', 'dropbear', 'uhttpd', 'wrtapi']) {
      assert.ok(readFileSync(router.path(`/etc/config/${name}`), 'utf8').startsWith('\nconfig '), name);
    }
    assert.match(readFileSync(router.path('/etc/config/wrtapi'), 'utf8'), "config wrtapi 'global'\n\toption access '0'\n\toption debug '0'\n");
    const executables = ['/bin/ubus', '/sbin/ip', '/usr/bin/wg', '/bin/opkg', '/usr/bin/logger', '/etc/init.d/network', '/etc/init.d/log'];
    for (const path of executables) assert.ok(statSync(router.path(path)).mode & 0o100, path);
    for (const path of ['/var/lock', '/tmp', '/www/cgi-bin']) assert.ok(statSync(router.path(path)).isDirectory(), path);
    assert.is(readFileSync(router.path('/etc/dropbear/authorized_keys'), 'utf8'), '');
    assert.is(readFileSync(router.path('/var/log/messages'), 'utf8'), '');
    assert.ok(existsSync(router.path('/etc/opkg/customfeeds.conf')));
    const leases = readFileSync(router.path('/tmp/dhcp.leases'), 'utf8').trim().split('\n');
    assert.is(leases.length, 2);
    assert.ok(Number(leases[0].split(' ')[0]) > Date.now() / 1000, 'the lease is still running');
    assert.match(readFileSync(router.path('/tmp/hosts/odhcpd'), 'utf8'), /^# br-lan \S+ \S+ laptop \d+ d8e 128 fd4c:7e19:a3b2::d8e\/128$/m);
    assert.throws(() => initSandbox(router.root), /not empty/);
    initSandbox(router.root, { force: true });
  }));

test('ubus call answers from var/emu/ubus, fails like ubus for unknown objects and methods (the call spelled out unless to a terminal), and without ubusd', () =>
  withRouter((router) => {
    const board = runStandIn(router, ['/bin/ubus', 'call', 'system', 'board']);
    assert.is(board.code, 0);
    assert.is((JSON.parse(board.stdout) as { release: { version: string } }).release.version, '24.10.0');
    const dump = JSON.parse(runStandIn(router, ['/bin/ubus', 'call', 'network.interface', 'dump']).stdout) as { interface: { interface: string }[] };
    assert.equal(dump.interface.map((entry) => entry.interface), ['lan', 'loopback', 'wan', 'wan6']);
    assert.is(JSON.parse(runStandIn(router, ['/bin/ubus', 'call', 'network.interface.lan', 'status', '{}']).stdout).l3_device, 'br-lan');
    assert.equal(runStandIn(router, ['/bin/ubus', 'call', 'nosuch', 'status']), { code: 4, stdout: '', stderr: 'Command failed: Not found\n' });
    assert.equal(runStandIn(router, ['/bin/ubus', 'call', 'system', 'nosuch']), { code: 253, stdout: '', stderr: 'Command failed: ubus call system nosuch (Method not found)\n' });
    // To a terminal (script(1) gives it one), ubus prints only the status's text, and exits with the status.
    const byHand = spawnSync('script', ['-qec', `${router.path('/bin/ubus')} call system nosuch '{}'; echo "exit $?"`, '/dev/null'], { env: { PATH: '/usr/bin:/bin', WRTAPI_ROOT: router.root }, encoding: 'utf8' });
    assert.is(byHand.stdout.replace(/\r/g, ''), 'Command failed: Method not found\nexit 3\n');
    writeFileSync(router.path('/var/emu/ubus-down'), '');
    assert.equal(runStandIn(router, ['/bin/ubus', 'call', 'system', 'info']), { code: 255, stdout: '', stderr: 'Failed to connect to ubus\n' });
    assert.is(readFileSync(router.path('/var/log/ubus.log'), 'utf8'), 'system board\nnetwork.interface dump\nnetwork.interface.lan status {}\nnosuch status\nsystem nosuch\nsystem nosuch {}\n');
  }));

test('network.wireless status follows etc/config/wireless: radios up with an enabled interface, ifnames by mode, anonymous sections by libuci\'s names', () =>
  withRouter((router) => {
    const status = () => JSON.parse(runStandIn(router, ['/bin/ubus', 'call', 'network.wireless', 'status']).stdout) as Record<string, any>;
    const stock = status();
    assert.equal(Object.keys(stock), ['radio0', 'radio1']);
    assert.equal([stock.radio0.up, stock.radio0.disabled, stock.radio0.config.band], [false, true, '2g']);
    assert.equal(stock.radio0.interfaces[0], { section: 'default_radio0', config: { device: 'radio0', network: ['lan'], mode: 'ap', ssid: 'OpenWrt', encryption: 'none' }, vlans: [], stations: [] });
    const path = router.path('/etc/config/wireless');
    const text = readFileSync(path, 'utf8').replace("option disabled '1'", "option disabled '0'");
    writeFileSync(path, `${text}\nconfig wifi-iface\n\toption device 'radio0'\n\toption mode 'ap'\n\toption ssid 'Guest'\n\nconfig wifi-iface 'client'\n\toption device 'radio0'\n\toption mode 'sta'\n\toption disabled '1'\n`);
    const radio0 = status().radio0;
    assert.equal([radio0.up, radio0.disabled], [true, false]);
    assert.equal(radio0.interfaces.map((iface: any) => [iface.section, iface.ifname]), [['default_radio0', 'phy0-ap0'], ['cfg053579', 'phy0-ap1'], ['client', undefined]]);
    assert.is(status().radio1.up, false);
  }));

test('iwinfo info and assoclist answer as rpcd\'s plugin for what netifd set up, from etc/config/wireless and var/emu/stations; other devices are not found', () =>
  withRouter((router) => {
    const ubus = (method: string, device?: string) => runStandIn(router, ['/bin/ubus', 'call', 'iwinfo', method, ...(device === undefined ? [] : [JSON.stringify({ device })])]);
    assert.equal(ubus('info', 'phy0-ap0'), { code: 252, stdout: '', stderr: 'Command failed: ubus call iwinfo info {"device":"phy0-ap0"} (Not found)\n' }, 'the stock radios are disabled');
    const path = router.path('/etc/config/wireless');
    writeFileSync(path, `${readFileSync(path, 'utf8').replace(/\toption disabled '1'\n/g, '')}\nconfig wifi-iface 'client'\n\toption device 'radio0'\n\toption mode 'sta'\n\toption ssid 'Up'\n\toption encryption 'sae'\n\toption key 'k'\n\nconfig wifi-iface 'legacy'\n\toption device 'radio1'\n\toption mode 'wds'\n`);
    writeFileSync(router.path('/var/emu/stations'), 'phy1-ap0 02:aa:00:00:00:01 -60\n');
    const ap = JSON.parse(ubus('info', 'phy1-ap0').stdout);
    assert.equal([ap.phy, ap.ssid, ap.bssid, ap.mode, ap.channel, ap.center_chan1, ap.frequency, ap.txpower, ap.signal, ap.quality, ap.noise, ap.encryption, ap.hwmode, ap.htmode], ['phy1', 'OpenWrt', '52:54:00:A1:00:00', 'Master', 36, 42, 5180, 20, -60, 50, -95, { enabled: false }, 'ax', 'HE80']);
    const client = JSON.parse(ubus('info', 'phy0-sta0').stdout);
    assert.equal([client.mode, client.bssid, client.channel, client.frequency, client.signal, client.encryption], ['Client', '02:00:00:00:00:01', 1, 2412, -52, { enabled: true, wpa: [3], authentication: ['sae'], ciphers: ['ccmp'] }]);
    const associated = JSON.parse(ubus('assoclist', 'phy1-ap0').stdout).results;
    assert.equal([associated.length, associated[0].mac, associated[0].signal, typeof associated[0].rx.rate], [1, '02:AA:00:00:00:01', -60, 'number']);
    assert.is(JSON.parse(ubus('assoclist', 'phy0-sta0').stdout).results.length, 1, 'a client is associated to its AP');
    assert.equal(ubus('info', 'eth0'), { code: 252, stdout: '', stderr: 'Command failed: ubus call iwinfo info {"device":"eth0"} (Not found)\n' });
    assert.equal(ubus('info'), { code: 254, stdout: '', stderr: 'Command failed: ubus call iwinfo info (Invalid argument)\n' });
    const radio1 = JSON.parse(runStandIn(router, ['/bin/ubus', 'call', 'network.wireless', 'status']).stdout).radio1;
    assert.equal(radio1.interfaces.map((iface: any) => [iface.section, iface.ifname]), [['default_radio1', 'phy1-ap0'], ['legacy', undefined]], 'mac80211.sh sets up no wds mode');
  }));

test('network.device status follows etc/config/network: the hardware, bridges with their ports, devices up while an up interface uses them', () =>
  withRouter((router) => {
    const status = () => JSON.parse(runStandIn(router, ['/bin/ubus', 'call', 'network.device', 'status']).stdout) as Record<string, any>;
    const stock = status();
    assert.equal(Object.keys(stock), ['eth0', 'eth1', 'lo', 'br-lan']);
    assert.equal([stock['br-lan'].type, stock['br-lan'].up, stock['br-lan']['bridge-members'], stock['br-lan'].macaddr], ['bridge', true, ['eth0'], '52:54:00:12:34:56']);
    const path = router.path('/etc/config/network');
    writeFileSync(path, `${readFileSync(path, 'utf8')}\nconfig device\n\toption name 'eth1.20'\n\toption type '8021q'\n\toption ifname 'eth1'\n\toption vid '20'\n\toption mtu '1400'\n\nconfig interface 'iot'\n\toption device 'eth1.20'\n\toption proto 'none'\n`);
    assert.equal([status()['eth1.20'].type, status()['eth1.20'].up, status()['eth1.20'].mtu, status()['eth1.20'].macaddr], ['VLAN', true, 1400, '52:54:00:12:34:57']);
    writeFileSync(router.path('/var/emu/netifd/iot.down'), '');
    assert.is(status()['eth1.20'].up, false, 'no interface that is up uses it');
  }));

test('logger appends "<facility>.<level> <tag>: <message>" lines to var/log/messages', () =>
  withRouter((router) => {
    assert.is(runStandIn(router, ['/usr/bin/logger', '-t', 'wrtapi', '-p', 'daemon.warn', 'token', 'created']).code, 0);
    assert.is(runStandIn(router, ['/usr/bin/logger', 'plain']).code, 0);
    assert.is(runStandIn(router, ['/usr/bin/logger', '-twrtapi', '-perr'], 'one\ntwo\n').code, 0);
    assert.is(runStandIn(router, ['/usr/bin/logger', '-p', 'nosuch.info', 'x']).code, 1);
    assert.is(
      readFileSync(router.path('/var/log/messages'), 'utf8'),
      'daemon.warn wrtapi: token created\nuser.notice root: plain\nuser.err wrtapi: one\nuser.err wrtapi: two\n',
    );
  }));

test('init scripts record their verb, ip/wg/opkg record their arguments and answer', () =>
  withRouter((router) => {
    assert.is(runStandIn(router, ['/etc/init.d/network', 'reload']).code, 0);
    assert.is(runStandIn(router, ['/etc/init.d/firewall', 'nosuchverb']).code, 1);
    assert.is(readFileSync(router.path('/var/log/init.log'), 'utf8'), 'network reload\n');

    assert.match(runStandIn(router, ['/sbin/ip', 'route', 'get', '192.168.1.100']).stdout, /^192\.168\.1\.100 dev br-lan src 192\.168\.1\.1 /);
    assert.is(readFileSync(router.path('/var/log/ip.log'), 'utf8'), 'route get 192.168.1.100\n');

    assert.equal(runStandIn(router, ['/usr/bin/wg', 'show', 'wg0', 'dump']), { code: 1, stdout: '', stderr: 'Unable to access interface: No such device\n' });
    writeFileSync(router.path('/var/emu/wg/wg0.dump'), 'private\tpublic\t51820\toff\n');
    assert.is(runStandIn(router, ['/usr/bin/wg', 'show', 'wg0', 'dump']).stdout, 'private\tpublic\t51820\toff\n');
    assert.is(runStandIn(router, ['/usr/bin/wg', 'set', 'wg0', 'peer', 'KEY', 'remove']).code, 0);
    assert.is(readFileSync(router.path('/var/log/wg.log'), 'utf8'), 'show wg0 dump\nshow wg0 dump\nset wg0 peer KEY remove\n');

    assert.match(runStandIn(router, ['/bin/opkg', 'list-installed']).stdout, /^dnsmasq - \S+$/m);
    assert.equal(runStandIn(router, ['/bin/opkg', 'install', 'unbound-daemon']), {
      code: 255,
      stdout: "Unknown package 'unbound-daemon'.\n",
      stderr: 'Collected errors:\n * opkg_install_cmd: Cannot install package unbound-daemon.\n',
    }, 'no list before the first update');
    assert.is(runStandIn(router, ['/bin/opkg', 'update']).code, 0);
    assert.is(runStandIn(router, ['/bin/opkg', 'install', 'unbound-daemon']).code, 0);
    assert.match(runStandIn(router, ['/bin/opkg', 'list-installed']).stdout, /^unbound-daemon - \S+$/m);
    assert.match(readFileSync(router.path('/usr/lib/opkg/status'), 'utf8'), /\nPackage: unbound-daemon\nVersion: \S+\nDepends: libunbound\nStatus: install user installed\n/);
    assert.ok(statSync(router.path('/etc/init.d/unbound')).mode & 0o100, 'the daemon\'s init script');
    assert.is(runStandIn(router, ['/bin/opkg', 'install', 'nosuch']).code, 255);
    assert.is(runStandIn(router, ['/bin/opkg', 'remove', 'libunbound']).code, 255, 'unbound-daemon depends on it');
    assert.is(runStandIn(router, ['/bin/opkg', 'remove', 'unbound-daemon']).code, 0);
    assert.not.match(runStandIn(router, ['/bin/opkg', 'list-installed']).stdout, /unbound-daemon/);
    assert.not.ok(existsSync(router.path('/etc/init.d/unbound')));
    assert.is(readFileSync(router.path('/var/log/init.log'), 'utf8'), 'network reload\nunbound enable\nunbound start\nunbound stop\nunbound disable\n');
    assert.is(readFileSync(router.path('/var/log/opkg.log'), 'utf8'), 'list-installed\ninstall unbound-daemon\nupdate\ninstall unbound-daemon\nlist-installed\ninstall nosuch\nremove libunbound\nremove unbound-daemon\nlist-installed\n');
  }));

test('a 25.12 router has apk instead of opkg: its database, world and feeds as apk keeps them', async () => {
  const router = await newRouter({ packageManager: 'apk' });
  try {
    for (const path of ['/bin/opkg', '/etc/opkg', '/usr/lib/opkg']) assert.not.ok(existsSync(router.path(path)), path);
    assert.match(runStandIn(router, ['/bin/ubus', 'call', 'system', 'board']).stdout, /"version": "25\.12\.0"/);
    const stock = runStandIn(router, ['/usr/bin/apk', 'list', '--installed', '--manifest']).stdout;
    assert.match(stock, /^apk-mbedtls \S+\nbase-files \S+\n/);
    assert.match(stock, /^dnsmasq \S+$/m);
    assert.is(runStandIn(router, ['/usr/bin/apk', 'add', 'mwan3']).code, 0, 'apk needs no update first');
    assert.match(readFileSync(router.path('/etc/apk/world'), 'utf8'), /^mwan3$/m);
    assert.match(readFileSync(router.path('/lib/apk/db/installed'), 'utf8'), /\nP:ip-full\nV:\S+\nA:x86_64\n\nP:mwan3\nV:\S+\nA:x86_64\nD:ip-full\n\n$/);
    assert.equal(runStandIn(router, ['/usr/bin/apk', 'add', 'nosuch']), {
      code: 1,
      stdout: '',
      stderr: 'ERROR: unable to select packages:\n  nosuch (no such package):\n    required by: world[nosuch]\n',
    });
    assert.is(runStandIn(router, ['/usr/bin/apk', 'del', 'mwan3']).code, 0);
    assert.not.match(runStandIn(router, ['/usr/bin/apk', 'list', '--installed', '--manifest']).stdout, /mwan3|ip-full/, 'its dependency went with it');
    assert.is(runStandIn(router, ['/usr/bin/apk', 'update']).code, 0);
    assert.is(readFileSync(router.path('/var/log/apk.log'), 'utf8'), 'list --installed --manifest\nadd mwan3\nadd nosuch\ndel mwan3\nlist --installed --manifest\nupdate\n');
    assert.is(readFileSync(router.path('/var/log/init.log'), 'utf8'), 'mwan3 enable\nmwan3 start\nmwan3 stop\nmwan3 disable\n');
  } finally {
    await router.cleanup();
  }
});

test('a person can run every stand-in by hand, without WRTAPI_ROOT: each finds its sandbox from where it lies', () =>
  withRouter((router) => {
    const byHand = (argv: string[]) => spawnSync(router.path(argv[0]), argv.slice(1), { env: { PATH: '/usr/bin:/bin' }, cwd: tmpdir(), encoding: 'utf8' });
    assert.is((JSON.parse(byHand(['/bin/ubus', 'call', 'system', 'board']).stdout) as { hostname: string }).hostname, 'OpenWrt');
    assert.is(byHand(['/usr/bin/logger', '-t', 'me', 'by hand']).status, 0);
    assert.match(readFileSync(router.path('/var/log/messages'), 'utf8'), /^user\.notice me: by hand$/m);
    assert.is(byHand(['/etc/init.d/firewall', 'reload']).status, 0);
    assert.is(readFileSync(router.path('/var/log/init.log'), 'utf8'), 'firewall reload\n');
    assert.match(byHand(['/sbin/ip', 'route', 'get', '192.168.1.100']).stdout, /dev br-lan/);
    assert.is(byHand(['/usr/bin/wg', 'show', 'wg0', 'dump']).status, 1);
    assert.match(byHand(['/bin/opkg', 'list-installed']).stdout, /^dnsmasq - /m);
    for (const log of ['ubus.log', 'ip.log', 'wg.log', 'opkg.log']) assert.ok(existsSync(router.path(`/var/log/${log}`)), log);
    // qjs runs wrtapi's own modules by their router path, on the wasm engine when nobody says which.
    assert.is(byHand(['/usr/bin/qjs', '-m', '/usr/share/wrtapi/wrtapi-confirm.js', 'boot']).status, 0);
    const usage = byHand(['/usr/bin/qjs', '-m', '/usr/share/wrtapi/wrtapi-confirm.js']);
    assert.equal([usage.status, usage.stderr], [2, 'Usage: wrtapi-confirm watch <id> | boot\n']);
  }));

test('reboot kills the router\'s processes, clears what lives in RAM and runs the boot of its init scripts', () =>
  withRouter(async (router) => {
    const sleeper = spawn('sleep', ['60'], { env: { WRTAPI_ROOT: router.root, WRTAPI_EMU_ENGINE: router.engine }, stdio: 'ignore' });
    writeFileSync(router.path('/var/log/messages'), 'daemon.notice wrtapi: before the reboot\n');
    writeFileSync(router.path('/var/lock/wrtapi.global.lock'), '');
    const rebooted = spawnSync(process.execPath, [join(projectRoot, 'dist/node/shims/emu/cli.js'), 'reboot', '--root', router.root, '--engine', router.engine], { encoding: 'utf8' });
    assert.is(rebooted.status, 0, rebooted.stderr);
    const ended = await Promise.race([new Promise((exited) => sleeper.once('exit', (_code, signal) => exited(signal))), new Promise((late) => setTimeout(late, 3000, 'still running'))]);
    assert.is(ended, 'SIGKILL', 'the router\'s processes are gone');
    assert.is(readFileSync(router.path('/var/log/messages'), 'utf8'), '');
    assert.not.ok(existsSync(router.path('/var/lock/wrtapi.global.lock')));
    assert.ok(existsSync(router.path('/tmp/dhcp.leases')), 'the clients renew their leases');
    assert.is(readFileSync(router.path('/var/log/init.log'), 'utf8'), 'network boot\nfirewall boot\ndnsmasq boot\nodhcpd boot\nsystem boot\nsysntpd boot\ndropbear boot\nuhttpd boot\nwpad boot\nlog boot\n');
  }));

test('a person can run apk by hand too', async () => {
  const router = await newRouter({ packageManager: 'apk' });
  try {
    const byHand = (argv: string[]) => spawnSync(router.path(argv[0]), argv.slice(1), { env: { PATH: '/usr/bin:/bin' }, cwd: tmpdir(), encoding: 'utf8' });
    assert.match(byHand(['/usr/bin/apk', 'list', '--installed', '--manifest']).stdout, /^dnsmasq /m);
    assert.is(byHand(['/usr/bin/apk', 'add', 'snmpd']).status, 0);
    assert.ok(existsSync(router.path('/etc/init.d/snmpd')));
    assert.is(readFileSync(router.path('/var/log/init.log'), 'utf8'), 'snmpd enable\nsnmpd start\n');
    assert.ok(existsSync(router.path('/var/log/apk.log')));
  } finally {
    await router.cleanup();
  }
});

test('start serves a sandbox and prints the base URL, a ready admin token and a curl line that works as printed', async () => {
  const root = mkdtempSync(join(tmpdir(), 'wrtapi-start-'));
  rmSync(root, { recursive: true });
  const cli = join(projectRoot, 'dist/node/shims/emu/cli.js');
  const started = spawn(process.execPath, [cli, 'start', '--root', root, '--port', '0', '--engine', 'native'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let output = '';
    for await (const chunk of started.stdout!) {
      output += chunk;
      if (output.includes('Try: ')) break;
    }
    const [serving, token, tryLine] = output.trim().split('\n');
    assert.match(serving, /^Emulated router \(native engine\) serving .* at http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    const bearer = /(wrtapi_[0-9a-f]{32})$/.exec(token)![1];
    assert.is(readFileSync(join(root, 'var/emu/admin-bearer'), 'utf8').trim(), bearer);
    const curl = spawnSync('sh', ['-c', `${tryLine.replace(/^Try: /, '')} --silent`], { encoding: 'utf8' });
    assert.is(curl.status, 0, curl.stderr);
    assert.equal((JSON.parse(curl.stdout) as { name: string }[]).map((zone) => zone.name), ['lan', 'wan']);
  } finally {
    started.kill();
    rmSync(root, { recursive: true, force: true });
  }
});

test('both engines answer a CGI request with the built bundle', () =>
  withRouter(async (router) => {
    const env = cgiEnvironment({
      method: 'GET', url: '/api/v3/healthz', headers: {}, httpVersion: '1.1',
      remoteAddress: '127.0.0.1', remotePort: 40000, serverAddress: '127.0.0.1', serverPort: 80, https: false,
    })!;
    for (const engine of engines) {
      const answer = httpAnswer(await runCgi({ root: router.root, engine, env }));
      assert.is(answer.status, 200, engine);
      assert.ok(answer.headers.some(([name, value]) => name === 'Content-Type' && value.startsWith('application/json')), engine);
      assert.is((JSON.parse(answer.body.toString()) as { status: string }).status, 'ok', engine);
    }
    const response = await router.request({ method: 'GET', path: '/healthz', remote: '127.0.0.1', https: false });
    assert.is(response.status, 200);
    assert.ok(response.headers['content-type'].startsWith('application/json'));
    assert.is((response.json as { status: string }).status, 'ok');
  }));

test('wrtapi-emu cgi answers 403 tls_required to a remote plain-HTTP client; the insecure marker lets it through and logs it', () =>
  withRouter((router) => {
    const cli = join(projectRoot, 'dist/node/shims/emu/cli.js');
    const cgi = () =>
      spawnSync(process.execPath, [cli, 'cgi', '--root', router.root, '--engine', router.engine], {
        env: { ...process.env, REQUEST_METHOD: 'GET', REQUEST_URI: '/api/v3/healthz', SCRIPT_NAME: '/cgi-bin/wrtapi', REMOTE_ADDR: '192.0.2.7' },
        encoding: 'utf8',
      });
    const refused = cgi();
    assert.is(refused.status, 0, refused.stderr);
    assert.match(refused.stdout, /^Status: 403 Forbidden\r\n/);
    const envelope = JSON.parse(refused.stdout.slice(refused.stdout.indexOf('\r\n\r\n') + 4));
    assert.is(envelope.code, 'tls_required');
    assert.match(refused.stdout, `X-Request-Id: ${envelope.request_id}\r\n`);
    writeFileSync(router.path('/etc/wrtapi.insecure'), '');
    const passed = cgi();
    assert.match(passed.stdout, /^Status: 200 OK\r\n/);
    const id = /X-Request-Id: (\S+)\r\n/.exec(passed.stdout)![1];
    assert.match(readFileSync(router.path('/var/log/messages'), 'utf8'), `daemon.notice wrtapi: wrtapi-insecure-bypass ${id} GET /healthz status=200 remote=192.0.2.7\n`);
  }));

const conformance = program(
  'conformance.js',
  `import * as std from 'std';
import * as os from 'os';
const dir = std.getenv('WRTAPI_ROOT') + '/tmp/conformance';
const r = {};
r.mkdir = os.mkdir(dir, 0o755);
r.mkdirAgain = os.mkdir(dir);
const missing = {};
r.openMissing = [std.open(dir + '/missing', 'r', missing), missing.errno];
const opened = {};
const file = std.open(dir + '/file', 'w', opened);
file.puts('h\\u00e9llo', ' world\\n');
file.flush();
r.closeFile = [file.close(), opened.errno];
r.loadFile = [std.loadFile(dir + '/file'), std.loadFile(dir + '/missing')];
const reader = std.open(dir + '/file', 'r');
r.read = [reader.readAsString(3), reader.readAsString(), reader.getByte(), reader.close()];
try { std.open(dir + '/file', 'rx'); } catch (e) { r.badMode = e.name + ': ' + e.message; }
const directory = std.open(dir, 'r');
r.readDirectory = [directory.readAsString(), directory.getByte(), directory.close()];
r.exclusive = [os.open(dir + '/lock', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644) >= 0, os.open(dir + '/lock', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)];
r.closeBad = os.close(9999);
const [names, readdirError] = os.readdir(dir);
r.readdir = [names.sort(), readdirError, os.readdir(dir + '/missing')];
const [info, statError] = os.stat(dir + '/file');
r.stat = [(info.mode & os.S_IFMT) === os.S_IFDIR, info.size, statError, info.mtime > 1.6e12, Number.isInteger(info.mtime)];
r.statDir = (os.stat(dir)[0].mode & os.S_IFMT) === os.S_IFDIR;
r.statMissing = os.stat(dir + '/missing');
r.rename = [os.rename(dir + '/file', dir + '/renamed'), os.rename(dir + '/file', dir + '/other')];
r.remove = [os.remove(dir + '/missing'), os.remove(dir), os.remove(dir + '/lock')];
const [self, selfError] = os.readlink('/proc/self');
r.readlink = [/^[0-9]+$/.test(self), selfError, os.readlink(dir + '/missing')];
r.kill = [os.kill(Number(self), 0), os.kill(99999999, 0)];
r.getenv = [std.getenv('WRTAPI_NO_SUCH_VARIABLE'), std.getenv('PATH')];
const beforeSleep = Date.now();
r.sleep = [os.sleep(30), Date.now() - beforeSleep >= 29];
r.strerror = [std.strerror(2), std.strerror(17), std.strerror(13)];
const input = dir + '/in';
const inputFile = std.open(input, 'w');
inputFile.puts('abc');
inputFile.close();
const fds = [os.open(input, os.O_RDONLY), os.open(dir + '/out', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)];
r.exec = [
  os.exec(['/bin/sh', '-c', 'read line; echo "$line $0"; exit 3'], { block: true, usePath: false, stdin: fds[0], stdout: fds[1] }),
  os.exec(['/nonexistent/command'], { usePath: false }),
  os.exec(['sh', '-c', 'kill -9 $$']),
];
fds.forEach((fd) => os.close(fd));
r.execOutput = std.loadFile(dir + '/out');
const random = std.open('/dev/urandom', 'rb');
r.urandom = [random.getByte(), random.getByte()].every((byte) => byte >= 0 && byte < 256);
random.close();
r.scriptArgs = scriptArgs.slice(1);
r.stdin = std.in.readAsString(4);
r.globals = [typeof print, typeof console.log];
import('./conformance-chunk.js').then((chunk) => {
  r.dynamicImport = chunk.value;
  std.out.puts(JSON.stringify(r));
  std.out.flush();
  std.exit(7);
});
`,
);
program('conformance-chunk.js', `export const value = 'loaded';\n`);

test('std and os behave in the wasm engine as in the native qjs', () =>
  withRouter(async (router) => {
    const results = [];
    for (const engine of engines) {
      rmSync(router.path('/tmp/conformance'), { recursive: true, force: true });
      const run = await runProgram({ root: router.root, engine, program: conformance, args: ['one', '--two'] }, 'body and more');
      assert.is(run.stderr, '', engine);
      assert.is(run.code, 7, engine);
      results.push(JSON.parse(run.stdout));
    }
    assert.equal(results[0], results[1]);
    const expected = {
      mkdir: 0, mkdirAgain: -17, openMissing: [null, 2], closeFile: [0, 0], loadFile: ['h\u00e9llo world\n', null],
      read: ['h\u00e9', 'llo world\n', -1, 0], badMode: 'TypeError: invalid file mode', readDirectory: ['', -1, 0], exclusive: [true, -17], closeBad: -9,
      statMissing: [null, 2], rename: [0, -2], remove: [-2, -39, 0], kill: [0, -3], getenv: [null, '/sbin:/usr/sbin:/bin:/usr/bin'], sleep: [0, true], strerror: ['No such file or directory', 'File exists', 'Permission denied'],
      exec: [3, 127, -9], execOutput: 'abc /bin/sh\n', urandom: true, scriptArgs: ['one', '--two'], stdin: 'body', globals: ['function', 'function'], dynamicImport: 'loaded',
    };
    for (const [key, value] of Object.entries(expected)) assert.equal(results[1][key], value, key);
    assert.equal(results[1].readdir, [['.', '..', 'file', 'lock'], 0, [[], 2]]);
    assert.equal(results[1].stat, [false, 13, 0, true, true]);
    assert.equal(results[1].readlink, [true, 0, ['', 2]]);
  }));

test('an uncaught exception is reported on stderr with a non-zero exit in both engines', () =>
  withRouter(async (router) => {
    const failing = program('throws.js', `function fail() { throw new Error('boom'); }\nfail();\n`);
    for (const engine of engines) {
      const run = await runProgram({ root: router.root, engine, program: failing });
      assert.is(run.code, 1, engine);
      assert.match(run.stderr, /^Error: boom\n\s+at fail/, engine);
    }
  }));

test('uhttpd turns the CGI output into the response: reason phrase required, 502 when unfinished', () => {
  const created = httpAnswer(Buffer.from('Status: 201 Created\r\nContent-Type: application/json\r\nLink: <a>\r\nLink: <b>\r\n\r\n{}'));
  assert.equal([created.status, created.reason, created.headers, created.body.toString()], [
    201, 'Created', [['Content-Type', 'application/json'], ['Link', '<a>'], ['Link', '<b>']], '{}',
  ]);
  assert.is(httpAnswer(Buffer.from('Status: 201\r\n\r\n')).status, 200);
  assert.is(httpAnswer(Buffer.from('')).status, 502);
  assert.is(httpAnswer(Buffer.from('Status: 200 OK\r\n')).status, 502);
  assert.is(httpAnswer(Buffer.from('no colon here\r\n\r\n')).status, 502);
});

const environmentEcho = program(
  'environment.js',
  `import * as std from 'std';
const names = ['HTTP_AUTHORIZATION', 'HTTP_IF_MATCH', 'HTTP_IF_NONE_MATCH', 'HTTP_X_REQUEST_ID', 'HTTP_IDEMPOTENCY_KEY',
  'HTTP_ACCEPT', 'HTTP_HOST', 'HTTP_X_HTTP_METHOD_OVERRIDE', 'CONTENT_TYPE', 'CONTENT_LENGTH', 'REQUEST_METHOD', 'REQUEST_URI',
  'QUERY_STRING', 'PATH_INFO', 'SCRIPT_NAME', 'SERVER_PROTOCOL', 'REMOTE_ADDR', 'HTTPS', 'PATH', 'WRTAPI_ROOT', 'HOME'];
const env = {};
for (const name of names) env[name] = std.getenv(name);
const body = std.in.readAsString(Number(env.CONTENT_LENGTH || 0));
std.out.puts('Status: 201 Created\\r\\nContent-Type: application/json\\r\\n\\r\\n' + JSON.stringify({ env, body }));
`,
);

test('serve hands only the uhttpd headers to the program and decodes PATH_INFO', () =>
  withRouter(async (router) => {
    const server = await serve({ root: router.root, engine: router.engine, port: 0, program: environmentEcho });
    try {
      const response = await fetch(`${baseUrl(server)}/firewall/rules/a%2Fb?if_match=%22x%22`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer secret',
          'If-Match': '"x"',
          'If-None-Match': '*',
          'X-Request-Id': 'abc',
          'Idempotency-Key': 'key',
          'X-HTTP-Method-Override': 'PATCH',
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: '{"name":"x"}',
      });
      assert.is(response.status, 201);
      assert.is(response.statusText, 'Created');
      const { env, body } = (await response.json()) as { env: Record<string, string>; body: string };
      assert.is(body, '{"name":"x"}');
      assert.equal(env, {
        HTTP_AUTHORIZATION: 'Bearer secret',
        HTTP_ACCEPT: 'application/json',
        HTTP_HOST: new URL(baseUrl(server)).host,
        HTTP_X_HTTP_METHOD_OVERRIDE: 'PATCH',
        CONTENT_TYPE: 'application/json',
        CONTENT_LENGTH: '12',
        REQUEST_METHOD: 'POST',
        REQUEST_URI: '/api/v3/firewall/rules/a%2Fb?if_match=%22x%22',
        QUERY_STRING: 'if_match=%22x%22',
        PATH_INFO: '/api/v3/firewall/rules/a/b',
        SCRIPT_NAME: '/cgi-bin/wrtapi',
        SERVER_PROTOCOL: 'HTTP/1.1',
        REMOTE_ADDR: '127.0.0.1',
        PATH: '/sbin:/usr/sbin:/bin:/usr/bin',
        WRTAPI_ROOT: router.root,
      });
      assert.is((await fetch(`${baseUrl(server).replace('/api/v3', '')}/cgi-bin/luci`)).status, 404);
    } finally {
      server.close();
    }
  }));

test('serve answers 502 when the program prints nothing', () =>
  withRouter(async (router) => {
    const silent = program('silent.js', `export {};\n`);
    const server = await serve({ root: router.root, engine: router.engine, port: 0, program: silent });
    try {
      const response = await fetch(`${baseUrl(server)}/healthz`);
      assert.is(response.status, 502);
      assert.match(await response.text(), /did not produce any response/);
    } finally {
      server.close();
    }
  }));

test('serve runs at most three programs at once and queues the rest', () =>
  withRouter(async (router) => {
    const slow = program(
      'slow.js',
      `import * as std from 'std';
import * as os from 'os';
const start = Date.now();
os.exec(['/bin/sleep', '0.4'], { usePath: false });
std.out.puts('Status: 200 OK\\r\\n\\r\\n' + start + ' ' + Date.now());
`,
    );
    const server = await serve({ root: router.root, engine: router.engine, port: 0, program: slow });
    try {
      const spans = await Promise.all(
        Array.from({ length: 6 }, async () => (await (await fetch(`${baseUrl(server)}/slow`)).text()).split(' ').map(Number)),
      );
      const mostAtOnce = Math.max(...spans.map(([start]) => spans.filter(([from, to]) => from <= start && start < to).length));
      assert.is(mostAtOnce, 3);
    } finally {
      server.close();
    }
  }));

test.run();
