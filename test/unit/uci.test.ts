import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import {
  addSection,
  anonymousName,
  findSection,
  removeSection,
  renameSection,
  serializeUci,
  UciSyntaxError,
  type UciPackage,
  type UciValue,
} from '../../src/uci/index.js';
import { parseUci as parseFull } from '../../src/uci/parse.js';
import { parseCanonical } from '../../src/uci/read.js';

// Compiled to dist/node/test/unit: the fixtures stay in the source tree.
const fixtures = new URL('../../../../test/fixtures/uci/', import.meta.url);
const fixture = (path: string): string => readFileSync(new URL(path, fixtures), 'utf8');
// The stock 24.10 configuration is the emulated router's seed.
const seeds = new URL('../../../../shims/emu/seed/etc/config/', import.meta.url);
const stock = (pkg: string): string => readFileSync(new URL(pkg, seeds), 'utf8');

const STOCK = ['network', 'firewall', 'dhcp', 'system', 'wireless', 'dropbear', 'uhttpd'];

function names(pkg: UciPackage): string[] {
  return pkg.sections.map((section) => section.name);
}

function snapshot(pkg: UciPackage): unknown {
  return pkg.sections.map((s) => [s.type, s.name, s.anonymous, [...s.options]]);
}

/** The full reader; wherever the short path takes a vector too, it must read it the same. */
function parseUci(text: string): UciPackage {
  const pkg = parseFull(text);
  const canonical = parseCanonical(text);
  if (canonical) assert.equal(snapshot(canonical), snapshot(pkg), JSON.stringify(text));
  return pkg;
}

function options(text: string, index = 0): [string, UciValue][] {
  return [...parseUci(text).sections[index].options];
}

function syntaxError(text: string): UciSyntaxError {
  assert.is(parseCanonical(text), undefined, JSON.stringify(text));
  try {
    parseUci(text);
  } catch (error) {
    if (error instanceof UciSyntaxError) return error;
    throw error;
  }
  throw new Error(`parsed without error: ${JSON.stringify(text)}`);
}

// Syntax

test('named sections in every quoting style, anonymous ones with or without an empty name', () => {
  const pkg = parseUci("config interface 'lan'\nconfig interface wan\nconfig interface \"wan6\"\nconfig rule\nconfig rule ''\n");
  assert.equal(
    pkg.sections.map((s) => [s.type, s.name, s.anonymous]),
    [
      ['interface', 'lan', false],
      ['interface', 'wan', false],
      ['interface', 'wan6', false],
      ['rule', 'cfg0492bd', true],
      ['rule', 'cfg0592bd', true],
    ],
  );
});

test('single-letter commands', () => {
  const pkg = parseUci("p network\nc interface 'lan'\no proto static\nl dns 1.1.1.1\n");
  assert.equal(names(pkg), ['lan']);
  assert.equal([...pkg.sections[0].options], [['proto', 'static'], ['dns', ['1.1.1.1']]]);
});

test('a package line is accepted and ignored', () => {
  const pkg = parseUci("package network\n\nconfig interface 'lan'\npackage 'net-work'\n\toption proto 'static'\n");
  assert.equal(names(pkg), ['lan']);
  assert.equal([...pkg.sections[0].options], [['proto', 'static']]);
});

test('values unquoted, single-quoted, double-quoted with backslash escapes', () => {
  const text = [
    'config s',
    '\toption plain 192.168.1.1',
    "\toption single 'it is'",
    '\toption double "say \\"hi\\" \\\\ ok"',
    '\toption no_decoding "\\n\\t"',
    "\toption literal 'back\\slash \"x\"'",
    "\toption tab\t\t'spaced   out'\t",
    '',
  ].join('\n');
  assert.equal(options(text), [
    ['plain', '192.168.1.1'],
    ['single', 'it is'],
    ['double', 'say "hi" \\ ok'],
    ['no_decoding', 'nt'],
    ['literal', 'back\\slash "x"'],
    ['tab', 'spaced   out'],
  ]);
});

