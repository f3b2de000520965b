// snmpd/agents, snmpd/com2secs, snmpd/groups, snmpd/accesses and snmpd/system through the CGI path:
// reads and the 503 of a router without the snmpd package, what each write puts in /etc/config/snmpd
// and reloads, the cross-references the init script joins, and a round trip of the shipped file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUci } from '../../src/uci/parse.js';
import { installDaemon, shipped } from '../support/daemons.js';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';
import { writeChecks } from '../support/writes.js';
import { sectionText as sectionOf } from '../support/files.js';

type Body = Record<string, any>;

let router: Router;
let authorization: string;
const { call, refused, ...checks } = writeChecks(() => ({ router, authorization }));
const written = (request: RequestOptions) => checks.written(request, ['snmpd']);
const snmpd = () => readFileSync(router.path('/etc/config/snmpd'), 'utf8');
/** Cases of one kind: all of them on the native engine, every fourth on the slow one. */
const sample = <T>(cases: T[]): T[] => (router.engine === 'wasm' ? cases.filter((_, i) => i % 4 === 0) : cases);

const sectionText = (header: string) => sectionOf(snmpd(), header);

test.before.each(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after.each(async () => {
  await router.cleanup();
});

const ACCESS = { group: 'public', context: 'none', version: 'v2c', level: 'noauth', prefix: 'exact', read: 'all', write: 'none', notify: 'none' };
const WRITES: RequestOptions[] = [
  { method: 'POST', path: '/snmpd/agents', body: { agentaddress: ['UDP:161'] } },
  { method: 'POST', path: '/snmpd/com2secs', body: { secname: 'ro', source: 'default', community: 'public' } },
  { method: 'POST', path: '/snmpd/groups', body: { group: 'public', version: 'usm', secname: 'john' } },
  { method: 'POST', path: '/snmpd/accesses', body: ACCESS },
  { method: 'PUT', path: '/snmpd/system', body: { sys_location: 'lab' } },
  { method: 'PATCH', path: '/snmpd/system', body: { sys_contact: 'noc@example.net' } },
];

async function missingScript(request: RequestOptions): Promise<void> {
  const envelope = await refused(request, 503, 'init_script_missing');
  assert.is(envelope.message, 'Init script /etc/init.d/snmpd is missing; install the package snmpd (POST /packages/installed). Nothing was changed');
}

test('without the snmpd package or its file: reads answer, and every write is 503 init_script_missing with nothing created', async () => {
  for (const resource of ['agents', 'com2secs', 'groups', 'accesses']) {
    const read = await call({ method: 'GET', path: `/snmpd/${resource}` });
    assert.is(read.status, 200, read.body);
    assert.equal(read.json, [], resource);
  }
  const system = await call({ method: 'GET', path: '/snmpd/system' });
  assert.is(system.status, 404, 'a singleton with no section is not configured');
  assert.is((system.json as Body).code, 'not_found');
  for (const request of WRITES) await missingScript(request);
  assert.not.ok(existsSync(router.path('/etc/config/snmpd')), 'no configuration file was created');
  assert.is(checks.initLog().length, 0);
});

test('with the file left behind by a removed package: reads answer from it, and writes and deletes are 503 leaving it byte-identical', async () => {
  writeFileSync(router.path('/etc/config/snmpd'), shipped('snmpd'));
  assert.equal(((await call({ method: 'GET', path: '/snmpd/groups' })).json as Body[]).map((group) => group.id), [
    'public_v1', 'public_v2c', 'public_usm', 'private_v1', 'private_v2c', 'private_usm',
  ]);
  assert.is((await call({ method: 'GET', path: '/snmpd/system' })).status, 200);
  for (const request of WRITES) await missingScript(request);
  await missingScript({ method: 'DELETE', path: '/snmpd/accesses/private_access' });
  await missingScript({ method: 'PUT', path: '/snmpd/groups/public_v1', body: { group: 'public', version: 'v1', secname: 'rw' } });
  assert.is(snmpd(), shipped('snmpd'));
});

test('snmpd/agents: create, change and delete an endpoint list, an array written as one comma-separated option; what snmpd cannot open, or opens twice, is refused', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  const [stock] = (await call({ method: 'GET', path: '/snmpd/agents' })).json as Body[];
  assert.match(stock.id, /^cfg[0-9a-f]{6}$/);
  assert.equal(stock, { id: stock.id, managed: false, agentaddress: ['UDP:161', 'UDP6:161'] });
  const lan = await written({ method: 'POST', path: '/snmpd/agents', body: { id: 'lan', agentaddress: ['udp:192.168.1.1:1161'] } });
  assert.equal(lan, { id: 'lan', managed: true, agentaddress: ['udp:192.168.1.1:1161'] });
  assert.is(sectionText("config agent 'lan'"), "config agent 'lan'\n\toption agentaddress 'udp:192.168.1.1:1161'\n");
  // snmpd splits the line the init script writes at commas only: one option, never a UCI list.
  const endpoints = ['unix:/var/run/snmpd.sock', 'udp6:[fd00::1]:1161', 'localhost:2161'];
  assert.equal(await written({ method: 'PATCH', path: '/snmpd/agents/lan', body: { agentaddress: endpoints } }), { id: 'lan', managed: true, agentaddress: endpoints });
  assert.is(sectionText("config agent 'lan'"), "config agent 'lan'\n\toption agentaddress 'unix:/var/run/snmpd.sock,udp6:[fd00::1]:1161,localhost:2161'\n");
  // Without endpoints the init script skips the agent: it adds nothing, and reads [].
  const empty = await written({ method: 'POST', path: '/snmpd/agents', body: { id: 'spare' } });
  assert.equal(empty, { id: 'spare', managed: true, agentaddress: [] });
  assert.is(sectionText("config agent 'spare'"), "config agent 'spare'\n");
  await written({ method: 'DELETE', path: '/snmpd/agents/spare' });
  const refusals: [RequestOptions, string[], string][] = [
    [{ method: 'POST', path: '/snmpd/agents', body: { agentaddress: ['udp6:161'] } }, ['agentaddress:conflict'], 'udp6:161 is listed twice'],
    [{ method: 'POST', path: '/snmpd/agents', body: { agentaddress: ['udp:1161', 'TCP:161'] } }, ['agentaddress:conflict'], 'udp, udp6 and unix transports only'],
    [{ method: 'POST', path: '/snmpd/agents', body: { agentaddress: ['udp:1162,udp:1163'] } }, ['agentaddress[0]:invalid_format'], 'expected format'],
    [{ method: 'POST', path: '/snmpd/agents', body: { agentaddress: 'udp:1162' } }, ['agentaddress:invalid_type'], 'must be array'],
    [{ method: 'PUT', path: '/snmpd/agents/lan', body: { agentaddress: ['[::1]:161', '[::1]:161'] } }, ['agentaddress:conflict'], '[::1]:161 is listed twice'],
  ];
  for (const [request, errors, message] of sample(refusals)) assert.match((await refused(request, 422, errors)).errors[0].message, message);
  await refused({ method: 'PUT', path: `/snmpd/agents/${stock.id}`, body: stock }, 409, 'unmanaged_resource');
  await written({ method: 'DELETE', path: '/snmpd/agents/lan' });
  assert.is(sectionText("config agent 'lan'"), undefined);
  assert.equal(((await call({ method: 'GET', path: '/snmpd/agents' })).json as Body[]).map((agent) => agent.id), [stock.id]);
});

