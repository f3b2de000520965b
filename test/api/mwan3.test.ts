// mwan3/globals, interfaces, members, policies and rules through the CGI path: what each write puts in
// /etc/config/mwan3 and that it reloads mwan3; the chain interfaces <- members <- policies <- rules
// (dangling names refused with the field named, deletes refused while named); and without the mwan3
// package, reads that answer and writes refused with 503 before anything is written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';
import { installDaemon } from '../support/daemons.js';

type Body = Record<string, any>;

const SHIPPED = readFileSync(new URL('../../../../test/fixtures/uci/upstream/mwan3', import.meta.url), 'utf8');
const MISSING = 'Init script /etc/init.d/mwan3 is missing; install the package mwan3 (POST /packages/installed). Nothing was changed';

let router: Router;
let authorization: string;
const { call, refused, ...checks } = writeChecks(() => ({ router, authorization }));
const written = (request: RequestOptions) => checks.written(request, ['mwan3']);
const mwan3 = () => readFileSync(router.path('/etc/config/mwan3'), 'utf8');
const addNetwork = (text: string) => writeFileSync(router.path('/etc/config/network'), readFileSync(router.path('/etc/config/network'), 'utf8') + text);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

test('without the mwan3 package: reads answer, and every resource refuses a write with 503 naming the init script and creating no file', async () => {
  // No globals section, no file at all: a singleton's missing section is not_found, as dhcp/odhcpd's.
  const globals = await call({ method: 'GET', path: '/mwan3/globals' });
  assert.equal([globals.status, (globals.json as Body).code, (globals.json as Body).message], [404, 'not_found', 'mwan3/globals is not configured']);
  for (const path of ['/mwan3/interfaces', '/mwan3/members', '/mwan3/policies', '/mwan3/rules']) {
    const list = await call({ method: 'GET', path });
    assert.is(list.status, 200, list.body);
    assert.equal(list.json, []);
  }
  const writes: RequestOptions[] = [
    { method: 'PUT', path: '/mwan3/globals', body: { mmx_mask: '0x3F00' } },
    { method: 'PATCH', path: '/mwan3/globals', body: { logging: true } },
    { method: 'POST', path: '/mwan3/interfaces', body: { id: 'wan', enabled: true } },
    { method: 'POST', path: '/mwan3/members', body: { interface: 'wan' } },
    { method: 'POST', path: '/mwan3/policies', body: { use_members: [] } },
    { method: 'POST', path: '/mwan3/rules', body: { use_policy: 'default' } },
  ];
  for (const request of writes) {
    const body = await refused(request, 503, 'init_script_missing');
    assert.is(body.message, MISSING);
    assert.not.ok(existsSync(router.path('/etc/config/mwan3')), `${request.method} ${request.path} created no file`);
  }
});

test('with the package\'s configuration but no init script: reads answer; PUT, PATCH and DELETE of each resource are 503 and change no byte', async () => {
  writeFileSync(router.path('/etc/config/mwan3'), SHIPPED);
  const globals = await call({ method: 'GET', path: '/mwan3/globals' });
  assert.equal(globals.json, { mmx_mask: '0x3F00', rt_table_lookup: [] });
  const wan = (await call({ method: 'GET', path: '/mwan3/interfaces/wan' })).json as Body;
  assert.equal(wan, {
    id: 'wan', managed: true, enabled: true, family: 'ipv4', track_ip: ['1.0.0.1', '1.1.1.1', '208.67.222.222', '208.67.220.220'], reliability: 2, flush_conntrack: [],
  });
  const sections = [['interfaces', 'wan'], ['members', 'wan_m1_w3'], ['policies', 'balanced'], ['rules', 'https']];
  for (const [index, [path, id]] of sections.entries()) {
    const item = (await call({ method: 'GET', path: `/mwan3/${path}/${id}` })).json as Body;
    const requests = [
      { method: 'PUT', path: `/mwan3/${path}/${id}`, body: item },
      { method: 'PATCH', path: `/mwan3/${path}/${id}`, body: {} },
      { method: 'DELETE', path: `/mwan3/${path}/${id}` },
    ];
    // The slow engine tries one verb per resource, each verb once.
    for (const request of router.engine === 'wasm' ? [requests[index % 3]] : requests) {
      assert.is((await refused(request, 503, 'init_script_missing')).message, MISSING);
    }
  }
  await refused({ method: 'PUT', path: '/mwan3/globals', body: globals.json }, 503, 'init_script_missing');
  assert.is(mwan3(), SHIPPED);
});

