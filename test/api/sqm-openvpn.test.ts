// sqm/queues and openvpn/instances through the CGI path: reads and the 503 of a router without the
// package, what each write puts in /etc/config/sqm and /etc/config/openvpn, the write-only openvpn
// fields (never in an answer, a header or a log line), and round trips of the shipped files.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { installDaemon, shipped } from '../support/daemons.js';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';
import { sectionText as sectionOf } from '../support/files.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, refused, written, initLog } = writeChecks(() => ({ router, authorization }));
const file = (pkg: string) => readFileSync(router.path(`/etc/config/${pkg}`), 'utf8');
/** Cases of one kind: all of them on the native engine, every fourth on the slow one. */
const sample = <T>(cases: T[]): T[] => (router.engine === 'wasm' ? cases.filter((_, i) => i % 4 === 0) : cases);
const options = (pkg: string, name: string) => Object.fromEntries(parseUci(file(pkg)).sections.find((section) => section.name === name)!.options);

const sectionText = (pkg: string, header: string) => sectionOf(file(pkg), header);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

/** Every section of the file, read and PUT back (each write reloading `service`), keeps its options exactly. */
async function roundTrip(resource: string, service: string, shipped: string, pkg: string): Promise<void> {
  const items = (await call({ method: 'GET', path: `/${resource}` })).json as Body[];
  assert.equal(items.map((item) => item.id), parseUci(shipped).sections.map((section) => section.name));
  for (const item of items) {
    const read = await call({ method: 'GET', path: `/${resource}/${item.id}` });
    assert.equal(read.json, item);
    const put = await written({ method: 'PUT', path: `/${resource}/${item.id}`, body: item }, [service]);
    assert.equal(put, item);
  }
  const view = (text: string) => parseUci(text).sections.map((section) => [section.type, section.name, Object.fromEntries(section.options)]);
  assert.equal(view(file(pkg)), view(shipped));
  const sweep = (await call({ method: 'GET', path: '/diagnostics', query: { validate: '1' } })).json as Body;
  assert.ok(sweep.swept_resources.includes(resource.replace('/', ':')));
  assert.equal(sweep.invalid_sections.filter((section: Body) => section.resource.startsWith(pkg)), []);
}

async function missingScript(request: RequestOptions, service: string, pkg: string): Promise<void> {
  const envelope = await refused(request, 503, 'init_script_missing');
  assert.is(envelope.message, `Init script /etc/init.d/${service} is missing; install the package ${pkg} (POST /packages/installed). Nothing was changed`);
}

const QUEUE = { interface: 'pppoe-wan', script: 'simple.qos' };

test('without sqm-scripts or openvpn: reads answer, writes are 503 init_script_missing naming the package, and no file is created or changed', async () => {
  for (const path of ['/sqm/queues', '/openvpn/instances']) assert.equal((await call({ method: 'GET', path })).json, [], path);
  await missingScript({ method: 'POST', path: '/sqm/queues', body: QUEUE }, 'sqm', 'sqm-scripts');
  await missingScript({ method: 'POST', path: '/openvpn/instances', body: { dev: 'tun' } }, 'openvpn', 'openvpn-openssl');
  for (const pkg of ['sqm', 'openvpn']) assert.not.ok(existsSync(router.path(`/etc/config/${pkg}`)), pkg);
  // Packages removed, their files left: read from, never written.
  writeFileSync(router.path('/etc/config/sqm'), shipped('sqm'));
  writeFileSync(router.path('/etc/config/openvpn'), shipped('openvpn'));
  assert.is(((await call({ method: 'GET', path: '/sqm/queues/eth1' })).json as Body).script, 'piece_of_cake.qos');
  assert.is(((await call({ method: 'GET', path: '/openvpn/instances/sample_server' })).json as Body).has_key, true);
  await missingScript({ method: 'PATCH', path: '/sqm/queues/eth1', body: { enabled: true } }, 'sqm', 'sqm-scripts');
  await missingScript({ method: 'DELETE', path: '/sqm/queues/eth1' }, 'sqm', 'sqm-scripts');
  await missingScript({ method: 'PUT', path: '/openvpn/instances/custom_config', body: { config: '/etc/openvpn/a.conf' } }, 'openvpn', 'openvpn-openssl');
  await missingScript({ method: 'DELETE', path: '/openvpn/instances/sample_client' }, 'openvpn', 'openvpn-openssl');
  assert.equal([file('sqm'), file('openvpn')], [shipped('sqm'), shipped('openvpn')]);
  assert.equal(initLog(), []);
});