test('snmpd/com2secs: family is the section type; left out, a literal source\'s, else ipv4 on a create and kept by a PUT; sources snmpd would skip are refused; a com2sec a group names is not deleted', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  const lab = await written({ method: 'POST', path: '/snmpd/com2secs', body: { id: 'lab', family: 'ipv6', secname: 'lab', source: 'fd00:1::/64', community: 'lab-ro' } });
  assert.equal(lab, { id: 'lab', managed: true, family: 'ipv6', secname: 'lab', source: 'fd00:1::/64', community: 'lab-ro' });
  assert.is(sectionText("config com2sec6 'lab'"), "config com2sec6 'lab'\n\toption secname 'lab'\n\toption source 'fd00:1::/64'\n\toption community 'lab-ro'\n");
  // uapi's provider has no family: a literal source tells it, else its PUT leaves the section the type it has.
  const derived = await written({ method: 'POST', path: '/snmpd/com2secs', body: { id: 'lab6', secname: 'lab', source: 'fd00:3::/64', community: 'lab-ro' } });
  assert.is(derived.family, 'ipv6');
  assert.match(sectionText("config com2sec6 'lab6'") ?? '', /option source 'fd00:3::\/64'/);
  await written({ method: 'DELETE', path: '/snmpd/com2secs/lab6' });
  await written({ method: 'PUT', path: '/snmpd/com2secs/lab', body: { secname: 'lab', source: 'nms.example', community: 'lab-ro' } });
  assert.match(sectionText("config com2sec6 'lab'") ?? '', /option source 'nms.example'/, 'a host name keeps the type');
  const kept = await written({ method: 'PUT', path: '/snmpd/com2secs/lab', body: { secname: 'lab', source: 'fd00:2::/64', community: 'lab-ro' } });
  assert.equal(kept, { ...lab, source: 'fd00:2::/64' });
  assert.is(sectionText("config com2sec6 'lab'"), "config com2sec6 'lab'\n\toption secname 'lab'\n\toption source 'fd00:2::/64'\n\toption community 'lab-ro'\n");
  await written({ method: 'PUT', path: '/snmpd/com2secs/lab', body: { family: 'ipv4', secname: 'lab', source: '!10.1.0.0/255.255.0.0', community: 'lab-ro' } });
  assert.is(sectionText("config com2sec 'lab'"), "config com2sec 'lab'\n\toption secname 'lab'\n\toption source '!10.1.0.0/255.255.0.0'\n\toption community 'lab-ro'\n");
  assert.is(sectionText("config com2sec6 'lab'"), undefined, 'the same section, retyped in place');
  const body = { family: 'ipv4', secname: 'x', source: 'default', community: 'c' };
  const refusals: [Body, string[], string][] = [
    [{ family: 'ipv6', source: '10.0.0.0/8' }, ['source:conflict'], 'com2sec6 skips an IPv4 source'],
    [{ source: 'fd00::/64' }, ['source:conflict'], 'an IPv6 source needs family ipv6'],
    [{ source: '10.0.0.1/24' }, ['source:conflict'], '10.0.0.1/24 has host bits set'],
    [{ family: 'ipv6', source: 'fd00::1/64' }, ['source:conflict'], 'fd00::1/64 has host bits set'],
    [{ source: '10.0.0.0/33' }, ['source:invalid_format'], 'expected format'],
    [{ source: 'nms.example/48' }, ['source:conflict'], 'an IPv4 mask is a dotted mask or 0 to 32'],
    [{ source: 'NETWORK', community: 'COMMUNITY' }, ['source:conflict', 'community:conflict'], 'NETWORK, the example value'],
    [{ secname: 'read only', community: 'a"b' }, ['secname:invalid_format', 'community:invalid_format'], 'expected format'],
    [{ secname: 'x'.repeat(33) }, ['secname:invalid_format'], 'expected format'],
  ];
  for (const [change, errors, message] of sample(refusals)) {
    const envelope = await refused({ method: 'POST', path: '/snmpd/com2secs', body: { ...body, ...change } }, 422, errors);
    assert.match(envelope.errors[0].message, message);
  }
  await written({ method: 'POST', path: '/snmpd/com2secs', body: { ...body, family: 'ipv6', source: 'nms.example/48' } });
  const ipv4 = await written({ method: 'POST', path: '/snmpd/com2secs', body: { id: 'noc', secname: 'x', source: '10.9.0.0/16', community: 'c' } });
  assert.equal(ipv4, { id: 'noc', managed: true, family: 'ipv4', secname: 'x', source: '10.9.0.0/16', community: 'c' });
  assert.is(sectionText("config com2sec 'noc'"), "config com2sec 'noc'\n\toption secname 'x'\n\toption source '10.9.0.0/16'\n\toption community 'c'\n");

  await written({ method: 'POST', path: '/snmpd/groups', body: { id: 'lab_v2c', group: 'lab', version: 'v2c', secname: 'lab' } });
  const named = await refused({ method: 'DELETE', path: '/snmpd/com2secs/lab' }, 409, 'conflict');
  assert.match(named.message, 'snmpd/groups/lab_v2c (secname: lab)');
  const stock = await refused({ method: 'DELETE', path: '/snmpd/com2secs/public' }, 409, 'conflict');
  assert.match(stock.message, 'snmpd/groups/public_v1 (secname: ro)');
  await written({ method: 'DELETE', path: '/snmpd/groups/lab_v2c' });
  await written({ method: 'DELETE', path: '/snmpd/com2secs/lab' });
  assert.is(sectionText("config com2sec 'lab'"), undefined);
});