test('mwan3/globals: a PUT creates the section named globals, a PATCH changes only its fields; a mask without room and an unknown table are refused', async () => {
  installDaemon(router, 'mwan3');
  // A PATCH of nothing creates the section, named as mwan3 reads it.
  await written({ method: 'PATCH', path: '/mwan3/globals', body: {} });
  assert.is(mwan3(), "\nconfig globals 'globals'\n\n");
  const created = await written({ method: 'PUT', path: '/mwan3/globals', body: { mmx_mask: '0xff00', logging: true, loglevel: 'info' } });
  assert.equal(created, { mmx_mask: '0xff00', rt_table_lookup: [], logging: true, loglevel: 'info' });
  assert.is(mwan3(), "\nconfig globals 'globals'\n\toption mmx_mask '0xff00'\n\toption logging '1'\n\toption loglevel 'info'\n\n");
  // Options 2.11 no longer reads stay on a PATCH and go with a PUT.
  writeFileSync(router.path('/etc/config/mwan3'), mwan3().replace("'info'\n", "'info'\n\toption rtmon_interval '5'\n"));
  await written({ method: 'PATCH', path: '/mwan3/globals', body: { logging: false, source_routing: true, rt_table_lookup: ['100', 'main'] } });
  assert.is(
    mwan3(),
    "\nconfig globals 'globals'\n\toption mmx_mask '0xff00'\n\toption logging '0'\n\toption loglevel 'info'\n\toption rtmon_interval '5'\n" +
      "\toption source_routing '1'\n\tlist rt_table_lookup '100'\n\tlist rt_table_lookup 'main'\n\n",
  );
  await written({ method: 'PUT', path: '/mwan3/globals', body: { mmx_mask: '0x3F00' } });
  assert.is(mwan3(), "\nconfig globals 'globals'\n\toption mmx_mask '0x3F00'\n\n");
  await refused({ method: 'PATCH', path: '/mwan3/globals', body: { mmx_mask: '0x3', loglevel: 'verbose' } }, 422, ['mmx_mask:conflict', 'loglevel:invalid_format']);
  await refused({ method: 'PATCH', path: '/mwan3/globals', body: { mmx_mask: '0x0' } }, 422, ['mmx_mask:out_of_range']);
  const table = await refused({ method: 'PATCH', path: '/mwan3/globals', body: { rt_table_lookup: ['vpn'] } }, 422, ['rt_table_lookup[0]:conflict']);
  assert.match(table.errors[0].message, 'vpn is not a table of /etc/iproute2/rt_tables');
  writeFileSync(router.path('/etc/iproute2/rt_tables'), `${readFileSync(router.path('/etc/iproute2/rt_tables'), 'utf8')}100\tvpn\n`);
  await written({ method: 'PATCH', path: '/mwan3/globals', body: { rt_table_lookup: ['vpn'] } });
  // 3 bits number 4 interfaces: the four network interfaces fit, a fifth does not.
  await written({ method: 'PATCH', path: '/mwan3/globals', body: { mmx_mask: '0x700' } });
  for (const id of ['wan', 'wan6', 'lan', 'loopback']) await written({ method: 'POST', path: '/mwan3/interfaces', body: { id } });
  addNetwork("\nconfig interface 'wanb'\n\toption device 'eth2'\n\toption proto 'dhcp'\n");
  const full = await refused({ method: 'POST', path: '/mwan3/interfaces', body: { id: 'wanb' } }, 422, ['id:conflict']);
  assert.match(full.errors[0].message, 'room for 4 interfaces');
  await refused({ method: 'PATCH', path: '/mwan3/globals', body: { mmx_mask: '0x300' } }, 422, ['mmx_mask:conflict']);
});