test('sqm/queues: every option sqm-scripts reads, written as its scripts test them; create, change and delete', async () => {
  installDaemon(router, 'sqm', ['sqm']);
  const body = {
    id: 'wan', enabled: true, interface: 'pppoe-wan', download: 50000, upload: 10000, qdisc: 'cake', script: 'layer_cake.qos', linklayer: 'ethernet',
    overhead: 44, linklayer_adaptation_mechanism: 'cake', tc_mpu: 64, iqdisc_opts: 'nat dual-dsthost ingress', eqdisc_opts: 'nat dual-srchost',
    squash_dscp: false, squash_ingress: false, linklayer_advanced: true, debug_logging: false, verbosity: 8,
  };
  assert.equal(await written({ method: 'POST', path: '/sqm/queues', body }, ['sqm']), { ...body, managed: true });
  assert.is(
    sectionText('sqm', "config queue 'wan'"),
    "config queue 'wan'\n\toption enabled '1'\n\toption interface 'pppoe-wan'\n\toption download '50000'\n\toption upload '10000'\n" +
      "\toption qdisc 'cake'\n\toption script 'layer_cake.qos'\n\toption linklayer 'ethernet'\n\toption overhead '44'\n" +
      "\toption linklayer_adaptation_mechanism 'cake'\n\toption tcMPU '64'\n\toption iqdisc_opts 'nat dual-dsthost ingress'\n" +
      "\toption eqdisc_opts 'nat dual-srchost'\n\toption squash_dscp '0'\n\toption squash_ingress '0'\n\toption linklayer_advanced '1'\n" +
      "\toption debug_logging '0'\n\toption verbosity '8'\n",
  );
  await written({ method: 'PATCH', path: '/sqm/queues/wan', body: { script: 'simple.qos', qdisc: 'fq_codel', ingress_ecn: 'NOECN', itarget: '15ms', ilimit: 2000, tc_mtu: 1500, tc_tsize: 128, overhead: 300, linklayer_adaptation_mechanism: 'tc_stab' } }, ['sqm']);
  assert.equal(options('sqm', 'wan'), {
    enabled: '1', interface: 'pppoe-wan', download: '50000', upload: '10000', qdisc: 'fq_codel', script: 'simple.qos', linklayer: 'ethernet', overhead: '300',
    linklayer_adaptation_mechanism: 'tc_stab', tcMPU: '64', iqdisc_opts: 'nat dual-dsthost ingress', eqdisc_opts: 'nat dual-srchost', squash_dscp: '0',
    squash_ingress: '0', linklayer_advanced: '1', debug_logging: '0', verbosity: '8', tcMTU: '1500', tcTSIZE: '128', ingress_ecn: 'NOECN', itarget: '15ms', ilimit: '2000',
  });
  await written({ method: 'DELETE', path: '/sqm/queues/wan' }, ['sqm']);
  assert.is(sectionText('sqm', "config queue 'wan'"), undefined);
});