test('snmpd/groups: a v1 or v2c group names a com2sec secname, a usm group an SNMPv3 user; left out, version and secname are the stock v2c and ro', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  const group = await written({ method: 'POST', path: '/snmpd/groups', body: { id: 'ops', group: 'ops', version: 'v1', secname: 'rw' } });
  assert.equal(group, { id: 'ops', managed: true, group: 'ops', version: 'v1', secname: 'rw' });
  assert.is(sectionText("config group 'ops'"), "config group 'ops'\n\toption group 'ops'\n\toption version 'v1'\n\toption secname 'rw'\n");
  const dangling = await refused({ method: 'PATCH', path: '/snmpd/groups/ops', body: { secname: 'nobody' } }, 422, ['secname:conflict']);
  assert.match(dangling.errors[0].message, 'no snmpd/com2secs maps a community to nobody');
  await written({ method: 'PATCH', path: '/snmpd/groups/ops', body: { version: 'usm', secname: 'john' } });
  assert.is(sectionText("config group 'ops'"), "config group 'ops'\n\toption group 'ops'\n\toption version 'usm'\n\toption secname 'john'\n");
  await refused({ method: 'POST', path: '/snmpd/groups', body: { group: 'g', version: 'any', secname: 'ro' } }, 422, ['version:not_in_enum']);
  await refused({ method: 'POST', path: '/snmpd/groups', body: { group: '-Cn', version: 'v1' } }, 422, ['group:invalid_format']);
  await written({ method: 'DELETE', path: '/snmpd/groups/ops' });
  assert.is(sectionText("config group 'ops'"), undefined);
  // The init script skips a group short of a word: what a create leaves out is stock.
  const defaulted = await written({ method: 'POST', path: '/snmpd/groups', body: { id: 'ro_v2c', group: 'readers' } });
  assert.equal(defaulted, { id: 'ro_v2c', managed: true, group: 'readers', version: 'v2c', secname: 'ro' });
  assert.is(sectionText("config group 'ro_v2c'"), "config group 'ro_v2c'\n\toption group 'readers'\n\toption version 'v2c'\n\toption secname 'ro'\n");
  await written({ method: 'PUT', path: '/snmpd/groups/ro_v2c', body: { group: 'readers', version: 'v1' } });
  assert.is(sectionText("config group 'ro_v2c'"), "config group 'ro_v2c'\n\toption group 'readers'\n\toption version 'v1'\n\toption secname 'ro'\n");
});

