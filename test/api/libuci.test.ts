// What wrtapi writes, checked by libuci itself when WRTAPI_UCI names a `uci` binary (libuci's CLI,
// built from openwrt/uci on openwrt/libubox; neither is in Debian, so the check is skipped without
// it): every file is what `uci export` gives for it (the format `uci commit` writes), every value
// reads back through `uci get` as the API reads it, anonymous sections have libuci's names, and a
// dry run's changes, replayed by `uci` and committed, make the very file the write then makes.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type RequestOptions, type Router } from '../support/router.js';

const uciTool = process.env.WRTAPI_UCI;

function uci(args: string[]): string {
  const run = spawnSync(uciTool!, args, { encoding: 'utf8' });
  assert.is(run.status, 0, `uci ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

// Values a configuration file holds only quoted or across lines: quotes, backslashes, tab, LF, CR,
// shell and UCI syntax, non-ASCII.
const AWKWARD = ["it's", "'", "''", "'\\''", 'a\\b', 'back\\', '"quoted"', 'x\ny', 'a\n\nb', '\n', 'x\r\n', 'tab\there', ' lead', 'trail ', '#hash', '$(id)', "option x 'y'", 'config foo', 'ünï 😀', ''];

/** `uci get`'s spelling of a value: a list's items joined by spaces, those holding white space quoted. */
function uciGetText(value: string | string[]): string {
  const quoted = (item: string) => (/[ \t\r\n]/.test(item) ? `'${item.replace(/'/g, "'\\''")}'` : item);
  return `${Array.isArray(value) ? value.map(quoted).join(' ') : value}\n`;
}

/** Every package's file is what libuci exports for it, less the `package` line export adds. */
function assertFilesAsLibuciWrites(router: Router) {
  const config = router.path('/etc/config');
  for (const name of readdirSync(config).filter((file) => !file.startsWith('.'))) {
    const exported = uci(['-c', config, 'export', name]);
    assert.is(readFileSync(join(config, name), 'utf8'), exported.slice(exported.indexOf('\n') + 1), name);
  }
}

type Section = { id: string; type: string; options: Record<string, string | string[]> };

