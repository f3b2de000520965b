import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { addSection, anonymousName, removeSection, serializeUci, type UciPackage, type UciValue } from '../../src/uci/index.js';
import { packPackage, unpackPackage } from '../../src/uci/packed.js';
import { parseUci } from '../../src/uci/parse.js';

// The packed form is what wrtapi-bytecode keeps between requests (config/store.ts): it must give
// back the very package it was made from, and a write's packPackage(asRead) what the next request would
// parse from the file the write made.

const fixtures = new URL('../../../../test/fixtures/uci/upstream/', import.meta.url);
const seeds = new URL('../../../../shims/emu/seed/etc/config/', import.meta.url);
const texts = [
  ...readdirSync(seeds).map((name) => readFileSync(new URL(name, seeds), 'utf8')),
  ...readdirSync(fixtures).map((name) => readFileSync(new URL(name, fixtures), 'utf8')),
];
const parsed = texts.flatMap((text) => {
  try {
    return [parseUci(text)];
  } catch {
    return [];
  }
});

test('unpackPackage gives back the package packPackage was given, order of sections and options kept', () => {
  assert.ok(parsed.length >= 10, `${parsed.length} packages`);
  for (const pkg of parsed) {
    const back = unpackPackage(packPackage(pkg));
    assert.equal(back, pkg);
    assert.equal(back.sections.map((section) => [...section.options.keys()]), pkg.sections.map((section) => [...section.options.keys()]));
  }
});

test('the packed form is plain data: it survives a JSON round trip unchanged', () => {
  for (const pkg of parsed) assert.equal(JSON.parse(JSON.stringify(packPackage(pkg))), packPackage(pkg));
});

/** What a write may leave in a model before serializing it: sections gone, anonymous ones renumbered on reading, empty values. */
function edited(pkg: UciPackage): UciPackage {
  const copy = unpackPackage(packPackage(pkg));
  const first = copy.sections.find((section) => section.anonymous);
  if (first) removeSection(copy, first.name);
  const added = addSection(copy, 'rule', 'added_rule');
  added.options.set('name', "It's quoted");
  added.options.set('empty', '');
  added.options.set('none', []);
  added.options.set('list', ['a', '', 'b']);
  added.options.set('multi', 'line one\nline two');
  copy.sections.push({ type: 'rule', name: 'cfg99ffff', anonymous: true, options: new Map([['enabled', '0']]) });
  return copy;
}

test('packPackage asRead gives what reading serializeUci of the package gives, without reading it', () => {
  for (const pkg of [...parsed, ...parsed.map(edited)]) {
    const text = serializeUci(pkg);
    assert.equal(packPackage(pkg, true), packPackage(parseUci(text)), text);
  }
});

test('packPackage asRead names an anonymous section by its place and leaves out what the text cannot hold', () => {
  const pkg: UciPackage = {
    sections: [
      { type: 'zone', name: 'cfg05dc22', anonymous: true, options: new Map<string, UciValue>([['name', 'lan'], ['empty', ''], ['none', []]]) },
      { type: 'rule', name: 'named', anonymous: false, options: new Map([['list', ['a']]]) },
    ],
  };
  assert.equal(packPackage(pkg, true), [
    ['zone', anonymousName('zone', 1), true, 'name', 'lan'],
    ['rule', 'named', false, 'list', ['a']],
  ]);
});

test.run();