test('adjacent pieces are one value', () => {
  const text = "config s\n\toption a 'a'\"b\"c\n\toption b x'y z'w\n\toption c ''\"\"x\n";
  assert.equal(options(text), [['a', 'abc'], ['b', 'xy zw'], ['c', 'x']]);
});

test('a backslash outside quotes takes the next character literally', () => {
  const text = "config s\n\toption a a\\ b\n\toption b \\'x\\'\n\toption c a\\#b\\;c\n";
  assert.equal(options(text), [['a', 'a b'], ['b', "'x'"], ['c', 'a#b;c']]);
});

test('an empty option is ignored and clears nothing; an empty list item is kept', () => {
  const text = "config s\n\toption a ''\n\toption b\n\tlist c ''\n\tlist d\n\toption e x\n\toption e ''\n";
  assert.equal(options(text), [['c', ['']], ['d', ['']], ['e', 'x']]);
});

test('comments: whole lines, indented, and after the last argument', () => {
  const text = [
    '# leading comment',
    "config rule 'r' # after the name",
    '\t# indented',
    '\toption a b # after a value',
    "\toption b 'b'# right after a quote",
    '\toption c c#cut here',
    "\toption d '#not a comment'",
    '#config rule',
    '',
  ].join('\n');
  assert.equal(names(parseUci(text)), ['r']);
  assert.equal(options(text), [['a', 'b'], ['b', 'b'], ['c', 'c'], ['d', '#not a comment']]);
});

test('a comment in place of the value leaves the option empty, so it is ignored', () => {
  assert.equal(options('config s\n\toption a #b\n\toption c d\n'), [['c', 'd']]);
});

test('blank lines, whitespace-only lines, CRLF and a last line without newline', () => {
  const text = "\r\n  \t \r\nconfig interface 'lan'\r\n\toption proto static\r\n\r\n\tlist dns '1.1.1.1'\r\n\toption mtu 1500";
  const pkg = parseUci(text);
  assert.equal(names(pkg), ['lan']);
  assert.equal([...pkg.sections[0].options], [['proto', 'static'], ['dns', ['1.1.1.1']], ['mtu', '1500']]);
});

test('a quoted value may span lines; the line breaks are part of it', () => {
  const text = "config s\n\toption a 'one\n\ttwo'\n\toption b \"x\r\ny\"\n\toption c 'z'\n";
  assert.equal(options(text), [['a', 'one\n\ttwo'], ['b', 'x\r\ny'], ['c', 'z']]);
});

test('a backslash ending a line joins the next one, except inside single quotes', () => {
  const text = [
    'config s',
    '\toption a abc\\',
    'def',
    '\toption b "abc\\',
    'def"',
    "\toption c 'abc\\",
    "def'",
    '\toption d "abc\\\r',
    'def"',
    '',
  ].join('\n');
  assert.equal(options(text), [['a', 'abcdef'], ['b', 'abcdef'], ['c', 'abc\\\ndef'], ['d', 'abcdef']]);
});

test("libuci's own multi-line import vector", () => {
  // test/references/import.data in the uci repository.
  const text = "config 'type' 'section'\n\toption mul_line_opt_sq \\''line 1\nline 2 \\\nline 3'\\'\n\toption mul_line_opt_dq \"\\\"Hello, \\\nWorld.\\'\n\"\n";
  assert.equal(options(text), [
    ['mul_line_opt_sq', "'line 1\nline 2 \\\nline 3'"],
    ['mul_line_opt_dq', "\"Hello, World.'\n"],
  ]);
});

test('a backslash at the very end of the file ends the value', () => {
  assert.equal(options('config s\n\toption a b\\'), [['a', 'b']]);
});

test('commands separated by semicolons', () => {
  assert.equal(options("config s\n\toption a 'x'; option b 'y' ;option c z\n"), [['a', 'x'], ['b', 'y'], ['c', 'z']]);
});

test('a semicolon right after an unquoted value cuts the rest of the line, as in libuci', () => {
  // parse_str() writes its terminator over the `;` when nothing was unquoted before it.
  assert.equal(options("config s\n\toption x 1;option y 2\n\tlist l 1;list l 2\n"), [['x', '1'], ['l', ['1']]]);
});