test('sqm/queues: a missing script, a second enabled queue on a device, values cake or the shell would not take are refused', async () => {
  installDaemon(router, 'sqm', ['sqm']);
  const missing = await refused({ method: 'POST', path: '/sqm/queues', body: { ...QUEUE, script: 'nosuch.qos' } }, 422, ['script:conflict']);
  assert.match(missing.errors[0].message, '/usr/lib/sqm/nosuch.qos does not exist');
  const refusals: [Body, string[]][] = [
    [{ enabled: true }, ['interface:required', 'script:required']],
    [{ ...QUEUE, script: '../../tmp/x.qos', interface: 'eth0;reboot' }, ['script:invalid_format', 'interface:invalid_format']],
    [{ ...QUEUE, iqdisc_opts: 'nat $(reboot)', itarget: '5.5ms', linklayer: 'adsl' }, ['iqdisc_opts:invalid_format', 'itarget:invalid_format', 'linklayer:not_in_enum']],
  ];
  for (const [body, errors] of sample(refusals)) await refused({ method: 'POST', path: '/sqm/queues', body }, 422, errors);
  // cake takes its own link layer options only within its limits; piece_of_cake.qos is cake whatever qdisc says.
  const cake = { ...QUEUE, script: 'piece_of_cake.qos', qdisc: 'fq_codel', linklayer: 'atm', overhead: -65, tc_mpu: 257 };
  await refused({ method: 'POST', path: '/sqm/queues', body: cake }, 422, ['overhead:out_of_range', 'tc_mpu:out_of_range']);
  await written({ method: 'POST', path: '/sqm/queues', body: { ...cake, linklayer_adaptation_mechanism: 'tc_stab' } }, ['sqm']);
  // The shipped eth1 queue is disabled: another on eth1 may be enabled, until eth1 is too.
  const other = await written({ method: 'POST', path: '/sqm/queues', body: { interface: 'eth1', script: 'simplest.qos', enabled: true } }, ['sqm']);
  const clash = await refused({ method: 'PATCH', path: '/sqm/queues/eth1', body: { enabled: true } }, 422, ['interface:conflict']);
  assert.match(clash.errors[0].message, `queue ${other.id} already shapes eth1`);
});

test('sqm/queues: the shipped /etc/config/sqm reads, and PUT back keeps every option', async () => {
  installDaemon(router, 'sqm', ['sqm']);
  assert.equal((await call({ method: 'GET', path: '/sqm/queues/eth1' })).json, {
    id: 'eth1', managed: true, enabled: false, interface: 'eth1', download: 85000, upload: 10000, qdisc: 'cake', script: 'piece_of_cake.qos',
    linklayer: 'none', ingress_ecn: 'ECN', egress_ecn: 'ECN', itarget: 'auto', etarget: 'auto', qdisc_advanced: false, qdisc_really_really_advanced: false,
  });
  await roundTrip('sqm/queues', 'sqm', shipped('sqm'), 'sqm');
});

const KEY = '/etc/openvpn/office/K3y-7f3a.key';
const TLS_AUTH = '/etc/openvpn/office/Ta-9c1e.key 1';
const PKCS12 = '/etc/openvpn/office/Bundle-52d0.p12';
const PASSWORD = 'Pa55-w0rd-e1b4';
const SECRETS = [KEY, TLS_AUTH.split(' ')[0], PKCS12, PASSWORD];
const CLIENT = {
  id: 'office', enabled: true, client: true, dev: 'tun', proto: 'udp', remote: ['vpn.example.com 1194', 'vpn2.example.com 443 tcp-client'], remote_random: true,
  resolv_retry: 'infinite', nobind: true, ca: '/etc/openvpn/office/ca.crt', cert: '/etc/openvpn/office/client.crt', key: KEY, tls_auth: TLS_AUTH,
  remote_cert_tls: 'server', data_ciphers: ['AES-256-GCM', 'CHACHA20-POLY1305'], auth: 'SHA256', persist_key: true, persist_tun: true, verb: 3,
  username: 'alice', password: PASSWORD, route: ['10.10.0.0 255.255.0.0', '10.20.0.0 255.255.0.0 vpn_gateway 5'], redirect_gateway: 'def1 bypass-dhcp',
};
const PRESENT = { has_key: true, has_tls_auth: true, has_pkcs12: false, has_password: true, has_cert_password: false };

