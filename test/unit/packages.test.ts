import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFeeds, replacedFeed, withFeed } from '../../src/packages/feeds.js';
import { bodyProblems, FEED_NAME, FEED_URL, PACKAGE_NAME, valueProblem } from '../../src/packages/grammar.js';
import { parseDatabase, parseWorld, summary } from '../../src/packages/managers.js';

const matches = (pattern: string, value: string) => new RegExp(pattern).test(value);

test('package names: what opkg and apk name packages, never an option, glob, path, constraint or package file', () => {
  for (const name of ['mwan3', 'luci-app-mwan3', 'libstdcpp6', 'libstdc++6', 'kmod-nf-nat6', 'python3.11', 'prometheus-node-exporter-lua', 'lib_x', '6in4', 'x'.repeat(128)]) {
    assert.ok(matches(PACKAGE_NAME, name), name);
  }
  for (const name of ['', '-f', '--force-depends', '+x', '.x', '_x', 'a b', 'a\tb', 'x\n', '\nx', '../x', 'x/y', '/bin/sh', 'x;y', 'x|y', 'x$y', 'mwan*', 'mwan?', 'x[1]',
    'x>1', 'x=1.0', 'x~1', 'x@edge', 'x:y', 'x.ipk', 'x.opk', 'x.deb', 'x.apk', 'é', 'x'.repeat(129)]) {
    assert.not.ok(matches(PACKAGE_NAME, name), JSON.stringify(name));
  }
  assert.ok(matches(PACKAGE_NAME, 'x.ipkg'), 'only the file extensions themselves');
});

test('feed names and URLs: nothing a feed line could split on, quote or expand', () => {
  for (const name of ['mine', 'openwrt_base', 'my.feed-2', 'x'.repeat(64)]) assert.ok(matches(FEED_NAME, name), name);
  for (const name of ['', '.', '..', '-x', 'a b', 'a/b', 'x\n', '"x"', "x'", 'x'.repeat(65)]) assert.not.ok(matches(FEED_NAME, name), JSON.stringify(name));
  for (const url of [
    'https://downloads.openwrt.org/releases/24.10.0/packages/x86_64/base',
    'https://downloads.openwrt.org/releases/25.12.0/packages/x86_64/base/packages.adb',
    'http://192.168.1.2:8080/feed',
    'http://[fd00::2]:8080/feed/',
    'https://user:pass@feeds.example.org/x%20y',
    'https://feeds.example.org',
    'file:///srv/feed',
  ]) assert.ok(matches(FEED_URL, url), url);
  for (const url of [
    '', 'ftp://x/y', '/srv/feed', 'file://srv/feed', 'https://', 'https:///x', 'https://x/a b', 'https://x/a\tb', 'https://x/a\nsrc/gz y z', 'https://x/"', "https://x/'",
    'https://x/$ARCH', 'https://x/${x}', 'https://x/a#b', 'https://x/a?b', 'https://x/a\\b', 'https://x/`id`', 'https://x/\u0000', 'https://x/é',
  ]) assert.not.ok(matches(FEED_URL, url), JSON.stringify(url));
});

test('body problems: unknown fields, missing, mistyped, too long, off the pattern, all at once and never repeating the value', () => {
  const errors = bodyProblems({ name: 'x\nevil', url: 'u'.repeat(2000), extra: 1 }, { name: FEED_NAME, url: FEED_URL });
  assert.equal(errors.map(({ field, code }) => `${field}:${code}`), ['extra:unknown_field', 'name:invalid_format', 'url:out_of_range']);
  assert.not.ok(JSON.stringify(errors).includes('evil'));
  assert.equal(bodyProblems({}, { name: PACKAGE_NAME }).map(({ code }) => code), ['required']);
  assert.is(valueProblem('name', null, PACKAGE_NAME)!.code, 'required');
  assert.is(valueProblem('name', ['x'], PACKAGE_NAME)!.code, 'invalid_type');
  assert.is(valueProblem('name', 'mwan3', PACKAGE_NAME), undefined);
});

test('the opkg database: installed stanzas only, continuation lines and a last stanza without its blank line', () => {
  const status = [
    'Package: uhttpd\nVersion: 2023.06.25~34a8a74d-r4\nDepends: libc, libubox20240329\nStatus: install user installed\nArchitecture: x86_64\nInstalled-Time: 1738624177\n',
    'Package: dnsmasq\nVersion: 2.90-r4\nConffiles:\n /etc/config/dhcp 2a3f\n /etc/dnsmasq.conf 1e6b\nStatus: install user installed\nArchitecture: x86_64\n',
    'Package: old\nVersion: 1.0\nStatus: deinstall hold not-installed\n',
    'Package: half\nVersion: 1.0\nStatus: install ok half-installed\n',
    'Package: libgcc1\nVersion: 13.3.0-r4\nStatus: install ok installed\nAuto-Installed: yes',
  ].join('\n');
  const record = (name: string, version: string, managed = true) => ({ id: name, name, version, installed: true, managed });
  assert.equal(parseDatabase('opkg', status), [
    record('dnsmasq', '2.90-r4'),
    record('libgcc1', '13.3.0-r4', false),
    record('uhttpd', '2023.06.25~34a8a74d-r4'),
  ]);
  assert.equal(parseDatabase('opkg', ''), []);
  assert.equal(parseDatabase('opkg', 'Package: nameless\n\nVersion: 1\nStatus: install ok installed\n'), []);
});