// Order

test('options and lists keep file order, interleaved', () => {
  const text = "config s\n\toption a 1\n\tlist l x\n\toption b 2\n\tlist m y\n\tlist l z\n\toption c 3\n";
  assert.equal(options(text), [['a', '1'], ['l', ['x', 'z']], ['b', '2'], ['m', ['y']], ['c', '3']]);
});

test('a repeated option overwrites in place; an option replaces a list and a list extends an option in place', () => {
  const text = [
    'config s',
    '\toption a 1',
    '\toption b 2',
    '\toption a 3',
    '\tlist l x',
    '\toption c 4',
    '\toption l y',
    '\tlist b 5',
    '',
  ].join('\n');
  assert.equal(options(text), [['a', '3'], ['b', ['2', '5']], ['l', 'y'], ['c', '4']]);
});

test('a named section opened again is the same section', () => {
  const pkg = parseUci("config interface 'lan'\n\toption proto static\nconfig interface 'wan'\nconfig interface 'lan'\n\toption mtu 1500\n");
  assert.equal(names(pkg), ['lan', 'wan']);
  assert.equal([...pkg.sections[0].options], [['proto', 'static'], ['mtu', '1500']]);
});

// Anonymous names

test('anonymousName, derived by hand', () => {
  // djb2('a') = 5381 * 33 + 97 = 177670 = 0x2b606; low 16 bits b606.
  assert.is(anonymousName('a', 1), 'cfg01b606');
  // The counter is printed with %02x: wider past 255.
  assert.is(anonymousName('a', 0x1a), 'cfg1ab606');
  assert.is(anonymousName('a', 0x100), 'cfg100b606');
  // djb2('ab') = 177670 * 33 + 98 = 5863208 = 0x597728.
  assert.is(anonymousName('ab', 3), 'cfg037728');
});

test('the counter counts named sections too, but not a reopened one', () => {
  const pkg = parseUci("config a 'x'\nconfig a\nconfig a 'x'\nconfig a\nconfig ab\n");
  assert.equal(names(pkg), ['x', 'cfg02b606', 'cfg03b606', 'cfg047728']);
});

test('the hash covers the type only, not the options', () => {
  const pkg = parseUci("config zone\n\toption name lan\nconfig zone\n\toption name wan\n\toption masq 1\n");
  assert.equal(names(pkg), ['cfg01dc81', 'cfg02dc81']);
});

test('stock names match the ones real routers show', () => {
  // Seen in `uci show` output and scripts for stock configurations: firewall.cfg01e63d (defaults),
  // cfg02dc81/cfg03dc81 (zones), cfg04ad58 (forwarding), cfg0592bd..cfg0d92bd (the nine rules),
  // network.cfg030f15 (br-lan device), dhcp.cfg01411c (dnsmasq), system.cfg01e48a.
  assert.equal(names(parseUci(stock('firewall'))), [
    'cfg01e63d',
    'cfg02dc81',
    'cfg03dc81',
    'cfg04ad58',
    'cfg0592bd',
    'cfg0692bd',
    'cfg0792bd',
    'cfg0892bd',
    'cfg0992bd',
    'cfg0a92bd',
    'cfg0b92bd',
    'cfg0c92bd',
    'cfg0d92bd',
  ]);
  assert.equal(names(parseUci(stock('network'))), ['loopback', 'globals', 'cfg030f15', 'lan', 'wan', 'wan6']);
  assert.equal(names(parseUci(stock('dhcp'))), ['cfg01411c', 'lan', 'wan', 'odhcpd']);
  assert.equal(names(parseUci(stock('system'))), ['cfg01e48a', 'ntp']);
});

test('names shift once a removed section is written and read back', () => {
  const pkg = parseUci(stock('firewall'));
  assert.ok(removeSection(pkg, 'cfg02dc81'));
  assert.equal(names(pkg).slice(0, 3), ['cfg01e63d', 'cfg03dc81', 'cfg04ad58']);
  const reread = names(parseUci(serializeUci(pkg)));
  assert.equal(reread.slice(0, 4), ['cfg01e63d', 'cfg02dc81', 'cfg03ad58', 'cfg0492bd']);
  assert.is(reread[reread.length - 1], 'cfg0c92bd');
});

