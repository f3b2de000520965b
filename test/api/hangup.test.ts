import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

// Clients (curl among them) hang up as soon as a 204's headers arrive, and uhttpd then SIGKILLs the
// program; the emulator's server does the same. No line the spec requires and no metrics record may
// depend on the program outliving its answer.
let router: Router;
let base: string;
let authorization: string;
test.before(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('impatient', ['*:rw'])}`;
  const config = router.path('/etc/config/wrtapi');
  writeFileSync(config, readFileSync(config, 'utf8').replace("option access '0'", "option access '1'"));
  base = await router.serve();
});
test.after(async () => {
  await router.cleanup();
});

/** Sends a request and hangs up the moment the status line and headers have arrived; resolves to the status. */
function hangUpAfterHeaders(method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((done, fail) => {
    const url = new URL(base + path);
    const sent = request(url, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (response) => {
      sent.destroy();
      done(response.statusCode!);
    });
    sent.on('error', (error) => (error.message.includes('socket hang up') ? undefined : fail(error)));
    sent.end(body);
  });
}

const messages = () => (existsSync(router.path('/var/log/messages')) ? readFileSync(router.path('/var/log/messages'), 'utf8') : '');
/** A counter of GET /metrics, or 0 while it has no line. */
async function counted(labels: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization } })).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`wrtapi_requests_total{${labels}} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Waits until the line is in the log: the program may still be finishing, or have been killed. */
async function logged(pattern: RegExp): Promise<void> {
  for (let waited = 0; waited < 3000; waited += 50) {
    if (pattern.test(messages())) return;
    await new Promise((resume) => setTimeout(resume, 50));
  }
  assert.match(messages(), pattern);
}

test('hanging up after the headers of a create, a 204, a 304 and a 401 loses no event line and no metrics record', async () => {
  const rule = JSON.stringify({ name: 'Impatient', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['22'] } });
  const created = await fetch(`${base}/firewall/rules`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: rule });
  const { id } = (await created.json()) as { id: string };

  assert.is(await hangUpAfterHeaders('POST', '/firewall/rules', { authorization }, rule), 200);
  await logged(/wrtapi: \S+ impatient AUDIT - POST \/firewall\/rules 200 \d+ms/);
  assert.is(await hangUpAfterHeaders('DELETE', `/firewall/rules/${id}`, { authorization }), 204);
  await logged(new RegExp(`wrtapi: \\S+ impatient AUDIT - DELETE /firewall/rules/${id} 204 \\d+ms`));
  const created2 = await fetch(`${base}/firewall/rules`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: rule });
  const second = (await created2.json()) as { id: string };
  const current = (await fetch(`${base}/firewall/rules/${second.id}`, { headers: { authorization } })).headers.get('etag')!;
  assert.is(await hangUpAfterHeaders('GET', `/firewall/rules/${second.id}?if_none_match=${encodeURIComponent(current)}`, { authorization }), 304);
  await logged(new RegExp(`wrtapi: \\S+ impatient ACCESS - GET /firewall/rules/${second.id} 304 \\d+ms`));
  assert.is(await hangUpAfterHeaders('GET', '/auth/whoami', { authorization: 'Bearer wrtapi_00000000000000000000000000000000' }), 401);
  await logged(/wrtapi: \S+ - WARN invalid_token GET \/auth\/whoami 401 \d+ms/);

  // Each request hung up on left its metrics record too.
  assert.is(await counted('method="POST",path="/firewall/rules",status="200",token_id="impatient"'), 3);
  assert.is(await counted('method="DELETE",path="/firewall/rules/:id",status="204",token_id="impatient"'), 1);
  assert.is(await counted('method="GET",path="/firewall/rules/:id",status="304",token_id="impatient"'), 1);
  assert.is(await counted('method="GET",path="/auth/whoami",status="401",token_id="-"'), 1);
});

/**
 * Replaces an executable by a new file renamed over it: writing it in place would make an exec of it
 * meanwhile (a logger an earlier request left running starts another) fail with ETXTBSY.
 */
function replaceExecutable(path: string, text: string) {
  writeFileSync(`${path}.new`, text, { mode: 0o755 });
  renameSync(`${path}.new`, path);
}

test('a slow logger holds up neither the answer nor the lines: a batch\'s lines arrive whole and in order', async () => {
  const logger = router.path('/usr/bin/logger');
  const original = readFileSync(logger, 'utf8');
  // Busybox logger reads its lines before it writes any; this one takes two seconds about it.
  replaceExecutable(logger, original.replace(/^(root=.*)$/m, '$1\nsleep 2'));
  // Lines of another level (ACCESS is info, AUDIT notice) go first, to a logger that is waited for.
  const config = router.path('/etc/config/wrtapi');
  writeFileSync(config, readFileSync(config, 'utf8').replace("option access '1'", "option access '0'"));
  try {
    const rule = (name: string) => ({ method: 'POST', path: '/firewall/rules', body: { name, target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2222'] } } });
    const started = Date.now();
    const answer = await fetch(`${base}/batch`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ operations: [rule('Slow0'), rule('Slow1'), rule('Slow2')] }),
    });
    assert.is(answer.status, 207);
    await answer.text();
    assert.ok(Date.now() - started < 1500, `answered in ${Date.now() - started} ms, after the logger`);
    assert.not.match(messages(), /Slow|POST \/batch/);
    await logged(/wrtapi: (\S+)\.0 impatient AUDIT - POST \/firewall\/rules 200 \d+ms\n.*wrtapi: \1\.1 .*\n.*wrtapi: \1\.2 .*\n.*wrtapi: \1 impatient AUDIT - POST \/batch 207 \d+ms\n/);
    assert.equal(router.leftovers(), []);
  } finally {
    replaceExecutable(logger, original);
    writeFileSync(config, readFileSync(config, 'utf8').replace("option access '0'", "option access '1'"));
  }
});

test.run();
