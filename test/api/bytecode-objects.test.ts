import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installBytecodeModule } from '../../shims/emu/engines.js';
import { bundleDir } from '../../shims/emu/project.js';
import { newRouter, type Router } from '../support/router.js';

// wrtapi-bytecode's objects (objects.c, Ports.derived): what a request made from a text is read back
// only when the entry was made from exactly that text (or its SHA-256, when the file may hold secrets,
// which never leave it), by this build, on this engine, and the entry is this user's alone. Each refusal is shown on a forged entry valid in every other respect whose
// value is the firewall package with its first rule renamed: reading it would answer `Poisoned`.
const engine = process.env.WRTAPI_ENGINE ?? 'wasm';

let router: Router;
let authorization: string;
let genuineText: string;
let forgedEntry: Buffer;

const cacheDir = () => router.path('/tmp/wrtapi/bytecode');
const firewallEntry = () => join(cacheDir(), 'uci.firewall.object');
// The rules' views, made from the package (engine/read.ts collectionViews): dropped wherever a test
// shows what becomes of the package's entry, or a read would answer from them.
const viewsEntry = () => join(cacheDir(), 'views.firewall.rules.object');
const dropViews = () => rmSync(viewsEntry(), { force: true });

/** An entry's parts: its three header lines, the text it was made from, and the rest (code line and value). */
function split(entry: Buffer): { head: string[]; text: string; value: Buffer } {
  let at = 0;
  for (let line = 0; line < 3; line++) at = entry.indexOf(10, at) + 1;
  const head = entry.subarray(0, at).toString('latin1').split('\n').slice(0, 3);
  const length = Number(/^text (\d+)$/.exec(head[2])![1]);
  return { head, text: entry.subarray(at, at + length).toString('utf8'), value: entry.subarray(at + length) };
}

const join3 = (head: string[], text: string, value: Buffer) => Buffer.concat([Buffer.from(head.join('\n') + '\n', 'latin1'), Buffer.from(text, 'utf8'), value]);