test('snmpd/accesses: the group is a reference; left out, the other words are the stock public_access ones; the last group section of a name an access uses is not deleted', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  const access = await written({ method: 'POST', path: '/snmpd/accesses', body: { id: 'lab', ...ACCESS } });
  assert.equal(access, { id: 'lab', managed: true, ...ACCESS });
  assert.is(
    sectionText("config access 'lab'"),
    "config access 'lab'\n\toption group 'public'\n\toption context 'none'\n\toption version 'v2c'\n\toption level 'noauth'\n" +
      "\toption prefix 'exact'\n\toption read 'all'\n\toption write 'none'\n\toption notify 'none'\n",
  );
  await written({ method: 'PATCH', path: '/snmpd/accesses/lab', body: { level: 'authpriv', version: 'usm', write: 'all' } });
  assert.equal(((await call({ method: 'GET', path: '/snmpd/accesses/lab' })).json as Body).level, 'authpriv');
  const dangling = await refused({ method: 'POST', path: '/snmpd/accesses', body: { ...ACCESS, group: 'nosuch' } }, 422, ['group:conflict']);
  assert.match(dangling.errors[0].message, 'no snmpd group named nosuch');
  await refused({ method: 'POST', path: '/snmpd/accesses', body: { ...ACCESS, version: 'v3', level: 'AuthPriv', prefix: 'all' } }, 422, [
    'version:not_in_enum', 'level:not_in_enum', 'prefix:not_in_enum',
  ]);
  // The init script skips an access short of a word: a create or PUT writes the stock ones it leaves out.
  const { notify: _notify, ...withoutNotify } = ACCESS;
  assert.equal(await written({ method: 'POST', path: '/snmpd/accesses', body: { id: 'nonotify', ...withoutNotify } }), { id: 'nonotify', managed: true, ...ACCESS });
  const stock = await written({ method: 'POST', path: '/snmpd/accesses', body: { id: 'bare', group: 'private' } });
  assert.equal(stock, { id: 'bare', managed: true, group: 'private', context: 'none', version: 'any', level: 'noauth', prefix: 'exact', read: 'all', write: 'none', notify: 'none' });
  assert.is(
    sectionText("config access 'bare'"),
    "config access 'bare'\n\toption group 'private'\n\toption context 'none'\n\toption version 'any'\n\toption level 'noauth'\n" +
      "\toption prefix 'exact'\n\toption read 'all'\n\toption write 'none'\n\toption notify 'none'\n",
  );
  await written({ method: 'PUT', path: '/snmpd/accesses/bare', body: { group: 'private', write: 'all', notify: 'all' } });
  assert.match(sectionText("config access 'bare'")!, "\toption read 'all'\n\toption write 'all'\n\toption notify 'all'\n");
  await written({ method: 'DELETE', path: '/snmpd/accesses/bare' });
  await written({ method: 'DELETE', path: '/snmpd/accesses/nonotify' });
  // public_access and lab name the group public, which three group sections give.
  await written({ method: 'DELETE', path: '/snmpd/groups/public_v1' });
  await written({ method: 'DELETE', path: '/snmpd/groups/public_v2c' });
  const last = await refused({ method: 'DELETE', path: '/snmpd/groups/public_usm' }, 409, 'conflict');
  assert.match(last.message, 'snmpd/accesses/public_access (group: public); snmpd/accesses/lab (group: public)');
  await written({ method: 'DELETE', path: '/snmpd/accesses/lab' });
  await written({ method: 'DELETE', path: '/snmpd/accesses/public_access' });
  await written({ method: 'DELETE', path: '/snmpd/groups/public_usm' });
  assert.equal(((await call({ method: 'GET', path: '/snmpd/accesses' })).json as Body[]).map((item) => item.id), ['private_access']);
});