/** An answer, asserted to carry no write-only value in its body or headers. */
function clean(response: Response): Response {
  const text = JSON.stringify(response.headers) + response.body;
  for (const secret of SECRETS) assert.not.ok(text.includes(secret), `${secret} in an answer: ${text}`);
  return response;
}

test('openvpn/instances: a client with write-only key, tls_auth and password; each is kept until written, and never answered or logged', async () => {
  installDaemon(router, 'openvpn', ['openvpn']);
  // Every request logged, with the ubus calls too: the log lines must not carry the values either.
  writeFileSync(router.path('/etc/config/wrtapi'), file('wrtapi').replace("option access '0'", "option access '1'").replace("option debug '0'", "option debug '1'"));
  const { key: _key, tls_auth: _tlsAuth, password: _password, ...shown } = CLIENT;
  const expected = { ...shown, managed: true, ...PRESENT, push: [], route_ipv6: [] };
  const created = await written({ method: 'POST', path: '/openvpn/instances', body: CLIENT }, ['openvpn']);
  assert.equal(created, expected);
  assert.is(
    sectionText('openvpn', "config openvpn 'office'"),
    "config openvpn 'office'\n\toption enabled '1'\n\toption dev 'tun'\n\toption proto 'udp'\n\tlist remote 'vpn.example.com 1194'\n" +
      "\tlist remote 'vpn2.example.com 443 tcp-client'\n\toption remote_random '1'\n\toption resolv_retry 'infinite'\n\toption nobind '1'\n" +
      "\toption client '1'\n\toption ca '/etc/openvpn/office/ca.crt'\n\toption cert '/etc/openvpn/office/client.crt'\n" +
      `\toption key '${KEY}'\n\toption tls_auth '${TLS_AUTH}'\n\toption remote_cert_tls 'server'\n\tlist data_ciphers 'AES-256-GCM'\n` +
      "\tlist data_ciphers 'CHACHA20-POLY1305'\n\toption auth 'SHA256'\n\toption verb '3'\n\toption persist_key '1'\n\toption persist_tun '1'\n" +
      "\tlist route '10.10.0.0 255.255.0.0'\n\tlist route '10.20.0.0 255.255.0.0 vpn_gateway 5'\n\toption redirect_gateway 'def1 bypass-dhcp'\n" +
      `\toption username 'alice'\n\toption password '${PASSWORD}'\n`,
  );
  const read = clean(await call({ method: 'GET', path: '/openvpn/instances/office' }));
  assert.equal(read.json, expected);
  clean(await call({ method: 'GET', path: '/openvpn/instances' }));
  // A PATCH without them, and a PUT of the read-back body (has_* flags and all), keep them.
  clean(await call({ method: 'PATCH', path: '/openvpn/instances/office', body: { verb: 4 } }));
  const put = clean(await call({ method: 'PUT', path: '/openvpn/instances/office', body: { ...(read.json as Body), verb: 5 } }));
  assert.equal(put.json, { ...expected, verb: 5 });
  assert.equal([options('openvpn', 'office').key, options('openvpn', 'office').tls_auth, options('openvpn', 'office').password], [KEY, TLS_AUTH, PASSWORD]);
  // Rotation and removal are explicit writes; a refused one names the field, never the value.
  const rotated = clean(await call({ method: 'PATCH', path: '/openvpn/instances/office', body: { tls_auth: null, password: `${PASSWORD}-2` } }));
  assert.equal([(rotated.json as Body).has_tls_auth, (rotated.json as Body).has_password], [false, true]);
  assert.equal([options('openvpn', 'office').tls_auth, options('openvpn', 'office').password], [undefined, `${PASSWORD}-2`]);
  const bad = clean(await call({ method: 'PATCH', path: '/openvpn/instances/office', body: { key: `relative/${KEY}`, pkcs12: PKCS12 } }));
  assert.equal(checksOf(bad), ['cert:conflict', 'key:conflict', 'key:invalid_format']);
  clean(await call({ method: 'POST', path: '/openvpn/instances', body: { ...CLIENT, id: 'other', password: `-${PASSWORD}`, cert_password: `a\n${PASSWORD}` } }));
  const logged = router.texts('/var/log', '/tmp');
  for (const secret of SECRETS) assert.not.ok(logged.includes(secret), `${secret} in a log or state file`);
  assert.match(readFileSync(router.path('/var/log/messages'), 'utf8'), 'PATCH /openvpn/instances/office 200', 'the requests were logged');
});