async function firstRuleName(): Promise<string> {
  const answer = await router.request({ method: 'GET', path: '/firewall/rules?limit=1', headers: { authorization } });
  assert.is(answer.status, 200, answer.body);
  return (answer.json as { name: string }[])[0].name;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
/** What an entry of this build made from a file is made from: the build's identity and the file, or its digest when it may hold secrets. */
const madeFrom = (build: string, path: string, secrets = false) => {
  const text = readFileSync(router.path(path), 'utf8');
  return `${build}\n${secrets ? digest(text) : text}`;
};

let genuineFile: string;

function forge(entry: Buffer = forgedEntry): void {
  writeFileSync(router.path('/etc/config/firewall'), genuineFile);
  rmSync(firewallEntry(), { force: true });
  dropViews();
  writeFileSync(firewallEntry(), entry, { mode: 0o600 });
}

if (engine === 'native' && process.env.WRTAPI_BYTECODE !== '1') {
  let genuineName: string;

  test.before(async () => {
    router = await newRouter();
    await installBytecodeModule(router.root);
    authorization = `Bearer ${await router.mint('objects', ['*:rw'])}`;
    genuineName = await firstRuleName();
    const genuine = split(readFileSync(firewallEntry()));
    genuineText = genuine.text;
    const file = readFileSync(router.path('/etc/config/firewall'), 'utf8');
    genuineFile = file;
    writeFileSync(router.path('/etc/config/firewall'), file.replace(`option name '${genuineName}'`, "option name 'Poisoned'"));
    assert.is(await firstRuleName(), 'Poisoned', 'a changed file is parsed again');
    const poisoned = split(readFileSync(firewallEntry()));
    forgedEntry = join3(genuine.head, genuine.text, poisoned.value);
    writeFileSync(router.path('/etc/config/firewall'), file);
  });
  test.after(() => router.cleanup());

  test('a read keeps the package it parsed, 0600, made from the build and the file', async () => {
    rmSync(firewallEntry(), { force: true });
    dropViews();
    assert.is(await firstRuleName(), genuineName);
    assert.is(statSync(firewallEntry()).mode & 0o777, 0o600);
    const { head, text } = split(readFileSync(firewallEntry()));
    assert.is(head[0], 'wrtapi-object 1');
    assert.match(head[1], /^engine 2021-03-27 \d+:\d+:\d+:\d+$/);
    const build = text.slice(0, 16);
    assert.match(build, /^[0-9a-f]{16}$/);
    assert.ok(readFileSync(join(bundleDir, 'cgi.js'), 'utf8').includes(build), 'the build identity rollup wrote into the bundle');
    assert.is(text, madeFrom(build, '/etc/config/firewall'));
    const written = statSync(firewallEntry()).mtimeMs;
    dropViews();
    assert.is(await firstRuleName(), genuineName);
    assert.is(statSync(firewallEntry()).mtimeMs, written, 'a valid entry is read, not written again');
  });

  test('a collection read keeps its views, and the next read of the same file answers from them', async () => {
    rmSync(firewallEntry(), { force: true });
    dropViews();
    assert.is(await firstRuleName(), genuineName);
    const { head, text } = split(readFileSync(viewsEntry()));
    assert.is(head[0], 'wrtapi-object 1');
    assert.is(text, split(readFileSync(firewallEntry())).text, 'made from the same build and file as the package');
    rmSync(firewallEntry());
    const written = statSync(viewsEntry()).mtimeMs;
    assert.is(await firstRuleName(), genuineName);
    assert.is(statSync(viewsEntry()).mtimeMs, written, 'read, not written again');
    assert.not.ok(existsSync(firewallEntry()), 'nor was the package parsed');
  });

  test('a forged entry valid in every respect is read: the control for every refusal below', async () => {
    forge();
    assert.is(await firstRuleName(), 'Poisoned');
  });

  test('an entry made from another text, or by another build, is not read', async () => {
    const { head, text, value } = split(forgedEntry);
    const stale = text.replace("'ACCEPT'", "'REJECT'");
    assert.ok(stale !== text);
    const otherBuild = `0123456789abcdef${text.slice(16)}`;
    for (const forged of [stale, otherBuild]) {
      forge(join3([head[0], head[1], `text ${Buffer.byteLength(forged)}`], forged, value));
      assert.is(await firstRuleName(), genuineName);
    }
  });

  test('an entry another engine wrote is not read', async () => {
    const { head, text, value } = split(forgedEntry);
    for (const engineLine of [head[1].replace('2021-03-27', '2025-09-13'), head[1].replace(/:\d+$/, ':1')]) {
      forge(join3([head[0], engineLine, head[2]], text, value));
      assert.is(await firstRuleName(), genuineName, engineLine);
    }
  });

  test('a truncated or damaged entry is parsed again and rewritten', async () => {
    for (const damaged of [forgedEntry.subarray(0, forgedEntry.length - 5), Buffer.concat([forgedEntry.subarray(0, -1), Buffer.from([forgedEntry.at(-1)! ^ 1])])]) {
      forge(damaged);
      assert.is(await firstRuleName(), genuineName);
      assert.is(split(readFileSync(firewallEntry())).text, genuineText, 'rewritten from the file');
      assert.is(await firstRuleName(), genuineName);
    }
  });

  test('an entry owned by another user, writable by others or a symbolic link is not read', async () => {
    forge();
    chownSync(firewallEntry(), 65534, 65534);
    assert.is(await firstRuleName(), genuineName);
    forge();
    chmodSync(firewallEntry(), 0o622);
    assert.is(await firstRuleName(), genuineName);
    forge();
    renameSync(firewallEntry(), router.path('/tmp/entry'));
    symlinkSync(router.path('/tmp/entry'), firewallEntry());
    assert.is(await firstRuleName(), genuineName);
  });

  test('a folder others may write to is not used for objects either', async () => {
    forge();
    chmodSync(cacheDir(), 0o777);
    assert.is(await firstRuleName(), genuineName);
    chmodSync(cacheDir(), 0o700);
  });

  test('a write keeps what reading its file gives, so the next request does not parse it', async () => {
    rmSync(firewallEntry(), { force: true });
    const rule = { id: 'kept', name: 'Kept', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2201'] } };
    const created = await router.request({ method: 'POST', path: '/firewall/rules', headers: { authorization }, body: rule });
    assert.is(created.status, 200, created.body);
    const kept = split(readFileSync(firewallEntry()));
    assert.is(kept.text, madeFrom(kept.text.slice(0, 16), '/etc/config/firewall'), 'made from the file written');
    const fromKept = await router.request({ method: 'GET', path: '/firewall/rules', headers: { authorization } });
    assert.equal(split(readFileSync(firewallEntry())).value, kept.value, 'read, not made again');
    rmSync(firewallEntry());
    dropViews();
    const parsed = await router.request({ method: 'GET', path: '/firewall/rules', headers: { authorization } });
    assert.is(fromKept.body, parsed.body, 'the kept package reads as the parsed one');
    assert.equal(split(readFileSync(firewallEntry())).value, kept.value, 'and is the same value');
    const removed = await router.request({ method: 'DELETE', path: '/firewall/rules/kept', headers: { authorization } });
    assert.is(removed.status, 204, removed.body);
  });

  test('a package holding secrets is never kept, but its collection views are, which show none', async () => {
    const interfaces = await router.request({ method: 'GET', path: '/network/interfaces', headers: { authorization } });
    assert.is(interfaces.status, 200, interfaces.body);
    assert.not.ok(existsSync(join(cacheDir(), 'uci.network.object')));
    assert.is(split(readFileSync(join(cacheDir(), 'views.network.interfaces.object'))).text.slice(17), digest(readFileSync(router.path('/etc/config/network'), 'utf8')));
  });

  test('the token store is never kept: healthz keeps only that the text of its digest parses', async () => {
    assert.is(await firstRuleName(), genuineName);
    const healthz = await router.request({ method: 'GET', path: '/healthz' });
    assert.is(healthz.status, 200, healthz.body);
    assert.not.ok(existsSync(join(cacheDir(), 'uci.wrtapi.object')));
    const { text } = split(readFileSync(join(cacheDir(), 'healthz.wrtapi.object')));
    assert.is(text, madeFrom(text.slice(0, 16), '/etc/config/wrtapi', true));
  });

  test("a view's page is kept from the query and the file's text, without the clock: its countdown is written at each read", async () => {
    const pageEntry = join(cacheDir(), 'page.dhcp.leases.object');
    const leases = router.path('/tmp/dhcp.leases');
    const genuineLeases = readFileSync(leases, 'utf8');
    const page = async (query: string) => {
      const answer = await router.request({ method: 'GET', path: `/dhcp/leases?${query}`, headers: { authorization } });
      assert.is(answer.status, 200, answer.body);
      const items = answer.json as { hostname: string | null; expires_at: number | null; expires_in: number | null }[];
      const now = Math.floor(Date.now() / 1000);
      for (const item of items) {
        if (item.expires_at === null) assert.is(item.expires_in, null);
        else assert.ok(Math.abs(item.expires_in! - Math.max(0, item.expires_at - now)) <= 1, `expires_in ${item.expires_in} as of the read`);
      }
      return { items, link: answer.headers.link, skipped: answer.headers['x-skipped-lines'] };
    };
    rmSync(pageEntry, { force: true });
    const first = await page('limit=1');
    assert.is(first.items.length, 1);
    assert.is(first.link, '<?cursor=c_192_168_1_100&limit=1>; rel="next"');
    const { head, text, value } = split(readFileSync(pageEntry));
    assert.is(statSync(pageEntry).mode & 0o777, 0o600);
    assert.is(text, `${text.slice(0, 16)}\nlimit=1\n${genuineLeases}`, 'made from the build, the query and the file');
    assert.ok(value.includes('expires_at') && !value.includes('expires_in'), 'the clock is not kept');
    const written = statSync(pageEntry).mtimeMs;
    assert.equal(await page('limit=1&request_id=abc'), first, 'the query forms of headers are not part of the page');
    assert.is(statSync(pageEntry).mtimeMs, written, 'read, not written again');

    // A page made from a poisoned file, put back under the genuine file's text, is what the read answers.
    writeFileSync(leases, genuineLeases.replace(' laptop ', ' Poisoned '));
    assert.is((await page('limit=1')).items[0].hostname, 'Poisoned', 'a changed file is read again');
    writeFileSync(leases, genuineLeases);
    writeFileSync(pageEntry, join3(head, text, split(readFileSync(pageEntry)).value), { mode: 0o600 });
    assert.is((await page('limit=1')).items[0].hostname, 'Poisoned', 'the kept page is read');
    assert.is((await page('limit=2')).items[0].hostname, 'laptop', 'another query makes its own page');
    const clockless = (items: object[]) => items.map((item) => ({ ...item, expires_in: 0 }));
    assert.equal(clockless((await page('limit=1')).items), clockless(first.items), 'once replaced, the page is made anew from the genuine file');
  });

  test("a write keeps the schema its body is checked against, made once for the build", async () => {
    const schemaEntry = join(cacheDir(), 'schema.firewall.rules.rule.full.object');
    rmSync(schemaEntry, { force: true });
    const bad = await router.request({ method: 'POST', path: '/firewall/rules', headers: { authorization }, body: { name: 'x', target: 'NOPE' } });
    assert.is(bad.status, 422, bad.body);
    const { text } = split(readFileSync(schemaEntry));
    assert.is(text, `${text.slice(0, 16)}\n`, 'made from nothing but the build');
    const again = await router.request({ method: 'POST', path: '/firewall/rules', headers: { authorization }, body: { name: 'x', target: 'NOPE' } });
    const masked = (body: string) => body.replace(/[0-9A-HJKMNP-TV-Z]{26}/g, '<id>');
    assert.is(masked(again.body), masked(bad.body), 'the kept schema refuses as the made one');
  });

  test('the kept schema holds the sources of its patterns: a write never loads the module of them all', async () => {
    // A module's entry is named by its path, its slashes made dots.
    const patternsLoaded = () => readdirSync(cacheDir()).some((name) => name.endsWith('.docs.patterns.js'));
    const forgetPatterns = () => readdirSync(cacheDir()).filter((name) => name.endsWith('.docs.patterns.js')).forEach((name) => rmSync(join(cacheDir(), name)));
    const post = (body: object) => router.request({ method: 'POST', path: '/firewall/rules', headers: { authorization }, body });
    const badPort = { name: 'x', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['x'] } };
    rmSync(join(cacheDir(), 'schema.firewall.rules.rule.full.object'), { force: true });
    forgetPatterns();
    const made = await post(badPort);
    assert.is(made.status, 422, made.body);
    assert.ok(patternsLoaded(), 'making the schema loads the patterns');
    forgetPatterns();
    const kept = await post(badPort);
    assert.is(kept.status, 422, kept.body);
    assert.equal((kept.json as { errors: object[] }).errors, (made.json as { errors: object[] }).errors);
    assert.ok(JSON.stringify(kept.json).includes('match.dest_port[0]'), kept.body);
    const created = await post({ id: 'kept_patterns', name: 'Kept', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2222'] } });
    assert.is(created.status, 200, created.body);
    assert.not.ok(patternsLoaded(), 'checked with the kept sources, the patterns were never loaded');
  });
}

test.run();
