// system/authorized_keys through the CGI path: the exact bytes and mode of /etc/dropbear/authorized_keys
// after each write, the lines no write touches, ids that follow the key, no ETag (a non-configuration
// endpoint), paging, the global lock, the scope, the document, and no key body in a log.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';
import { fingerprintOf, idOf, sshKey } from '../support/ssh-keys.js';

type Body = Record<string, any>;

const FILE = '/etc/dropbear/authorized_keys';
const ED = sshKey('ssh-ed25519');
const RSA = sshKey('ssh-rsa');
const ECDSA = sshKey('ecdsa-sha2-nistp256');
// What a hand-edited file holds besides keys: comments, blank lines, a line dropbear would not
// read (a tab after the type), a CRLF line, a key given twice.
const EDITED = `# keys of the admins\n\nssh-rsa ${RSA} bob@desk\nssh-ed25519\t${ED} broken\r\n# end\nssh-rsa ${RSA} again`;

let router: Router;
let auth: Record<string, string>;
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const file = () => readFileSync(router.path(FILE), 'utf8');
const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();

/** A write that went through: its status, no ETag, and none of the reload or kernel headers. */
async function written(request: RequestOptions, status = 200): Promise<Response> {
  const response = await call(request);
  assert.is(response.status, status, `${request.method} ${request.path}: ${response.body}`);
  for (const header of ['x-reload-status', 'x-reload-services', 'x-kernel-status', 'x-kernel-applied']) assert.is(response.headers[header], undefined, header);
  assert.is(response.headers.etag, undefined);
  return response;
}

/** A refused request: this status and code (or field errors), and no file under /etc changed. */
async function refused(request: RequestOptions, status: number, expected: string | string[]): Promise<Body> {
  const before = router.snapshot();
  const response = await call(request);
  assert.is(response.status, status, `${request.method} ${request.path}: ${response.body}`);
  if (typeof expected === 'string') assert.is((response.json as Body).code, expected);
  else assert.equal(fieldErrors(response), [...expected].sort());
  assert.equal(router.snapshot(), before, 'every file under /etc unchanged');
  return response.json as Body;
}


test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  // Keys are public, but neither the syslog nor the error ring repeats one.
  const logged = router.texts('/var/log', '/tmp/wrtapi/errors');
  for (const key of [ED, RSA, ECDSA]) assert.not.ok(logged.includes(key.slice(20, 60)), 'a key body was logged');
  await router.cleanup();
});