test('the apk database: P: and V: of each stanza, whatever else it holds; managed when the world names it', () => {
  const installed = 'C:Q1abc=\nP:mwan3\nV:2.11.20-r1\nA:x86_64\nD:ip-full\nF:etc/init.d\nR:mwan3\n\nP:ip-full\nV:6.16.0-r1\nA:x86_64\n\n\nP:broken\nA:x86_64\n';
  const world = parseWorld('mwan3>=2.11\n!ip-full\nluci@edge\nbusybox\n');
  assert.equal(world, ['mwan3', 'luci', 'busybox']);
  assert.equal(parseDatabase('apk', installed, world), [
    { id: 'ip-full', name: 'ip-full', version: '6.16.0-r1', installed: true, managed: false },
    { id: 'mwan3', name: 'mwan3', version: '2.11.20-r1', installed: true, managed: true },
  ]);
});

test('summary: the last lines of stderr, or of stdout when stderr says nothing', () => {
  const stderr = Array.from({ length: 12 }, (_, i) => ` * line ${i}`).join('\n');
  assert.is(summary({ code: 255, stdout: 'ignored\n', stderr: `${stderr}\n\n` }), Array.from({ length: 8 }, (_, i) => ` * line ${i + 4}`).join('\n'));
  assert.is(summary({ code: 0, stdout: 'World updated, but ...\n  mwan3: luci-app-mwan3\n\nOK: 6 MiB in 39 packages\n', stderr: ' \n' }), 'World updated, but ...\n  mwan3: luci-app-mwan3\nOK: 6 MiB in 39 packages');
  assert.is(summary({ code: 1, stdout: '', stderr: '' }), '');
});

test('opkg feeds: src and src/gz lines with their names, everything else kept through every change', () => {
  const text = '# add your custom package feeds here\n#\n# src/gz example_feed_name http://www.example.com/path/to/files\nsrc/gz mine https://a.example/x\n  src  "plain"  "file:///srv/feed"  \noption check_signature\n';
  const feeds = parseFeeds('opkg', text);
  assert.equal(feeds.map(({ name, url, at }) => ({ name, url, at })), [
    { name: 'mine', url: 'https://a.example/x', at: 3 },
    { name: 'plain', url: 'file:///srv/feed', at: 4 },
  ]);
  assert.is(withFeed('opkg', text, { name: 'new', url: 'https://b.example/y' }), `${text}src/gz new https://b.example/y\n`);
  assert.is(withFeed('opkg', '# no newline', { name: 'new', url: 'https://b.example/y' }), '# no newline\nsrc/gz new https://b.example/y\n');
  assert.is(withFeed('opkg', '', { name: 'new', url: 'https://b.example/y' }), 'src/gz new https://b.example/y\n');
  assert.is(replacedFeed('opkg', text, feeds[1], { name: 'plain', url: 'file:///srv/other' }), text.replace('  src  "plain"  "file:///srv/feed"  ', 'src plain file:///srv/other'));
  assert.is(replacedFeed('opkg', text, feeds[0]), text.replace('src/gz mine https://a.example/x\n', ''));
});

test('apk feeds: a URL a line, named by the comment above it, or by a hash of the line', () => {
  const stock = '# add your custom package feeds here\n#\n# http://www.example.com/path/to/files/packages.adb\n';
  const named = withFeed('apk', stock, { name: 'mine', url: 'https://a.example/x/packages.adb' });
  assert.is(named, `${stock}# wrtapi-feed: mine\nhttps://a.example/x/packages.adb\n`);
  const text = `${named}https://by.hand/packages.adb\n\n# a comment\n`;
  const feeds = parseFeeds('apk', text);
  assert.equal(feeds.map(({ name, url, at, span }) => ({ name, url, at, span })), [
    { name: 'mine', url: 'https://a.example/x/packages.adb', at: 3, span: 2 },
    { name: feeds[1].name, url: 'https://by.hand/packages.adb', at: 5, span: 1 },
  ]);
  assert.match(feeds[1].name, /^url_[0-9a-f]{8}$/);
  assert.is(parseFeeds('apk', 'https://by.hand/packages.adb\n')[0].name, feeds[1].name, 'the same line, the same name');
  assert.is.not(parseFeeds('apk', 'https://by.hand/other.adb\n')[0].name, feeds[1].name);
  assert.is(replacedFeed('apk', text, feeds[0]), `${stock}https://by.hand/packages.adb\n\n# a comment\n`);
  assert.is(replacedFeed('apk', text, feeds[1], { name: feeds[1].name, url: 'https://moved/packages.adb' }), `${named}# wrtapi-feed: ${feeds[1].name}\nhttps://moved/packages.adb\n\n# a comment\n`);
  assert.equal(parseFeeds('apk', '# wrtapi-feed: orphan\n# no URL follows\n'), []);
});

test.run();