test('mwan3/interfaces: named after a network interface; the exact options written; tracking checks', async () => {
  installDaemon(router, 'mwan3');
  const none = await refused({ method: 'POST', path: '/mwan3/interfaces', body: { id: 'wanb', enabled: true } }, 422, ['id:conflict']);
  assert.match(none.errors[0].message, 'no network interface named wanb');
  await refused({ method: 'POST', path: '/mwan3/interfaces', body: { enabled: true } }, 422, ['id:conflict']);
  addNetwork("\nconfig interface 'wanb'\n\toption device 'eth2'\n\toption proto 'dhcp'\n\nconfig interface 'wan_backup_isp'\n\toption proto 'none'\n");
  await refused({ method: 'POST', path: '/mwan3/interfaces', body: { id: 'wan_backup_isp' } }, 422, ['id:out_of_range']);
  const body = {
    id: 'wanb', enabled: true, family: 'ipv4', track_ip: ['1.1.1.1', 'dns.google'], track_method: 'httping', httping_ssl: true, reliability: 2,
    probe_count: 2, timeout: 2, interval: 5, down: 3, up: 3, check_quality: true, failure_latency: 800, failure_loss: 20, flush_conntrack: ['ifup', 'disconnected'],
  };
  const wanb = await written({ method: 'POST', path: '/mwan3/interfaces', body });
  assert.equal(wanb, { ...body, managed: true });
  assert.is(
    mwan3(),
    "\nconfig interface 'wanb'\n\toption enabled '1'\n\toption family 'ipv4'\n\tlist track_ip '1.1.1.1'\n\tlist track_ip 'dns.google'\n" +
      "\toption track_method 'httping'\n\toption httping_ssl '1'\n\toption reliability '2'\n\toption count '2'\n\toption timeout '2'\n\toption interval '5'\n" +
      "\toption down '3'\n\toption up '3'\n\toption check_quality '1'\n\toption failure_latency '800'\n\toption failure_loss '20'\n" +
      "\tlist flush_conntrack 'ifup'\n\tlist flush_conntrack 'disconnected'\n\n",
  );
  assert.equal((await call({ method: 'GET', path: '/mwan3/interfaces/wanb' })).json, wanb);
  // The network interface mwan3 balances over cannot go while an mwan3 interface is named after it.
  const kept = await refused({ method: 'DELETE', path: '/network/interfaces/wanb' }, 409, 'conflict');
  assert.match(kept.message, 'mwan3/interfaces/wanb (id: wanb)');
  // httping_ssl applies to httping only: back on ping it goes.
  const ping = await written({ method: 'PATCH', path: '/mwan3/interfaces/wanb', body: { track_method: 'ping', size: 100, max_ttl: 30 } });
  assert.not.ok('httping_ssl' in ping);
  assert.not.match(mwan3(), 'httping_ssl');
  await refused({ method: 'PATCH', path: '/mwan3/interfaces/wanb', body: { track_ip: ['2606:4700:4700::1111', '1.1.1.1'] } }, 422, ['track_ip[0]:conflict']);
  await refused({ method: 'PATCH', path: '/mwan3/interfaces/wanb', body: { reliability: 3 } }, 422, ['reliability:conflict']);
  await refused({ method: 'PATCH', path: '/mwan3/interfaces/wanb', body: { family: 'ipv6', track_method: 'arping', track_ip: ['::1', '::2'] } }, 422, ['track_method:conflict']);
  await refused(
    { method: 'PATCH', path: '/mwan3/interfaces/wanb', body: { track_method: 'nping', initial_state: 'up', failure_loss: 0, max_ttl: 256, flush_conntrack: ['always'] } },
    422,
    ['track_method:not_in_enum', 'initial_state:not_in_enum', 'failure_loss:out_of_range', 'max_ttl:out_of_range', 'flush_conntrack[0]:not_in_enum'],
  );
  // A list option config_list_foreach would not see reads as null, and a read sent back keeps it.
  writeFileSync(router.path('/etc/config/mwan3'), mwan3().replace(/\tlist track_ip '1.1.1.1'\n\tlist track_ip 'dns.google'\n/, "\toption track_ip '1.1.1.1'\n"));
  const option = (await call({ method: 'GET', path: '/mwan3/interfaces/wanb' })).json as Body;
  assert.is(option.track_ip, null);
  await written({ method: 'PUT', path: '/mwan3/interfaces/wanb', body: option });
  assert.match(mwan3(), "\toption track_ip '1.1.1.1'\n");
});