if (!uciTool) console.log('libuci: WRTAPI_UCI names no uci binary; the checks by libuci itself are skipped');
else {
  let router: Router;
  let authorization: string;
  const call = async (options: RequestOptions) => router.request({ ...options, headers: { authorization, ...options.headers } });

  test.before.each(async () => {
    router = await newRouter();
    authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
  });
  // A package no resource serves, as LuCI's own.
  const addLuciPackage = () => writeFileSync(router.path('/etc/config/luci'), '');
  test.after.each(async () => {
    await router.cleanup();
  });

  test('awkward values are written as libuci writes them and read by libuci as sent', async () => {
    addLuciPackage();
    // What each option was sent as, by its `uci get` name; compared with what libuci reads, not with the API's own read.
    const sent = new Map<string, string | string[]>();
    for (let i = 0; i < AWKWARD.length; i++) {
      const options = { single: AWKWARD[i] + AWKWARD[(i + 7) % AWKWARD.length], items: [AWKWARD[i], AWKWARD[(i + 3) % AWKWARD.length], AWKWARD[(i + 11) % AWKWARD.length]] };
      const created = await call({ method: 'POST', path: '/raw/luci', body: { type: 'awkward', options } });
      assert.is(created.status, 200, created.body);
      for (const [name, value] of Object.entries(options)) sent.set(`luci.${(created.json as Section).id}.${name}`, value);
    }
    const rule = await call({ method: 'POST', path: '/firewall/rules', body: { id: 'quoted', name: "it's ours", target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['22', '2222'] } } });
    assert.is(rule.status, 200, rule.body);
    sent.set('firewall.quoted.name', "it's ours").set('firewall.quoted.dest_port', ['22', '2222']);
    assertFilesAsLibuciWrites(router);
    for (const [option, value] of sent) assert.is(uci(['-c', router.path('/etc/config'), 'get', option]), uciGetText(value), option);
  });

  test('anonymous sections have the names libuci gives them, before and after one is deleted', async () => {
    const sections = async () => (await call({ method: 'GET', path: '/raw/firewall', query: { limit: '500' } })).json as Section[];
    const libuciNames = () => [...uci(['-c', router.path('/etc/config'), '-X', 'show', 'firewall']).matchAll(/^firewall\.([^.=]+)=/gm)].map((match) => match[1]);
    const before = await sections();
    assert.equal(before.map((section) => section.id), libuciNames());
    // The stock rules are anonymous; one amid them goes, and those after it are named anew (libuci's
    // name holds the section's place), so the last rule's name is gone.
    const rules = before.filter((section) => section.type === 'rule').map((section) => section.id);
    assert.ok(rules.length > 3 && rules.every((id) => /^cfg[0-9a-f]{6}$/.test(id)), rules.join());
    assert.is((await call({ method: 'DELETE', path: `/raw/firewall/${rules[1]}` })).status, 204);
    const after = (await sections()).map((section) => section.id);
    assert.equal(after, libuciNames());
    assert.not.ok(after.includes(rules[rules.length - 1]), after.join());
    assertFilesAsLibuciWrites(router);
  });

  test("a dry run's changes, replayed by uci and committed, make the file the write makes", async () => {
    // Not the case of a list replaced ahead of other options: uci can only delete a list and add it
    // again, which puts it last, where the write keeps it in its place (README, Dry runs).
    addLuciPackage();
    const writes: RequestOptions[] = [
      { method: 'POST', path: '/firewall/rules', body: { id: 'dry', name: 'dry one', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp', 'udp'], dest_port: ['22', '2222'] } } },
      { method: 'PATCH', path: '/firewall/rules/dry', body: { target: 'DROP', match: { dest_port: null } } },
      { method: 'PUT', path: '/firewall/rules/dry', body: { name: 'again', target: 'REJECT', match: { src_zone: 'lan', dest_zone: 'wan', proto: ['icmp'], icmp_type: ['echo-request'] } } },
      { method: 'PATCH', path: '/firewall/rules/dry', body: [{ op: 'add', path: '/match/icmp_type/0', value: 'echo-reply' }, { op: 'remove', path: '/match/dest_zone' }], headers: { 'content-type': 'application/json-patch+json' } },
      { method: 'PATCH', path: '/system', body: { hostname: 'dry-run', timezone: 'UTC0' } },
      { method: 'POST', path: '/dhcp/hosts', body: { id: 'pc', name: 'pc', ip: '192.168.1.50', macs: ['52:54:00:12:34:56'] } },
      { method: 'POST', path: '/raw/luci', body: { id: 'awkward', type: 'awkward', options: { single: "v6 \"x\"\nline2\r\n\ttab 'q'", items: ['a b', "c'd", '\n'] } } },
      { method: 'PATCH', path: '/raw/luci/awkward', body: { options: { items: null, single: 'one' } } },
      { method: 'DELETE', path: '/firewall/rules/dry' },
      { method: 'POST', path: '/batch', body: { operations: [{ method: 'PATCH', path: '/system', body: { hostname: 'batched' } }, { method: 'DELETE', path: '/dhcp/hosts/pc' }] } },
    ];
    const commands: Record<string, string> = { '=': 'set', '+=': 'add_list', '-=': 'del_list' };
    const line = /^(-?)(\w+)\.([^.=]+)(?:\.([^=+-]+))?(?:(\+=|-=|=)'(.*)')?$/s;
    const unquoted = (value: string) => value.replace(/'\\''/g, "'");
    for (const write of writes) {
      const what = `${write.method} ${write.path}`;
      const dry = await call({ ...write, query: { dry_run: 'true' } });
      assert.is(dry.status, 200, `${what}: ${dry.body}`);
      const changes = (dry.json as { changes: Record<string, string[]> }).changes;
      assert.ok(Object.keys(changes).length, what);
      const scratch = mkdtempSync(join(tmpdir(), 'wrtapi-libuci-'));
      try {
        const config = join(scratch, 'config');
        const deltas = join(scratch, 'deltas');
        cpSync(router.path('/etc/config'), config, { recursive: true });
        mkdirSync(deltas);
        const uciIn = (args: string[]) => uci(['-c', config, '-t', deltas, ...args]);
        for (const [pkg, lines] of Object.entries(changes)) {
          for (const change of lines) {
            const parsed = line.exec(change);
            if (!parsed) throw new Error(`${what}: ${change} is no line of uci changes`);
            const [, removal, , section, option, operator, value] = parsed;
            const target = `${pkg}.${section}${option ? `.${option}` : ''}`;
            if (removal) uciIn(['delete', target]);
            else uciIn([commands[operator], `${target}=${unquoted(value)}`]);
          }
          assert.is(uciIn(['changes', pkg]), lines.map((change) => `${change}\n`).join(''), `${what}: uci changes`);
          uciIn(['commit', pkg]);
        }
        const written = await call(write);
        assert.ok([200, 204, 207].includes(written.status), `${what}: ${written.body}`);
        for (const pkg of Object.keys(changes)) assert.is(readFileSync(router.path(`/etc/config/${pkg}`), 'latin1'), readFileSync(join(config, pkg), 'latin1'), `${what}: ${pkg}`);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }
  });
}

test.run();