const checksOf = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();


test('openvpn/instances: a server, and the combinations openvpn refuses to start with', async () => {
  installDaemon(router, 'openvpn', ['openvpn']);
  const server = {
    id: 'home', enabled: true, dev: 'tun0', proto: 'udp6', port: 1194, server: '10.9.0.0 255.255.255.0', server_ipv6: 'fd00:9::/64', topology: 'subnet',
    ca: '/etc/openvpn/home/ca.crt', cert: '/etc/openvpn/home/server.crt', key: '/etc/openvpn/home/server.key', dh: 'none', tls_crypt: '/etc/openvpn/home/tc.key',
    keepalive: '10 120', client_to_client: true, max_clients: 20, push: ['route 192.168.1.0 255.255.255.0', 'dhcp-option DNS 192.168.1.1'],
    status: '/tmp/openvpn-home.status 30', log_append: '/tmp/openvpn-home.log', user: 'nobody', group: 'nogroup',
  };
  await written({ method: 'POST', path: '/openvpn/instances', body: server }, ['openvpn']);
  assert.equal(options('openvpn', 'home').push, ['route 192.168.1.0 255.255.255.0', 'dhcp-option DNS 192.168.1.1']);
  assert.is(options('openvpn', 'home').server, '10.9.0.0 255.255.255.0');
  const refusals: [Body, string[]][] = [
    [{ client: true, nobind: true, remote: ['a.example 1194'] }, ['client:conflict', 'nobind:conflict', 'remote:conflict']],
    [{ server: '10.9.0.1 255.255.255.0', tls_auth: '/etc/openvpn/ta.key' }, ['server:conflict', 'tls_crypt:conflict']],
    [{ server: '10.9.0.0 255.0.255.0', server_ipv6: 'fd00:9::/48', keepalive: '10 15' }, ['server:conflict', 'server_ipv6:invalid_format', 'keepalive:conflict']],
    [{ pkcs12: '/etc/openvpn/home/all.p12' }, ['cert:conflict', 'key:conflict']],
    [{ key: null }, ['key:required']],
    [{ dev: 'vpn0', ca: 'ca.crt', dh: 'dh.pem', status: '/tmp/s x' }, ['dev_type:required', 'ca:invalid_format', 'dh:invalid_format', 'status:invalid_format']],
    [{ push: ['route "x"'], route: ['10.0.0.0 255.0.0.0 10.0.0.1 x'], proto: 'sctp' }, ['push[0]:invalid_format', 'route[0]:invalid_format', 'proto:not_in_enum']],
  ];
  for (const [body, errors] of sample(refusals)) await refused({ method: 'PATCH', path: '/openvpn/instances/home', body }, 422, errors);
  await written({ method: 'PATCH', path: '/openvpn/instances/home', body: { dev: 'vpn0', dev_type: 'tun' } }, ['openvpn']);
  // With `config`, openvpn runs that file: the options the script would otherwise write are refused.
  const own = await refused({ method: 'POST', path: '/openvpn/instances', body: { config: '/etc/openvpn/own.conf', port: 1195, persist_tun: true, persist_key: false, dev: 'tun1' } }, 422, [
    'config:conflict',
  ]);
  assert.is(own.errors[0].message, 'openvpn reads port, persist_tun only without config');
  await written({ method: 'DELETE', path: '/openvpn/instances/home' }, ['openvpn']);
  assert.is(sectionText('openvpn', "config openvpn 'home'"), undefined);
});