test('the chain interface <- member <- policy <- rule: each name must exist in mwan3, and a section still named cannot be deleted', async () => {
  installDaemon(router, 'mwan3');
  // A member names an mwan3 interface: a network interface of that name is not one.
  const lan = await refused({ method: 'POST', path: '/mwan3/members', body: { id: 'wan_m1', interface: 'wan', metric: 1, weight: 3 } }, 422, ['interface:conflict']);
  assert.match(lan.errors[0].message, 'no mwan3 interface named wan');
  await refused({ method: 'POST', path: '/mwan3/members', body: { metric: 1 } }, 422, ['interface:required']);
  await written({ method: 'POST', path: '/mwan3/interfaces', body: { id: 'wan', enabled: true, track_ip: ['1.1.1.1'] } });
  await written({ method: 'POST', path: '/mwan3/members', body: { id: 'wan_m1', interface: 'wan', metric: 1, weight: 3 } });
  const dangling = await refused({ method: 'POST', path: '/mwan3/policies', body: { id: 'balanced', use_members: ['wan_m1', 'nosuch'] } }, 422, ['use_members[1]:conflict']);
  assert.match(dangling.errors[0].message, 'no mwan3 member named nosuch');
  await refused({ method: 'POST', path: '/mwan3/policies', body: { id: 'unreachable' } }, 422, ['id:conflict']);
  await refused({ method: 'POST', path: '/mwan3/policies', body: { id: 'a_sixteen_chars_' } }, 422, ['id:out_of_range']);
  await written({ method: 'POST', path: '/mwan3/policies', body: { id: 'balanced', use_members: ['wan_m1'], last_resort: 'default' } });
  await refused({ method: 'POST', path: '/mwan3/rules', body: { id: 'https', proto: 'tcp', dest_port: '443', use_policy: 'nosuch' } }, 422, ['use_policy:conflict']);
  await written({ method: 'POST', path: '/mwan3/rules', body: { id: 'https', proto: 'tcp', dest_port: '443', sticky: true, use_policy: 'balanced' } });
  await written({ method: 'POST', path: '/mwan3/rules', body: { id: 'drop_v6', family: 'ipv6', dest_ip: '::/0', use_policy: 'unreachable' } });
  assert.is(
    mwan3(),
    "\nconfig interface 'wan'\n\toption enabled '1'\n\tlist track_ip '1.1.1.1'\n" +
      "\nconfig member 'wan_m1'\n\toption interface 'wan'\n\toption metric '1'\n\toption weight '3'\n" +
      "\nconfig policy 'balanced'\n\tlist use_member 'wan_m1'\n\toption last_resort 'default'\n" +
      "\nconfig rule 'https'\n\toption proto 'tcp'\n\toption dest_port '443'\n\toption sticky '1'\n\toption use_policy 'balanced'\n" +
      "\nconfig rule 'drop_v6'\n\toption family 'ipv6'\n\toption dest_ip '::/0'\n\toption use_policy 'unreachable'\n\n",
  );
  const kept = mwan3();
  for (const [path, user] of [
    ['/mwan3/policies/balanced', 'mwan3/rules/https (use_policy: balanced)'],
    ['/mwan3/members/wan_m1', 'mwan3/policies/balanced (use_members: wan_m1)'],
    ['/mwan3/interfaces/wan', 'mwan3/members/wan_m1 (interface: wan)'],
  ]) assert.match((await refused({ method: 'DELETE', path }, 409, 'conflict')).message, user);
  await refused({ method: 'PATCH', path: '/mwan3/members/wan_m1', body: { interface: 'wan6' } }, 422, ['interface:conflict']);
  // From the end of the chain, each delete frees the next.
  for (const path of ['/mwan3/rules/https', '/mwan3/policies/balanced', '/mwan3/members/wan_m1', '/mwan3/interfaces/wan']) await written({ method: 'DELETE', path });
  assert.is(mwan3(), kept.slice(kept.indexOf("\nconfig rule 'drop_v6'")));
});