test('POST adds the key as the last line, mode 0600, without reload headers; GET lists it with its id and fingerprint', async () => {
  const empty = await call({ method: 'GET', path: '/system/authorized_keys' });
  assert.equal([empty.status, empty.json, empty.headers['x-skipped-lines']], [200, [], '0']);
  const created = await written({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-ed25519', key: ED, comment: 'alice@laptop' } });
  const entry = { id: idOf(ED), type: 'ssh-ed25519', key: ED, comment: 'alice@laptop', fingerprint: fingerprintOf(ED) };
  assert.equal(created.json, entry);
  assert.is(file(), `ssh-ed25519 ${ED} alice@laptop\n`);
  assert.is(statSync(router.path(FILE)).mode & 0o777, 0o600);
  const read = await call({ method: 'GET', path: `/system/authorized_keys/${entry.id}` });
  assert.equal(read.json, entry);
  assert.is(read.headers.etag, undefined);
  assert.equal((await call({ method: 'GET', path: '/system/authorized_keys' })).json, [entry]);
  assert.match(readFileSync(router.path('/var/log/messages'), 'utf8'), /AUDIT - POST \/system\/authorized_keys 200/);
  const twice = await refused({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-ed25519', key: ED, options: 'no-pty' } }, 409, 'conflict');
  assert.match(twice.message, `system/authorized_keys/${entry.id} already holds this key`);
});

test('the whole line in key, as uapi\'s Terraform provider sends it: its type, comment and options stand for those members', async () => {
  // ssh-keygen's .pub file, read whole: its line end is ignored.
  const created = await written({ method: 'POST', path: '/system/authorized_keys', body: { key: `ssh-ed25519 ${ED} alice@laptop (2024)\n` } });
  const entry = { id: idOf(ED), type: 'ssh-ed25519', key: ED, comment: 'alice@laptop (2024)', fingerprint: fingerprintOf(ED) };
  assert.equal(created.json, entry);
  assert.is(file(), `ssh-ed25519 ${ED} alice@laptop (2024)\n`);
  // What the provider reads back: id, type and comment, the same on a GET; no comment reads absent (null to the provider).
  assert.equal((await call({ method: 'GET', path: `/system/authorized_keys/${entry.id}` })).json, entry);
  const rsa = await written({ method: 'POST', path: '/system/authorized_keys', body: { key: `no-pty,no-agent-forwarding ssh-rsa ${RSA}`, type: 'ssh-rsa' } });
  assert.equal(rsa.json, { id: idOf(RSA), type: 'ssh-rsa', key: RSA, options: 'no-pty,no-agent-forwarding', fingerprint: fingerprintOf(RSA) });
  assert.is(file(), `ssh-ed25519 ${ED} alice@laptop (2024)\nno-pty,no-agent-forwarding ssh-rsa ${RSA}\n`);
  // A PUT with the line keeps the id; a comment beside a line without one is the line's.
  await written({ method: 'PUT', path: `/system/authorized_keys/${idOf(RSA)}`, body: { key: `ssh-rsa ${RSA}`, comment: 'bob' } });
  assert.is(file(), `ssh-ed25519 ${ED} alice@laptop (2024)\nssh-rsa ${RSA} bob\n`);
  await written({ method: 'DELETE', path: `/system/authorized_keys/${idOf(ED)}` }, 204);
  assert.is(file(), `ssh-rsa ${RSA} bob\n`);
  assert.is((await call({ method: 'GET', path: `/system/authorized_keys/${idOf(ED)}` })).status, 404, 'what the provider takes as gone');
});

test('a malformed line in key is a field error that changes nothing', async () => {
  const post = (body: Body, expected: string[]) => refused({ method: 'POST', path: '/system/authorized_keys', body }, 422, expected);
  await post({ key: ED }, ['type:required']);
  await post({ key: `ssh-dss ${ED} old` }, ['key:invalid_format']);
  await post({ key: `ssh-ed25519  ${ED}` }, ['key:invalid_format']);
  await post({ key: `ssh-ed25519 ${ED.slice(0, -4)} cut` }, ['key:conflict']);
  await post({ key: `ssh-rsa ${ED} mislabelled` }, ['key:conflict']);
  await post({ key: `ssh-ed25519 ${ED} a`, type: 'ssh-rsa', comment: 'b' }, ['comment:conflict', 'type:conflict']);
  await post({ key: `from="10.0.0.1" ssh-ed25519 ${ED}` }, ['options:invalid_format']);
  await post({ key: `ssh-ed25519 ${ED} a\nssh-rsa ${RSA} b` }, ['key:invalid_format']);
  await post({ key: `ecdsa-sha2-nistp256 ${ECDSA}` }, ['type:not_in_enum']);
  assert.not.ok(router.texts('/etc').includes(ED.slice(20, 60)));
});

test('a hand-edited file: other lines stay byte for byte through POST, PUT and DELETE; a key given twice is one entry', async () => {
  writeFileSync(router.path(FILE), EDITED);
  const list = await call({ method: 'GET', path: '/system/authorized_keys' });
  assert.equal((list.json as Body[]).map((entry) => [entry.id, entry.comment]), [[idOf(RSA), 'bob@desk']]);
  assert.is(list.headers['x-skipped-lines'], '2', 'the tab line and the second line of the key');
  await written({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-ed25519', key: ED, options: 'no-port-forwarding,command="uptime"' } });
  assert.is(file(), `${EDITED}\nno-port-forwarding,command="uptime" ssh-ed25519 ${ED}\n`);
  // PUT rewrites the key's first line and drops its later one, which dropbear would take once the first changed.
  const put = await written({ method: 'PUT', path: `/system/authorized_keys/${idOf(RSA)}`, body: { type: 'ssh-rsa', key: RSA, comment: 'bob', options: 'restrict' } });
  assert.equal(put.json, { id: idOf(RSA), type: 'ssh-rsa', key: RSA, comment: 'bob', options: 'restrict', fingerprint: fingerprintOf(RSA) });
  assert.is(file(), `# keys of the admins\n\nrestrict ssh-rsa ${RSA} bob\nssh-ed25519\t${ED} broken\r\n# end\nno-port-forwarding,command="uptime" ssh-ed25519 ${ED}\n`);
  await written({ method: 'DELETE', path: `/system/authorized_keys/${idOf(ED)}` }, 204);
  assert.is(file(), `# keys of the admins\n\nrestrict ssh-rsa ${RSA} bob\nssh-ed25519\t${ED} broken\r\n# end\n`);
  await refused({ method: 'DELETE', path: `/system/authorized_keys/${idOf(ED)}` }, 404, 'not_found');
  await refused({ method: 'PUT', path: `/system/authorized_keys/${idOf(ED)}`, body: { type: 'ssh-ed25519', key: ED } }, 404, 'not_found');
});

// uhttpd passes no If-Match or If-None-Match header to a CGI program (see DESIGN): the query forms.
test('no ETag: a read gives no 304, an if_match other than * is 412, if_none_match=* on a write 412; PUT of another key is refused', async () => {
  const created = await written({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-rsa', key: RSA, comment: 'bob' } });
  const path = `/system/authorized_keys/${idOf(RSA)}`;
  assert.is((await call({ method: 'GET', path, query: { if_none_match: '*' } })).status, 200);
  await refused({ method: 'PUT', path, query: { if_none_match: '*' }, body: { type: 'ssh-rsa', key: RSA } }, 412, 'precondition_failed');
  await refused({ method: 'PUT', path, query: { if_match: '"0123456789abcdef"' }, body: { type: 'ssh-rsa', key: RSA } }, 412, 'precondition_failed');
  await refused({ method: 'POST', path: '/system/authorized_keys', query: { if_match: '*' }, body: { type: 'ssh-ed25519', key: ED } }, 412, 'precondition_failed');
  await written({ method: 'PUT', path, query: { if_match: '*' }, body: { ...(created.json as Body), comment: 'bob@desk' } });
  assert.is(file(), `ssh-rsa ${RSA} bob@desk\n`);
  await refused({ method: 'DELETE', path, query: { if_match: '"0123456789abcdef"' } }, 412, 'precondition_failed');
  const other = await refused({ method: 'PUT', path, body: { type: 'ssh-ed25519', key: ED } }, 422, ['key:conflict']);
  assert.match(other.errors[0].message, `this key's is ${idOf(ED)}`);
  await written({ method: 'DELETE', path, query: { if_match: '*' } }, 204);
  assert.is(file(), '');
});

test('keys dropbear would not accept are a 422 that changes nothing; ECDSA only with an ECDSA host key', async () => {
  await refused({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-dss', key: ED, user: 'root' } }, 422, ['type:not_in_enum', 'user:unknown_field']);
  await refused({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-rsa', key: ED, options: 'from="10.0.0.1"' } }, 422, ['key:conflict', 'options:invalid_format']);
  await refused({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-ed25519', key: `${ED.slice(0, -1)}!`, comment: 'a\nb' } }, 422, [
    'comment:invalid_format', 'key:invalid_format',
  ]);
  const ecdsa = { type: 'ecdsa-sha2-nistp256', key: ECDSA };
  const refusedType = await refused({ method: 'POST', path: '/system/authorized_keys', body: ecdsa }, 422, ['type:not_in_enum']);
  assert.match(refusedType.errors[0].message, "this router's dropbear accepts ssh-ed25519, sk-ssh-ed25519@openssh.com, ssh-rsa");
  for (const family of ['rsa', 'ed25519', 'ecdsa']) writeFileSync(router.path(`/etc/dropbear/dropbear_${family}_host_key`), 'key');
  await written({ method: 'POST', path: '/system/authorized_keys', body: ecdsa });
  await refused({ method: 'PATCH', path: `/system/authorized_keys/${idOf(ECDSA)}`, body: {} }, 405, 'method_not_allowed');
});

test('paging as collections page; the global lock answers 423; system:authorized_keys is its own scope', async () => {
  writeFileSync(router.path(FILE), `ssh-ed25519 ${ED} a\nssh-rsa ${RSA} b\n`);
  const first = await call({ method: 'GET', path: '/system/authorized_keys', query: { limit: '1' } });
  assert.equal((first.json as Body[]).map((entry) => entry.comment), ['a']);
  assert.is(first.headers['x-next-cursor'], `c_${idOf(ED)}`);
  assert.is(first.headers.link, `<?cursor=c_${idOf(ED)}&limit=1>; rel="next"`);
  const second = await call({ method: 'GET', path: '/system/authorized_keys', query: { limit: '1', cursor: `c_${idOf(ED)}` } });
  assert.equal([(second.json as Body[])[0].comment, second.headers['x-next-cursor']], ['b', undefined]);
  router.lock(`/var/lock/wrtapi.global.shared.${process.pid}`);
  const locked = await refused({ method: 'DELETE', path: `/system/authorized_keys/${idOf(ED)}` }, 423, 'locked');
  assert.match(locked.message, '/var/lock/wrtapi.global.lock');
  const reader = { authorization: `Bearer ${await router.mint('reader', ['system:authorized_keys:ro'])}` };
  assert.is((await call({ method: 'GET', path: '/system/authorized_keys', headers: reader })).status, 200);
  const forbidden = await call({ method: 'POST', path: '/system/authorized_keys', headers: reader, body: { type: 'ssh-ed25519', key: ED } });
  assert.equal([forbidden.status, (forbidden.json as Body).code], [403, 'insufficient_scope']);
  const timeservers = { authorization: `Bearer ${await router.mint('ntp', ['system:timeservers:rw'])}` };
  assert.is((await call({ method: 'GET', path: '/system/authorized_keys', headers: timeservers })).status, 403);
});

test('/openapi.json and /schema describe it; answers conform to the document', async () => {
  const document = (await router.request({ method: 'GET', path: '/openapi.json' })).json as Body;
  assert.equal(Object.keys(document.paths['/system/authorized_keys']).filter((key) => key !== 'description'), ['get', 'post']);
  assert.equal(Object.keys(document.paths['/system/authorized_keys/{id}']).filter((key) => key !== 'parameters'), ['get', 'put', 'delete']);
  const index = await router.request({ method: 'GET', path: '/schema' });
  assert.ok((index.json as Body).resources.includes('system/authorized_keys'));
  const schema = await router.request({ method: 'GET', path: '/schema/system/authorized_keys' });
  assert.equal(Object.keys((schema.json as Body).schema_properties), ['id', 'type', 'key', 'comment', 'options', 'fingerprint']);
  const created = await written({ method: 'POST', path: '/system/authorized_keys', body: { type: 'ssh-ed25519', key: ED, options: 'no-pty', comment: 'c' } });
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  for (const name of ['AuthorizedKey', 'AuthorizedKeyRequest']) {
    const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
    assert.ok(validate(created.json), `${name}: ${JSON.stringify(validate.errors)}`);
  }
});

test.run();
