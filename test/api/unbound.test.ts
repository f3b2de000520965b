// unbound/server, unbound/srv and unbound/ext through the CGI path, with the daemon packages installed
// as opkg leaves them (their init script stand-ins and shipped configuration) or not installed at all:
// what each write puts in /etc/config, which init script it reloads, that a refused write changes no
// file and reloads nothing, and that the shipped configuration reads and is written back unchanged.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertSameUci, installDaemon, shipped } from '../support/daemons.js';
import { newRouter, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';
import { sectionText as sectionOf } from '../support/files.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, refused, written } = writeChecks(() => ({ router, authorization }));
const file = (pkg: string) => readFileSync(router.path(`/etc/config/${pkg}`), 'utf8');
const installUnbound = () => installDaemon(router, 'unbound', ['unbound']);
const installExt = () => installDaemon(router, 'unbound-uci-ext', ['unbound_srv', 'unbound_ext']);
/** A whole file as a write commits it: each section after a blank line, and a blank line at the end. */
const committed = (sections: string) => `\n${sections}\n`;

const sectionText = (pkg: string, header: string) => sectionOf(file(pkg), header);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

/** unbound.uci as unbound-daemon ships it, read. */
const SHIPPED_SERVER = {
  managed: true, manual_conf: false, listen_port: 53, interface_auto: true, localservice: true, protocol: 'default', recursion: 'default', resource_limits: 'default',
  num_threads: 1, edns_size: 1232, rate_limit: 0, ttl_min: 120, ttl_neg_max: 1000, verbosity: 1, extended_stats: false, hide_binddata: true,
  query_minimize: false, query_min_strict: false, rebind_protection: '1', rebind_localhost: false, dnssec_enabled: false, validator_ntp: true, root_age: 9,
  domain_insecure: [], dns64: false, dns64_prefix: '64:ff9b::/96', domain: 'lan', domain_type: 'static', add_local_fqdn: 1, add_wan_fqdn: 0,
  add_extra_dns: 0, dhcp_link: 'none', dhcp4_slaac6: false, exclude_ipv6_ga: false, unbound_control: 0, iface_lan: [], iface_wan: ['wan'],
  iface_trig: ['lan', 'wan'], trigger: [], trigger_interface: [],
};

test('unbound/server: reads the shipped ub_main, and PATCH and PUT write exactly the options they name, reloading unbound', async () => {
  installUnbound();
  const read = await call({ method: 'GET', path: '/unbound/server' });
  assert.is(read.status, 200, read.body);
  assert.equal(read.json, SHIPPED_SERVER);
  const patched = await written(
    {
      method: 'PATCH',
      path: '/unbound/server',
      body: { listen_port: 5353, dnssec_enabled: true, protocol: 'ip4_only', resource_limits: 'tiny', rebind_protection: '2', rate_limit: 500, dns64: null, domain_insecure: ['ntp.example.com', 'example.org.'], iface_trig: ['lan'] },
    },
    ['unbound'],
  );
  const { dns64: _removed, ...kept } = SHIPPED_SERVER;
  assert.equal(patched, { ...kept, listen_port: 5353, dnssec_enabled: true, protocol: 'ip4_only', resource_limits: 'tiny', rebind_protection: '2', rate_limit: 500, domain_insecure: ['ntp.example.com', 'example.org.'], iface_trig: ['lan'] });
  assert.is(
    sectionText('unbound', "config unbound 'ub_main'"),
    [
      "config unbound 'ub_main'", "\toption add_extra_dns '0'", "\toption add_local_fqdn '1'", "\toption add_wan_fqdn '0'", "\toption dhcp_link 'none'",
      "\toption dhcp4_slaac6 '0'", "\toption exclude_ipv6_ga '0'", "\toption dns64_prefix '64:ff9b::/96'", "\toption domain 'lan'",
      "\toption domain_type 'static'", "\toption edns_size '1232'", "\toption extended_stats '0'", "\toption hide_binddata '1'", "\toption interface_auto '1'",
      "\toption listen_port '5353'", "\toption localservice '1'", "\toption manual_conf '0'", "\toption num_threads '1'", "\toption protocol 'ip4_only'",
      "\toption query_minimize '0'", "\toption query_min_strict '0'", "\toption rate_limit '500'", "\toption rebind_localhost '0'",
      "\toption rebind_protection '2'", "\toption recursion 'default'", "\toption resource 'tiny'", "\toption root_age '9'", "\toption ttl_min '120'",
      "\toption ttl_neg_max '1000'", "\toption unbound_control '0'", "\toption validator '1'", "\toption validator_ntp '1'", "\toption verbosity '1'",
      "\tlist iface_trig 'lan'", "\tlist iface_wan 'wan'", "\tlist domain_insecure 'ntp.example.com'", "\tlist domain_insecure 'example.org.'", '',
    ].join('\n'),
  );
  // The zones, which no resource covers, keep what they hold.
  assertSameUci(shipped('unbound'), file('unbound'), (section) => section.type === 'zone');
  const put = await written({ method: 'PUT', path: '/unbound/server', body: { domain: 'home', dhcp_link: 'odhcpd', iface_lan: ['lan', 'guest'] } }, ['unbound']);
  assert.equal(put, { managed: true, domain: 'home', dhcp_link: 'odhcpd', iface_lan: ['lan', 'guest'], domain_insecure: [], iface_wan: [], iface_trig: [], trigger: [], trigger_interface: [] });
  // Options keep the places they had; new ones come last.
  assert.is(sectionText('unbound', "config unbound 'ub_main'"), "config unbound 'ub_main'\n\toption dhcp_link 'odhcpd'\n\toption domain 'home'\n\tlist iface_lan 'lan'\n\tlist iface_lan 'guest'\n");
  assert.equal((await call({ method: 'GET', path: '/unbound/server' })).json, put);
});

test('unbound/server: what the scripts would replace or cannot read is refused, and a refused write changes nothing', async () => {
  installUnbound();
  const envelope = await refused(
    {
      method: 'PATCH',
      path: '/unbound/server',
      // unbound.sh writes no local zone for a domain_type outside its two cases, and sizes `big` as it does `default`; the old names are unknown.
      body: {
        listen_port: 80, rate_limit: 5, edns_size: 4097, ttl_min: 1801, verbosity: 6, num_threads: 3, protocol: 'ipv4', domain_insecure: ['bad domain'], iface_lan: ['br-lan'],
        domain: 'a..b', rebind_protection: 1, domain_type: 'nodefault', resource_limits: 'big', validator: true, resource: 'small',
      },
    },
    422,
    [
      'domain:invalid_format', 'domain_insecure[0]:invalid_format', 'domain_type:not_in_enum', 'edns_size:out_of_range', 'iface_lan[0]:invalid_format',
      'listen_port:out_of_range', 'num_threads:out_of_range', 'protocol:not_in_enum', 'rate_limit:out_of_range', 'rebind_protection:invalid_type',
      'resource:unknown_field', 'resource_limits:not_in_enum', 'ttl_min:out_of_range', 'validator:unknown_field', 'verbosity:out_of_range',
    ],
  );
  assert.match(JSON.stringify(envelope.errors), 'listen_port must be 53 or 1024-10240');
  await written({ method: 'PATCH', path: '/unbound/server', body: { listen_port: 1024, rate_limit: 11 } }, ['unbound']);
  assert.match(file('unbound'), "\toption listen_port '1024'\n");
  // stopping.sh tests validator (dnssec_enabled) as a number: `yes` reads null, and a PUT of that read keeps it.
  writeFileSync(router.path('/etc/config/unbound'), file('unbound').replace("option validator '0'", "option validator 'yes'"));
  const lenient = (await call({ method: 'GET', path: '/unbound/server' })).json as Body;
  assert.is(lenient.dnssec_enabled, null);
  await written({ method: 'PUT', path: '/unbound/server', body: lenient }, ['unbound']);
  assert.match(file('unbound'), "\toption validator 'yes'\n");
});

test('unbound/server without unbound-daemon: a read answers, a write is 503 naming the init script and the package, and /etc stays as it was', async () => {
  const missing = await call({ method: 'GET', path: '/unbound/server' });
  assert.is(missing.status, 404, 'no /etc/config/unbound: not configured, not an error');
  assert.is((missing.json as Body).code, 'not_found');
  const answer = await refused({ method: 'PATCH', path: '/unbound/server', body: { verbosity: 2 } }, 503, 'init_script_missing');
  assert.is(answer.message, 'Init script /etc/init.d/unbound is missing; install the package unbound-daemon (POST /packages/installed). Nothing was changed');
  assert.not.ok(existsSync(router.path('/etc/config/unbound')));
  // Removed with its configuration kept: the configuration still reads, and still takes no write.
  writeFileSync(router.path('/etc/config/unbound'), shipped('unbound'));
  assert.equal((await call({ method: 'GET', path: '/unbound/server' })).json, SHIPPED_SERVER);
  await refused({ method: 'PUT', path: '/unbound/server', body: SHIPPED_SERVER }, 503, 'init_script_missing');
  assert.is(file('unbound'), shipped('unbound'));
});

test('unbound/srv: unbound-uci-ext\'s section main, written with its lists verbatim and reloading unbound-uci-ext only', async () => {
  installUnbound();
  installExt();
  assert.equal((await call({ method: 'GET', path: '/unbound/srv' })).json, { managed: true, enabled: false, interface_bind: [], interface_outgoing: [], srv_line: [] });
  const body = {
    enabled: true,
    interface_bind: ['127.0.0.1@5353', '::1@5353', 'br-lan'],
    interface_outgoing: ['192.0.2.1', '2001:db8::/64'],
    ip_transparent: true,
    srv_line: ['harden-below-nxdomain: yes', '  serve-expired: "yes" # kept as sent'],
  };
  assert.equal(await written({ method: 'PATCH', path: '/unbound/srv', body }, ['unbound-uci-ext']), { managed: true, ...body });
  assert.is(
    file('unbound_srv'),
    committed(
      "config unbound_srv 'main'\n\toption enabled '1'\n\tlist interface_bind '127.0.0.1@5353'\n\tlist interface_bind '::1@5353'\n\tlist interface_bind 'br-lan'\n" +
      "\tlist interface_outgoing '192.0.2.1'\n\tlist interface_outgoing '2001:db8::/64'\n\toption ip_transparent '1'\n" +
        "\tlist srv_line 'harden-below-nxdomain: yes'\n\tlist srv_line '  serve-expired: \"yes\" # kept as sent'\n",
    ),
  );
  assert.is(file('unbound'), shipped('unbound'), 'the main package\'s file is not touched');
  await refused(
    {
      method: 'PATCH',
      path: '/unbound/srv',
      body: { interface_bind: ['eth0 1', '10.0.0.1@70000'], interface_outgoing: ['10.0.0.0/8'], srv_line: ['a\nb', '', 'é'.repeat(129)], ip_transparent: 'yes' },
    },
    422,
    [
      'interface_bind[0]:invalid_format', 'interface_bind[1]:invalid_format', 'interface_outgoing[0]:invalid_format', 'ip_transparent:invalid_type',
      'srv_line[0]:invalid_format', 'srv_line[1]:invalid_format', 'srv_line[2]:out_of_range',
    ],
  );
  // The generator's spellings of ip_transparent; another value is skipped, and reads null.
  writeFileSync(router.path('/etc/config/unbound_srv'), file('unbound_srv').replace("option ip_transparent '1'", "option ip_transparent 'off'"));
  assert.is(((await call({ method: 'GET', path: '/unbound/srv' })).json as Body).ip_transparent, false);
  writeFileSync(router.path('/etc/config/unbound_srv'), file('unbound_srv').replace("option ip_transparent 'off'", "option ip_transparent 'maybe'"));
  assert.is(((await call({ method: 'GET', path: '/unbound/srv' })).json as Body).ip_transparent, null);
});

test('unbound/srv: the singleton is the section named main, created so when absent, and never one of another type', async () => {
  installExt();
  writeFileSync(router.path('/etc/config/unbound_srv'), "config unbound_srv 'extra'\n\tlist srv_line 'prefetch: yes'\n\nconfig unbound_srv 'main'\n\toption enabled '1'\n");
  assert.equal((await call({ method: 'GET', path: '/unbound/srv' })).json, { managed: true, enabled: true, interface_bind: [], interface_outgoing: [], srv_line: [] });
  await written({ method: 'PATCH', path: '/unbound/srv', body: { srv_line: ['serve-expired: yes'] } }, ['unbound-uci-ext']);
  assert.is(file('unbound_srv'), committed("config unbound_srv 'extra'\n\tlist srv_line 'prefetch: yes'\n\nconfig unbound_srv 'main'\n\toption enabled '1'\n\tlist srv_line 'serve-expired: yes'\n"));
  rmSync(router.path('/etc/config/unbound_srv'));
  assert.is((await call({ method: 'GET', path: '/unbound/srv' })).status, 404);
  await written({ method: 'PATCH', path: '/unbound/srv', body: { enabled: true } }, ['unbound-uci-ext']);
  assert.is(file('unbound_srv'), committed("config unbound_srv 'main'\n\toption enabled '1'\n"));
  writeFileSync(router.path('/etc/config/unbound_srv'), "config unbound_srv\n\toption enabled '1'\n\nconfig other 'main'\n");
  assert.is((await call({ method: 'GET', path: '/unbound/srv' })).status, 404, 'an anonymous unbound_srv is not main');
  const clash = await refused({ method: 'PATCH', path: '/unbound/srv', body: { enabled: false } }, 409, 'conflict');
  assert.match(clash.message, 'main is a other');
});

test('unbound/ext: one item per rendered line, as sent; a line unbound-uci-ext would drop is refused', async () => {
  installExt();
  assert.equal((await call({ method: 'GET', path: '/unbound/ext' })).json, { managed: true, enabled: false, ext_line: [] });
  const lines = ['forward-zone:', '  name: "example.org"', '  forward-addr: 1.1.1.1@853#cloudflare-dns.com', "  forward-tls-upstream: yes # it's TLS", '\tforward-first: no'];
  assert.equal(await written({ method: 'PUT', path: '/unbound/ext', body: { enabled: true, ext_line: lines } }, ['unbound-uci-ext']), { managed: true, enabled: true, ext_line: lines });
  assert.is(
    file('unbound_ext'),
    committed(
      "config unbound_ext 'main'\n\toption enabled '1'\n\tlist ext_line 'forward-zone:'\n\tlist ext_line '  name: \"example.org\"'\n" +
      "\tlist ext_line '  forward-addr: 1.1.1.1@853#cloudflare-dns.com'\n\tlist ext_line '  forward-tls-upstream: yes # it'\\''s TLS'\n" +
        "\tlist ext_line '\tforward-first: no'\n",
    ),
  );
  assert.equal(((await call({ method: 'GET', path: '/unbound/ext' })).json as Body).ext_line, lines);
  const tooLong = await refused({ method: 'PATCH', path: '/unbound/ext', body: { ext_line: ['x'.repeat(256), 'x'.repeat(257), 'ü'.repeat(128), 'ü'.repeat(129), 'view:\n  name: "x"'] } }, 422, [
    'ext_line[1]:out_of_range', 'ext_line[3]:out_of_range', 'ext_line[4]:invalid_format',
  ]);
  assert.match(JSON.stringify(tooLong.errors), 'longer than the 256 bytes');
  // A plain option is no list to config_list_foreach: it reads null, and a PUT of that read keeps it.
  writeFileSync(router.path('/etc/config/unbound_ext'), "config unbound_ext 'main'\n\toption enabled '1'\n\toption ext_line 'view:'\n");
  const odd = (await call({ method: 'GET', path: '/unbound/ext' })).json as Body;
  assert.equal(odd, { managed: true, enabled: true, ext_line: null });
  await written({ method: 'PUT', path: '/unbound/ext', body: odd }, ['unbound-uci-ext']);
  assert.is(file('unbound_ext'), committed("config unbound_ext 'main'\n\toption enabled '1'\n\toption ext_line 'view:'\n"));
});

test('unbound/srv and unbound/ext without unbound-uci-ext: 503 naming its init script and package, even with unbound-daemon installed', async () => {
  installUnbound();
  for (const [path, body] of [['/unbound/srv', { enabled: true }], ['/unbound/ext', { ext_line: ['view:'] }]] as const) {
    assert.is((await call({ method: 'GET', path })).status, 404, path);
    const answer = await refused({ method: 'PATCH', path, body }, 503, 'init_script_missing');
    assert.is(answer.message, 'Init script /etc/init.d/unbound-uci-ext is missing; install the package unbound-uci-ext (POST /packages/installed). Nothing was changed');
  }
  assert.not.ok(existsSync(router.path('/etc/config/unbound_srv')));
  assert.not.ok(existsSync(router.path('/etc/config/unbound_ext')));
});

test('round trip: the shipped unbound, unbound_srv and unbound_ext read, and written back by PUT, keep their content', async () => {
  installUnbound();
  installExt();
  for (const [path, pkg] of [['/unbound/server', 'unbound'], ['/unbound/srv', 'unbound_srv'], ['/unbound/ext', 'unbound_ext']]) {
    const read = await call({ method: 'GET', path });
    assert.is(read.status, 200, read.body);
    const put = await call({ method: 'PUT', path, body: read.json });
    assert.is(put.status, 200, put.body);
    assert.equal(put.json, read.json, path);
    assert.is(put.headers.etag, read.headers.etag, `${path}: the same resource, the same ETag`);
    assertSameUci(shipped(pkg), file(pkg));
  }
  const sweep = (await call({ method: 'GET', path: '/diagnostics?validate=1' })).json as Body;
  assert.equal(sweep.invalid_sections, []);
  for (const resource of ['unbound:server', 'unbound:srv', 'unbound:ext']) assert.ok(sweep.swept_resources.includes(resource), resource);
});

test.run();
