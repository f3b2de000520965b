// The text rule (src/http/text.ts): what no string of a request may hold, and that every pattern of
// every resource states it, so the document never calls a value valid that the server refuses.
import RandExp from 'randexp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { docOf } from '../../build/generators/docs.js';
import { loadResources } from '../../build/generators/inventory.js';
import { textPattern } from '../../build/generators/patterns.js';
import { isUnwritable, TEXT_PATTERN, UNWRITABLE_CLASS } from '../../src/http/text.js';
import { pattern } from '../../src/generated/patterns.js';
import type { JsonSchema } from '../../src/resources/model.js';

const UNWRITABLE = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u000e', '\u001b', '\u001f', '\ud800', '\udbff', '\udc00', '\udfff'];
const matches = (source: string, text: string) => new RegExp(source, 'u').test(text);

test('unwritable: controls but tab, LF and CR, and unpaired surrogates; DEL, C1 and astral characters are text', () => {
  for (const character of UNWRITABLE) assert.ok(isUnwritable(`a${character}b`), JSON.stringify(character));
  for (const text of ['tab\there', 'two\nlines\r\n', 'del\x7f', 'c1\u0085\u009f', 'emoji \u{1f600}', 'é ü 中', '']) assert.not.ok(isUnwritable(text), JSON.stringify(text));
  assert.ok(isUnwritable('\u{1f600}'.slice(0, 1)), 'half of a pair');
  const spelled = new RegExp(`[${UNWRITABLE_CLASS}]`, 'u');
  for (let code = 0; code < 0xe000; code = code === 0x100 ? 0xd7ff : code + 1) {
    assert.is(isUnwritable(String.fromCharCode(code)), spelled.test(String.fromCharCode(code)), `U+${code.toString(16)}: the literal as UNWRITABLE_CLASS says`);
  }
  assert.ok(matches(TEXT_PATTERN, 'two\nlines\t\u{1f600}'));
  for (const character of UNWRITABLE) assert.not.ok(matches(TEXT_PATTERN, `a${character}`), JSON.stringify(character));
});

test('textPattern narrows negated classes, \\S, \\W, \\D, . and classes holding VT or FF, and nothing else', () => {
  const cases: [string, string[], string[]][] = [
    ['^/\\S+$', ['/etc/x', '/\u00e9'], ['/a\u0001', '/\ud800']],
    ['^[^\\s,]+$', ['a.b'], ['a\u001fb', 'a,b']],
    ['^[^-a]x$', ['bx', '\u007fx'], ['-x', 'ax', '\u0008x']],
    ['^[^a-]x$', ['bx'], ['-x', 'ax', '\ud800x']],
    ['^a.c$', ['abc'], ['a\u000bc', 'a\ndc']],
    ['^x\\sy$', ['x y', 'x\ty'], ['x\u000by', 'x\u000cy']],
    ['^\\W\\D$', ['-a'], ['\u0001a', '-\u0001']],
    ['^[A-Za-z0-9_]+$', ['abc'], ['a\u0000']],
  ];
  for (const [source, kept, refused] of cases) {
    const narrowed = textPattern(source);
    for (const text of kept) assert.ok(matches(narrowed, text), `${narrowed} keeps ${JSON.stringify(text)}`);
    for (const text of refused) assert.not.ok(matches(narrowed, text), `${narrowed} refuses ${JSON.stringify(text)}`);
  }
  assert.is(textPattern('^[A-Za-z0-9_]+$'), '^[A-Za-z0-9_]+$', 'a pattern that holds no unwritable character is left as it is');
  assert.is(textPattern('^(?!\\.\\.?$)[a-z.]+$'), '^(?!\\.\\.?$)[a-z.]+$');
  assert.throws(() => textPattern('^(?!.*x)[a-z]+$'), /negative lookaround/);
});

test('every pattern of every resource refuses each unwritable character wherever it stands, and keeps what it matched', () => {
  let total = 0;
  for (let index = 0; ; index++) {
    let source: string;
    try {
      source = pattern(index);
    } catch {
      break;
    }
    if (source === undefined) break;
    total++;
    const generator = new RandExp(new RegExp(source, 'u'));
    generator.max = 4;
    let seed = index;
    generator.randInt = (a, b) => a + ((seed = (seed * 1103515245 + 12345) % 2147483648) % (b - a + 1));
    for (let sample = 0; sample < 8; sample++) {
      const text = generator.gen();
      if (!matches(source, text)) continue;
      for (const character of UNWRITABLE) {
        const at = seed % (text.length + 1);
        const broken = text.slice(0, at) + character + text.slice(at);
        assert.not.ok(matches(source, broken), `${source} takes ${JSON.stringify(broken)}`);
      }
    }
  }
  assert.ok(total > 100, `${total} patterns`);
});

test('every string a resource takes has a pattern: its own narrowed, or the text rule', async () => {
  const strings: string[] = [];
  const visit = (schema: JsonSchema, where: string): void => {
    if (schema === null || typeof schema !== 'object') return;
    if ([schema.type].flat().includes('string') && schema.enum === undefined && schema.const === undefined) {
      strings.push(where);
      assert.type(schema.pattern, 'string', where);
      for (const character of UNWRITABLE) assert.not.ok(matches(schema.pattern as string, `a${character}`), `${where}: ${character}`);
    }
    if (schema.items) visit(schema.items as JsonSchema, `${where}[]`);
    for (const branch of (schema.anyOf ?? []) as JsonSchema[]) visit(branch, where);
  };
  // A read-only view takes no request.
  for (const { definition } of (await loadResources()).filter(({ definition }) => definition.kind !== 'view')) {
    for (const [name, member] of Object.entries(docOf(definition).members)) {
      if ('fields' in member) for (const [inner, field] of Object.entries(member.fields)) visit(field.schema, `${definition.path} ${name}.${inner}`);
      else visit(member.schema, `${definition.path} ${name}`);
    }
  }
  assert.ok(strings.length > 300, `${strings.length} strings`);
});

test.run();
