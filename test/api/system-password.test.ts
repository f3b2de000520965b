import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

const PASSWORD = 'correct horse battery staple €';

let router: Router;
let auth: Record<string, string>;
const call = (options: RequestOptions) => router.request({ ...options, headers: { ...auth, ...options.headers } });
const setPassword = (body: unknown, headers: Record<string, string> = {}) => call({ method: 'POST', path: '/system/password', body, headers });
const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();
const shadowOf = (user: string) => readFileSync(router.path('/etc/shadow'), 'utf8').split('\n').find((line) => line.startsWith(`${user}:`))!;


test.before.each(async () => {
  router = await newRouter();
  auth = { authorization: `Bearer ${await router.mint('admin', ['*:rw'])}` };
});
test.after.each(async () => {
  // Nothing the router wrote, /etc included, holds the password.
  assert.not.ok(router.texts('/var', '/tmp', '/etc').includes(PASSWORD), 'the password leaked into a file');
  await router.cleanup();
});

test('POST /system/password sets the password through passwd, answers 204 without reload headers', async () => {
  const response = await setPassword({ user: 'root', password: PASSWORD });
  assert.is(response.status, 204, response.body);
  assert.is(response.body, '');
  assert.is(response.headers['x-reload-status'], undefined);
  assert.is(response.headers['x-kernel-status'], undefined);
  assert.is(response.headers.etag, undefined);
  assert.is(shadowOf('root'), `root:$5$emu$${createHash('sha256').update(PASSWORD).digest('hex')}::0:99999:7:::`);
  assert.equal(readFileSync(router.path('/var/log/passwd.log'), 'utf8'), 'passwd root\n', 'the argv holds the user only');
  const audit = readFileSync(router.path('/var/log/messages'), 'utf8');
  assert.match(audit, /AUDIT - POST \/system\/password 204/);
});

test('an unknown user, a malformed body or password is a 422 that changes nothing and runs nothing', async () => {
  const before = router.snapshot();
  const unknown = await setPassword({ user: 'mallory', password: PASSWORD });
  assert.is(unknown.status, 422, unknown.body);
  assert.equal(fieldErrors(unknown), ['user:not_in_enum']);
  assert.equal(fieldErrors(await setPassword({ password: PASSWORD })), ['user:required']);
  assert.equal(fieldErrors(await setPassword({ user: 'root', password: PASSWORD, shell: '/bin/sh' })), ['shell:unknown_field']);
  assert.equal(fieldErrors(await setPassword({ user: 'root', password: `${PASSWORD}\nroot2` })), ['password:invalid_format']);
  assert.equal(fieldErrors(await setPassword({ user: 'root', password: 'é'.repeat(2048) })), ['password:out_of_range']);
  assert.equal(fieldErrors(await setPassword({ user: 'root', password: 42 })), ['password:invalid_type']);
  for (const response of [unknown]) assert.not.ok(response.body.includes(PASSWORD));
  assert.equal(router.snapshot(), before);
  assert.not.ok(existsSync(router.path('/var/log/passwd.log')), 'passwd never ran');
});

test('the tool\'s failure is reported without echoing what it was given', async () => {
  // A passwd that repeats its input in its complaint.
  writeFileSync(router.path('/bin/passwd'), '#!/bin/sh\nread -r first\necho "passwd: cannot set $first" >&2\nexit 1\n');
  const before = router.snapshot();
  const response = await setPassword({ user: 'root', password: PASSWORD });
  assert.is(response.status, 500, response.body);
  assert.match((response.json as Body).message, /^passwd root exited 1: passwd: cannot set \*\*\*; the password is unchanged$/);
  assert.equal(router.snapshot(), before);
});

test('a non-configuration write: 423 while a configuration write runs; its own scope', async () => {
  router.lock(`/var/lock/wrtapi.global.shared.${process.pid}`);
  const locked = await setPassword({ user: 'root', password: PASSWORD });
  assert.is(locked.status, 423, locked.body);
  assert.is(locked.headers['retry-after'], '1');
  const firewallOnly = `Bearer ${await router.mint('fw', ['firewall:rw'])}`;
  const forbidden = await setPassword({ user: 'root', password: PASSWORD }, { authorization: firewallOnly });
  assert.is(forbidden.status, 403, forbidden.body);
  const systemOnly = `Bearer ${await router.mint('sys', ['system:rw'])}`;
  assert.is((await setPassword({ user: 'root', password: PASSWORD }, { authorization: systemOnly })).status, 423, 'system:rw covers system:password');
});

test.run();