test('adopting an anonymous section names it in place; the others keep their names', () => {
  const pkg = parseUci(stock('firewall'));
  const section = renameSection(pkg, 'cfg0592bd', 'r_01JDQ3B2N5W8');
  assert.is(section.anonymous, false);
  const text = serializeUci(pkg);
  assert.ok(text.includes("\nconfig rule 'r_01JDQ3B2N5W8'\n\toption name 'Allow-DHCP-Renew'\n"));
  const reread = parseUci(text);
  assert.equal(names(reread).slice(3, 7), ['cfg04ad58', 'r_01JDQ3B2N5W8', 'cfg0692bd', 'cfg0792bd']);
  assert.is(findSection(reread, 'r_01JDQ3B2N5W8')?.anonymous, false);
});

// Writing

test('every value is single-quoted, a quote written as a closed quote, an escaped one and a reopened one', () => {
  const pkg: UciPackage = { sections: [] };
  const section = addSection(pkg, 'rule', 'r1');
  section.options.set('name', "Bob's rule");
  section.options.set('note', 'multi\nline "text" \\ here');
  section.options.set('list', ["'", "a''b"]);
  const text = serializeUci(pkg);
  assert.is(
    text,
    "\nconfig rule 'r1'\n\toption name 'Bob'\\''s rule'\n\toption note 'multi\nline \"text\" \\ here'\n\tlist list ''\\'''\n\tlist list 'a'\\'''\\''b'\n\n",
  );
  assert.equal([...parseUci(text).sections[0].options], [...section.options]);
});

test('the type is written unquoted, escaped only for quotes, as libuci does', () => {
  const pkg = parseUci("config \"it's\"\nconfig 'a#b' 'x'\n");
  assert.equal(pkg.sections.map((s) => s.type), ["it's", 'a#b']);
  assert.is(serializeUci(pkg), "\nconfig it'\\''s\n\nconfig a#b 'x'\n\n");
});

test('an empty package, an empty option and an empty list', () => {
  assert.equal(parseUci('').sections, []);
  assert.equal(parseUci('\n\n# nothing\n').sections, []);
  assert.is(serializeUci({ sections: [] }), '\n');
  const pkg: UciPackage = { sections: [] };
  const section = addSection(pkg, 'host', 'h1');
  section.options.set('name', '');
  section.options.set('tag', []);
  section.options.set('ip', '10.0.0.2');
  assert.is(serializeUci(pkg), "\nconfig host 'h1'\n\toption ip '10.0.0.2'\n\n");
});

test('every stock configuration is canonical: it round-trips byte for byte', () => {
  for (const name of STOCK) {
    const text = stock(name);
    assert.is(serializeUci(parseUci(text)), text, name);
  }
});

test('files uci commit wrote take the short path', () => {
  for (const name of STOCK) assert.ok(parseCanonical(stock(name)), name);
  assert.equal(parseCanonical('')?.sections, []);
  assert.equal(names(parseCanonical("\nconfig a 'x'\n\toption o '1'\nconfig a\nconfig a 'x'\n\tlist l ''\n")!), ['x', anonymousName('a', 2)]);
});

test('any other line leaves the file to the full reader', () => {
  for (const text of [
    "config rule\n\toption name value\n",
    "config rule\n\toption name 'Bob'\\''s'\n",
    "config rule\n\toption name 'multi\nline'\n",
    "config rule\r\n\toption name 'x'\r\n",
    "config rule\n\toption name 'x'",
    "config rule ''\n",
    "config rule \"r\"\n",
    "config rule 'r' \n",
    "package firewall\nconfig rule\n",
    "# comment\nconfig rule\n",
    "config rule\n  option name 'x'\n",
    "config rule\n\toption name 'x' # note\n",
    "\toption name 'x'\nconfig rule\n",
    "config a 'x'\nconfig b 'x'\n",
    "config rule\n\toption name 'a\0b'\n",
  ]) {
    assert.is(parseCanonical(text), undefined, JSON.stringify(text));
  }
});