test('openvpn/instances: the options uapi\'s provider adds, as openvpn.options passes them (bools, params, the ncp_ciphers list), and what openvpn 2.6 exits on', async () => {
  installDaemon(router, 'openvpn', ['openvpn']);
  const client = {
    id: 'branch', enabled: true, tls_client: true, dev: 'tun', remote: ['vpn.example.com'], rport: 1195, lport: 0, local: '192.0.2.7', float: true,
    ca: '/etc/openvpn/branch/ca.crt', cert: '/etc/openvpn/branch/c.crt', key: '/etc/openvpn/branch/c.key', crl_verify: '/etc/openvpn/branch/crl.pem',
    verify_x509_name: "'C=DE, O=Example, CN=vpn.example.com' subject", ncp_ciphers: 'AES-256-GCM:CHACHA20-POLY1305', ncp_disable: false,
    ifconfig: '10.8.0.2 10.8.0.1', route_gateway: 'vpn_gateway', route: ['10.10.0.0 255.255.0.0'], ping: 10, ping_restart: 60, mute: 20,
  };
  const { key: _key, ...shown } = client;
  const created = await written({ method: 'POST', path: '/openvpn/instances', body: client }, ['openvpn']);
  assert.equal(created, { ...shown, managed: true, has_key: true, has_tls_auth: false, has_pkcs12: false, has_password: false, has_cert_password: false, data_ciphers: [], push: [], route_ipv6: [] });
  // Booleans as config_get_bool reads them, params as one option each, ncp_ciphers as the UCI list append_list joins with colons.
  assert.is(
    sectionText('openvpn', "config openvpn 'branch'"),
    "config openvpn 'branch'\n\toption enabled '1'\n\toption dev 'tun'\n\toption lport '0'\n\toption rport '1195'\n\toption local '192.0.2.7'\n" +
      "\toption float '1'\n\tlist remote 'vpn.example.com'\n\toption tls_client '1'\n\toption ifconfig '10.8.0.2 10.8.0.1'\n\toption ping '10'\n" +
      "\toption ping_restart '60'\n\toption ca '/etc/openvpn/branch/ca.crt'\n\toption cert '/etc/openvpn/branch/c.crt'\n\toption key '/etc/openvpn/branch/c.key'\n" +
      "\toption verify_x509_name ''\\''C=DE, O=Example, CN=vpn.example.com'\\'' subject'\n\toption crl_verify '/etc/openvpn/branch/crl.pem'\n" +
      "\tlist ncp_ciphers 'AES-256-GCM'\n\tlist ncp_ciphers 'CHACHA20-POLY1305'\n\toption ncp_disable '0'\n\toption mute '20'\n" +
      "\tlist route '10.10.0.0 255.255.0.0'\n\toption route_gateway 'vpn_gateway'\n",
  );
  assert.equal((await call({ method: 'GET', path: '/openvpn/instances/branch' })).json, created);
  // append_list reads a UCI list only: a plain option is no cipher list, and reads as null.
  writeFileSync(router.path('/etc/config/openvpn'), file('openvpn').replace("\tlist ncp_ciphers 'AES-256-GCM'\n\tlist ncp_ciphers 'CHACHA20-POLY1305'\n", "\toption ncp_ciphers 'AES-256-GCM'\n"));
  assert.is(((await call({ method: 'GET', path: '/openvpn/instances/branch' })).json as Body).ncp_ciphers, null);
  await written({ method: 'PATCH', path: '/openvpn/instances/branch', body: { ncp_ciphers: 'AES-128-GCM' } }, ['openvpn']);
  assert.equal(options('openvpn', 'branch').ncp_ciphers, ['AES-128-GCM']);

  const bridge = {
    id: 'bridge', enabled: true, dev: 'tap0', server_bridge: '192.168.1.1 255.255.255.0 192.168.1.200 192.168.1.220', tls_server: true, keepalive: '10 60',
    ca: '/etc/openvpn/b/ca.crt', cert: '/etc/openvpn/b/s.crt', key: '/etc/openvpn/b/s.key', dh: 'none', ping: 0,
  };
  await written({ method: 'POST', path: '/openvpn/instances', body: bridge }, ['openvpn']);
  assert.equal([options('openvpn', 'bridge').server_bridge, options('openvpn', 'bridge').tls_server], [bridge.server_bridge, '1']);
  const refusals: [Body, string[]][] = [
    [{ ncp_disable: true }, ['ncp_disable:not_in_enum']],
    [{ ping: 5, ping_restart: 30 }, ['keepalive:conflict']],
    [{ tls_client: true }, ['tls_client:conflict']],
    [{ client: true, ifconfig_pool: '10.8.0.10 10.8.0.20' }, ['client:conflict', 'ifconfig_pool:conflict']],
    [{ server: '10.9.0.0 255.255.255.0' }, ['server:conflict']],
    [{ nobind: true, local: '192.0.2.1', lport: 0 }, ['nobind:conflict']],
    [{ lport: 65536, rport: 0, mute: -1 }, ['lport:out_of_range', 'rport:out_of_range', 'mute:out_of_range']],
    [{ verify_x509_name: 'vpn.example.com cn', crl_verify: '/etc/crl.pem file', route_gateway: '10.0.0.1 x' }, [
      'verify_x509_name:invalid_format', 'crl_verify:invalid_format', 'route_gateway:invalid_format',
    ]],
    [{ ncp_ciphers: 'AES-256-GCM:', ifconfig: '10.8.0.1', server_bridge: 'gw' }, ['ncp_ciphers:invalid_format', 'ifconfig:invalid_format', 'server_bridge:invalid_format']],
  ];
  for (const [body, errors] of sample(refusals)) await refused({ method: 'PATCH', path: '/openvpn/instances/bridge', body }, 422, errors);
  // server nopool leaves the pool to ifconfig_pool.
  const pool = { id: 'pool', enabled: true, dev: 'tun1', server: '10.7.0.0 255.255.255.0 nopool', ifconfig_pool: '10.7.0.100 10.7.0.150 255.255.255.0', ca: '/c', cert: '/c', key: '/k' };
  await written({ method: 'POST', path: '/openvpn/instances', body: pool }, ['openvpn']);
  assert.is(options('openvpn', 'pool').ifconfig_pool, pool.ifconfig_pool);
  await refused({ method: 'PATCH', path: '/openvpn/instances/pool', body: { server: '10.7.0.0 255.255.255.0' } }, 422, ['ifconfig_pool:conflict']);
});

test('openvpn/instances: the shipped /etc/config/openvpn reads, and PUT back keeps every option, the key files included', async () => {
  installDaemon(router, 'openvpn', ['openvpn']);
  const client = (await call({ method: 'GET', path: '/openvpn/instances/sample_client' })).json as Body;
  assert.equal(client, {
    id: 'sample_client', managed: true, enabled: false, client: true, dev: 'tun', proto: 'udp', remote: ['my_server_1 1194'], resolv_retry: 'infinite',
    nobind: true, persist_key: true, persist_tun: true, user: 'nobody', ca: '/etc/openvpn/ca.crt', cert: '/etc/openvpn/client.crt', verb: 3,
    has_key: true, has_tls_auth: false, has_pkcs12: false, has_password: false, has_cert_password: false, data_ciphers: [], push: [], route: [], route_ipv6: [],
  });
  await roundTrip('openvpn/instances', 'openvpn', shipped('openvpn'), 'openvpn');
});

test.run();