test('mwan3/rules: ports only with tcp or udp, addresses of one family, src_iface a network interface that cannot go while named', async () => {
  installDaemon(router, 'mwan3');
  await refused({ method: 'POST', path: '/mwan3/rules', body: { dest_port: '443', proto: 'icmp', use_policy: 'default' } }, 422, ['dest_port:conflict']);
  await refused({ method: 'POST', path: '/mwan3/rules', body: { src_port: '1:2,3:4,5:6,7:8,9:10,11:12,13:14,15,16', proto: 'udp' } }, 422, ['src_port:out_of_range']);
  await refused({ method: 'POST', path: '/mwan3/rules', body: { family: 'ipv4', dest_ip: '2001:db8::/32', src_ip: '10.0.0.0/8,fd00::/8' } }, 422, ['dest_ip:conflict', 'src_ip:conflict']);
  const embedded = await refused({ method: 'POST', path: '/mwan3/rules', body: { dest_ip: '::ffff:10.0.0.1' } }, 422, ['dest_ip:conflict']);
  assert.match(embedded.errors[0].message, 'embedded IPv4');
  await refused({ method: 'POST', path: '/mwan3/rules', body: { proto: 'TCP', dest_port: '443-444', ipset: 'a b', src_iface: 'nosuch' } }, 422, [
    'proto:invalid_format', 'dest_port:invalid_format', 'dest_port:conflict', 'ipset:invalid_format', 'src_iface:conflict',
  ]);
  addNetwork("\nconfig interface 'guest'\n\toption proto 'static'\n\toption ipaddr '192.168.2.1'\n\toption netmask '255.255.255.0'\n");
  const rule = await written({ method: 'POST', path: '/mwan3/rules', body: { src_iface: 'guest', src_ip: '192.168.2.0/24,192.168.3.7', use_policy: 'default', logging: true } });
  assert.match(rule.id, /^r_[a-z0-9]{13}$/, 'a generated id within the 15 characters mwan3 takes');
  const policy = await written({ method: 'POST', path: '/mwan3/policies', body: {} });
  assert.match(policy.id, /^p_[a-z0-9]{13}$/);
  const named = await refused({ method: 'DELETE', path: '/network/interfaces/guest' }, 409, 'conflict');
  assert.match(named.message, `mwan3/rules/${rule.id} (src_iface: guest)`);
  await written({ method: 'DELETE', path: `/mwan3/rules/${rule.id}` });
  await checks.written({ method: 'DELETE', path: '/network/interfaces/guest' }, ['network']);
});

test('adopt: an anonymous policy gets a 15-character id; one a rule names by its anonymous name is refused', async () => {
  installDaemon(router, 'mwan3');
  writeFileSync(router.path('/etc/config/mwan3'), "\nconfig policy\n\toption last_resort 'blackhole'\n\nconfig policy\n\toption last_resort 'default'\n\nconfig rule 'all'\n\toption use_policy 'cfg026ff5'\n\n");
  const policies = (await call({ method: 'GET', path: '/mwan3/policies' })).json as Body[];
  assert.equal(policies.map((policy) => [policy.id, policy.managed]), [['cfg016ff5', false], ['cfg026ff5', false]]);
  const adopted = await written({ method: 'POST', path: '/mwan3/policies/cfg016ff5/adopt' });
  assert.match(adopted.id, /^p_[a-z0-9]{13}$/);
  assert.match((await refused({ method: 'POST', path: '/mwan3/policies/cfg026ff5/adopt' }, 409, 'conflict')).message, 'mwan3/rules/all (use_policy: cfg026ff5)');
});

test.run();