test("the firewall4 file as shipped reads as the stock firewall uci commit writes", () => {
  assert.is(serializeUci(parseUci(fixture('upstream/firewall'))), stock('firewall'));
});

test('the dnsmasq file as shipped: trailing comments are not part of the values', () => {
  const shipped = parseUci(fixture('upstream/dhcp'));
  const seeded = parseUci(stock('dhcp'));
  assert.equal([...shipped.sections[0].options], [...seeded.sections[0].options]);
  assert.equal(names(shipped), ['cfg01411c', 'lan', 'wan']);
  assert.equal([...shipped.sections[1].options], [...seeded.sections[1].options].slice(0, 4));
});

// Errors

test('syntax errors carry the line and libuci reason', () => {
  const cases: [string, number, string][] = [
    ['bogus line\n', 1, 'invalid command'],
    ['config a\n\tOption x y\n', 2, 'invalid command'],
    ['config\n', 1, 'invalid command'],
    ['config', 1, 'config without name'],
    ['config a\n\toption', 2, 'option without name'],
    ['package', 1, 'package without name'],
    ['option a b\n', 1, 'option/list command found before the first section'],
    ["\toption a 'b'\n", 1, 'option/list command found before the first section'],
    ['\n\n\tlist a b\n', 3, 'option/list command found before the first section'],
    ["config interface 'my-lan'\n", 1, 'invalid character in name field'],
    ['config a\n\n\toption my-opt 1\n', 3, 'invalid character in name field'],
    ["package 'net work'\n", 1, 'invalid character in name field'],
    ["config 'a b'\n", 1, 'invalid character in type field'],
    ["config ''\n", 1, 'insufficient arguments'],
    ["config a\n\toption '' x\n", 2, 'insufficient arguments'],
    ['config a b c\n', 1, 'too many arguments'],
    ["config a\n\toption x y 'z'\n", 2, 'too many arguments'],
    ["config a\n\toption x 'y\n", 2, "EOF with unterminated '"],
    ['config a\n\toption x "y\nz\n', 3, 'EOF with unterminated "'],
    ["config a 'x'\nconfig b 'x'\n", 2, 'section of different type overwrites prior section with same name'],
    ["config a\n\toption x '1';\n", 2, 'invalid command'],
    ["config a\n\toption x 'a\0b'\n", 2, 'NUL character'],
  ];
  for (const [text, line, reason] of cases) {
    const error = syntaxError(text);
    assert.equal([error.line, error.reason], [line, reason], JSON.stringify(text));
    assert.is(error.message, `line ${line}: ${reason}`);
  }
});

// Helpers

test('find, add, rename and remove sections', () => {
  const pkg = parseUci(stock('network'));
  assert.is(findSection(pkg, 'lan')?.type, 'interface');
  assert.is(findSection(pkg, 'nope'), undefined);

  const added = addSection(pkg, 'interface', 'guest');
  added.options.set('proto', 'static');
  assert.is(pkg.sections[pkg.sections.length - 1], added);
  assert.throws(() => addSection(pkg, 'interface', 'guest'), /already exists/);
  assert.throws(() => addSection(pkg, 'interface', 'my-guest'), /invalid section name/);
  assert.throws(() => addSection(pkg, 'a#b', 'x'), /invalid section type/);

  assert.throws(() => renameSection(pkg, 'nope', 'x'), /no section/);
  assert.throws(() => renameSection(pkg, 'cfg030f15', 'lan'), /already exists/);
  renameSection(pkg, 'cfg030f15', 'br_lan');
  assert.ok(serializeUci(pkg).includes("\nconfig device 'br_lan'\n\toption name 'br-lan'\n"));

  assert.is(removeSection(pkg, 'nope'), false);
  assert.ok(removeSection(pkg, 'wan6'));
  assert.equal(names(pkg), ['loopback', 'globals', 'br_lan', 'lan', 'wan', 'guest']);
});

test.run();