test('snmpd/system: the first system section, with snake_case fields for the options the init script reads', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  const stock = await call({ method: 'GET', path: '/snmpd/system' });
  assert.equal(stock.json, { managed: false, sys_location: 'office', sys_contact: 'bofh@example.com', sys_name: 'HeartOfGold' });
  const put = { sys_location: 'Rack 4, Room 2', sys_contact: 'noc@example.net', sys_descr: 'edge router', sys_object_id: '.1.3.6.1.4.1.8072.3.2.10' };
  assert.equal(await written({ method: 'PUT', path: '/snmpd/system', body: put }), { managed: false, ...put });
  assert.is(
    sectionText('config system'),
    "config system\n\toption sysLocation 'Rack 4, Room 2'\n\toption sysContact 'noc@example.net'\n\toption sysDescr 'edge router'\n\toption sysObjectID '.1.3.6.1.4.1.8072.3.2.10'\n",
  );
  await written({ method: 'PATCH', path: '/snmpd/system', body: { sys_name: 'edge1', sys_descr: null } });
  assert.equal((await call({ method: 'GET', path: '/snmpd/system' })).json, { managed: false, sys_location: 'Rack 4, Room 2', sys_contact: 'noc@example.net', sys_name: 'edge1', sys_object_id: '.1.3.6.1.4.1.8072.3.2.10' });
  await refused({ method: 'PATCH', path: '/snmpd/system', body: { sys_location: 'a\ncom2sec x default y', sys_contact: ' x' } }, 422, ['sys_location:invalid_format', 'sys_contact:invalid_format']);
  await refused({ method: 'PATCH', path: '/snmpd/system', body: { sys_descr: 'é'.repeat(200), sys_object_id: 'iso.3' } }, 422, ['sys_descr:out_of_range', 'sys_object_id:invalid_format']);
});

