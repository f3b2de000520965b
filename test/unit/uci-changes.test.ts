// The lines `uci changes` prints (openwrt/uci cli.c uci_show_changes) for a change made in place.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordSections, uciChanges } from '../../src/uci/changes.js';
import { addSection, findSection, removeSection, renameSection, type UciPackage } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';

const FIREWALL = `
config defaults
\toption input 'REJECT'

config zone 'lan'
\toption name 'lan'
\tlist network 'lan'
\toption input 'ACCEPT'

config rule 'ssh'
\toption name 'SSH'
\toption src 'wan'
\tlist proto 'tcp'
\toption dest_port '22'
`;

/** The lines after `change` ran on the package read from `text`. */
function changes(change: (pkg: UciPackage) => void, text = FIREWALL): string[] {
  const pkg = parseUci(text);
  const recorded = recordSections(pkg);
  change(pkg);
  return uciChanges('firewall', recorded, pkg);
}

const section = (pkg: UciPackage, name: string) => findSection(pkg, name)!;

test('nothing changed prints nothing', () => {
  assert.equal(changes(() => undefined), []);
});

test('a new section: its type, then each option in order, a list as one add per item', () => {
  const lines = changes((pkg) => {
    const rule = addSection(pkg, 'rule', 'r_bench');
    rule.options.set('name', 'Bench');
    rule.options.set('proto', ['tcp', 'udp']);
    rule.options.set('target', 'ACCEPT');
  });
  assert.equal(lines, ["firewall.r_bench='rule'", "firewall.r_bench.name='Bench'", "firewall.r_bench.proto+='tcp'", "firewall.r_bench.proto+='udp'", "firewall.r_bench.target='ACCEPT'"]);
});

test('a removed section is one line, before any other change', () => {
  const lines = changes((pkg) => {
    section(pkg, 'lan').options.set('input', 'REJECT');
    removeSection(pkg, 'ssh');
  });
  assert.equal(lines, ['-firewall.ssh', "firewall.lan.input='REJECT'"]);
});

test('options set, changed and removed; a value holding a quote is quoted as the shell reads it', () => {
  const lines = changes((pkg) => {
    const ssh = section(pkg, 'ssh');
    ssh.options.delete('src');
    ssh.options.set('name', "Bob's SSH");
    ssh.options.set('dest_port', '2222');
    ssh.options.set('enabled', '0');
  });
  assert.equal(lines, ['-firewall.ssh.src', "firewall.ssh.name='Bob'\\''s SSH'", "firewall.ssh.dest_port='2222'", "firewall.ssh.enabled='0'"]);
});

test('a list that grows adds its new items; one that loses or reorders items is removed and added again', () => {
  assert.equal(changes((pkg) => section(pkg, 'lan').options.set('network', ['lan', 'guest'])), ["firewall.lan.network+='guest'"]);
  assert.equal(changes((pkg) => section(pkg, 'ssh').options.set('proto', ['udp'])), ['-firewall.ssh.proto', "firewall.ssh.proto+='udp'"]);
  const reordered = changes((pkg) => section(pkg, 'lan').options.set('network', ['lan', 'wan']), FIREWALL.replace("list network 'lan'", "list network 'wan'\n\tlist network 'lan'"));
  assert.equal(reordered, ['-firewall.lan.network', "firewall.lan.network+='lan'", "firewall.lan.network+='wan'"]);
});

test('a plain option that becomes a longer list keeps its value as the first item, as add_list does; a list made plain is set', () => {
  assert.equal(changes((pkg) => section(pkg, 'ssh').options.set('dest_port', ['22', '2222'])), ["firewall.ssh.dest_port+='2222'"]);
  assert.equal(changes((pkg) => section(pkg, 'ssh').options.set('dest_port', ['22'])), ['-firewall.ssh.dest_port', "firewall.ssh.dest_port+='22'"]);
  assert.equal(changes((pkg) => section(pkg, 'ssh').options.set('proto', 'tcp')), ["firewall.ssh.proto='tcp'"]);
});

test('an adopted anonymous section is a rename from its cfg name, and what follows uses the new name', () => {
  const lines = changes((pkg) => {
    const anonymous = pkg.sections[0];
    assert.ok(anonymous.anonymous);
    const adopted = renameSection(pkg, anonymous.name, 'd_main');
    adopted.options.set('forward', 'REJECT');
  });
  assert.equal(lines, ["firewall.cfg01e63d='d_main'", "firewall.d_main.forward='REJECT'"]);
});

test('a changed section type is set again', () => {
  const lines = changes((pkg) => {
    section(pkg, 'ssh').type = 'redirect';
  });
  assert.equal(lines, ["firewall.ssh='redirect'"]);
});

test('a section removed and made again under its name is removed, then added whole', () => {
  const lines = changes((pkg) => {
    removeSection(pkg, 'ssh');
    addSection(pkg, 'rule', 'ssh').options.set('name', 'SSH');
  });
  assert.equal(lines, ['-firewall.ssh', "firewall.ssh='rule'", "firewall.ssh.name='SSH'"]);
});

test('a secret is never shown nor compared: redacted when set where there was none, removed when it goes, silent when replaced', () => {
  const text = "\nconfig wifi-iface 'guest'\n\toption ssid 'Guest'\n\toption key 'old secret'\n";
  const secretsOf = (section: { type: string }) => (section.type === 'wifi-iface' ? ['key'] : []);
  const lines = (change: (pkg: UciPackage) => void) => {
    const pkg = parseUci(text);
    const recorded = recordSections(pkg);
    change(pkg);
    return uciChanges('wireless', recorded, pkg, secretsOf);
  };
  assert.equal(lines((pkg) => section(pkg, 'guest').options.set('key', 'new secret')), []);
  assert.equal(lines((pkg) => section(pkg, 'guest').options.set('key', 'old secret')), [], 'a guess that matches answers as one that does not');
  assert.equal(lines((pkg) => section(pkg, 'guest').options.delete('key')), ['-wireless.guest.key']);
  const added = lines((pkg) => addSection(pkg, 'wifi-iface', 'iot').options.set('key', 'iot secret'));
  assert.equal(added, ["wireless.iot='wifi-iface'", 'wireless.iot.key=<redacted>']);
});

test.run();