test('snmpd/system: sys_services shows the sysService option snmpd ignores; a write may send back what it reads but not set it; PATCH keeps it, PUT drops it; one system section only', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  writeFileSync(router.path('/etc/config/snmpd'), shipped('snmpd').replace("\toption sysName\t\t'HeartOfGold'\n", "\toption sysName\t\t'HeartOfGold'\n\toption sysService '72'\n"));
  const read = (await call({ method: 'GET', path: '/snmpd/system' })).json as Body;
  assert.is(read.sys_services, 72);
  const set = await refused({ method: 'PATCH', path: '/snmpd/system', body: { sys_services: 8, sys_name: 'edge1' } }, 422, ['sys_services:read_only']);
  assert.match(set.errors[0].message, 'it reads 72');
  await written({ method: 'PATCH', path: '/snmpd/system', body: { sys_services: 72, sys_name: 'edge1' } });
  assert.is(parseUci(snmpd()).sections.find((section) => section.type === 'system')!.options.get('sysService'), '72', 'a PATCH keeps it');
  const put = await written({ method: 'PUT', path: '/snmpd/system', body: { ...read, sys_name: 'edge1' } });
  assert.equal(put, { managed: false, sys_location: 'office', sys_contact: 'bofh@example.com', sys_name: 'edge1' });
  assert.not.ok(parseUci(snmpd()).sections.find((section) => section.type === 'system')!.options.has('sysService'));
  writeFileSync(router.path('/etc/config/snmpd'), `${snmpd()}\nconfig system\n\toption sysLocation 'elsewhere'\n`);
  const second = await refused({ method: 'PATCH', path: '/snmpd/system', body: { sys_location: 'lab' } }, 422, ['sys_location:conflict']);
  assert.match(second.errors[0].message, 'snmpd has 2 system sections');
});

test('the shipped /etc/config/snmpd: nothing invalid, and every resource read and PUT back keeps every section and option', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  const document = (await call({ method: 'GET', path: '/openapi.json' })).json as Body;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  const sweep = (await call({ method: 'GET', path: '/diagnostics', query: { validate: '1' } })).json as Body;
  assert.equal(sweep.invalid_sections.filter((item: Body) => item.resource.startsWith('snmpd')), []);
  const adopted = new Map<string, string>();
  for (const [resource, schema] of [['agents', 'SnmpdAgents'], ['com2secs', 'SnmpdCom2secs'], ['groups', 'SnmpdGroups'], ['accesses', 'SnmpdAccesses']]) {
    const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${schema}` });
    for (const item of (await call({ method: 'GET', path: `/snmpd/${resource}` })).json as Body[]) {
      assert.ok(validate(item), `${resource}: ${JSON.stringify(item)} ${JSON.stringify(validate.errors)}`);
      let id = item.id;
      if (!item.managed) {
        id = ((await call({ method: 'POST', path: `/snmpd/${resource}/${id}/adopt` })).json as Body).id;
        adopted.set(item.id, id);
      }
      assert.equal(await written({ method: 'PUT', path: `/snmpd/${resource}/${id}`, body: item }), { ...item, id, managed: true });
    }
  }
  const system = await call({ method: 'GET', path: '/snmpd/system' });
  const put = await call({ method: 'PUT', path: '/snmpd/system', body: system.json });
  assert.equal(put.json, system.json);
  assert.is(put.headers.etag, system.headers.etag);
  assert.is(adopted.size, 1, 'the anonymous agent');
  const [before, after] = [parseUci(shipped('snmpd')).sections, parseUci(snmpd()).sections];
  assert.equal(
    after.map((section) => [section.type, section.name, Object.fromEntries(section.options)]),
    before.map((section) => [section.type, adopted.get(section.name) ?? section.name, Object.fromEntries(section.options)]),
  );
});

test('snmpd scopes follow the path: snmpd:groups:rw writes groups only', async () => {
  installDaemon(router, 'snmpd', ['snmpd']);
  authorization = `Bearer ${await router.mint('groups_only', ['snmpd:groups:rw'])}`;
  await written({ method: 'POST', path: '/snmpd/groups', body: { group: 'ops', version: 'usm', secname: 'john' } });
  for (const path of ['/snmpd/agents', '/snmpd/system']) assert.is((await call({ method: 'GET', path })).status, 403, path);
  await refused({ method: 'POST', path: '/snmpd/accesses', body: ACCESS }, 403, 'insufficient_scope');
});

test.run();
