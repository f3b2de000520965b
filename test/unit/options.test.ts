// How the codecs read and write options: the spellings daemons accept, and the forms they read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { boolean, integer, integerOrName, list, UCI_BLOB_BOOLEAN, words } from '../../src/resources/codecs.js';
import { readOption, writeOption } from '../../src/resources/options.js';

test('a C integer reads as strtol(text, 0) does; a plain one reads decimal only', () => {
  const c = integer({}, { c: true }).codec;
  const plain = integer().codec;
  const cases: [string, number | null, number | null][] = [
    ['10', 10, 10],
    ['010', 8, 10],
    ['0x10', 16, null],
    ['0X1f', 31, null],
    ['0', 0, 0],
    [' 7', 7, 7],
    ['-3', -3, -3],
    ['+3', 3, null],
    ['09', null, 9],
    ['1e3', null, null],
    ['12abc', null, null],
    ['', null, null],
  ];
  for (const [text, asC, asPlain] of cases) {
    assert.is(readOption(c, text), asC, `C ${JSON.stringify(text)}`);
    assert.is(readOption(plain, text), asPlain, `plain ${JSON.stringify(text)}`);
  }
  assert.is(writeOption(c, 8), '8', 'writes are decimal');
});

test('a boolean reads a value in neither spelling as null, or as the daemon\'s default', () => {
  const exact = boolean(UCI_BLOB_BOOLEAN).codec;
  const defaultTrue = boolean({ ...UCI_BLOB_BOOLEAN, otherwise: true }).codec;
  assert.equal(['1', 'true', '0', 'false', 'yes'].map((text) => readOption(exact, text)), [true, true, false, false, null]);
  assert.equal(['1', '0', 'yes', 'off'].map((text) => readOption(defaultTrue, text)), [true, false, true, true]);
});

test('lists: read from a list or a split option, written as the daemon reads them', () => {
  const plain = list({}).codec;
  const listOnly = list({}, { listOnly: true }).codec;
  const single = list({}, { singleAsOption: true }).codec;
  const joined = list({}, { joined: true }).codec;
  const whole = list({}, { whole: true }).codec;
  assert.equal(readOption(plain, 'a  b'), ['a', 'b']);
  assert.equal(readOption(plain, undefined), []);
  assert.is(readOption(listOnly, 'a b'), null, 'config_list_foreach ignores a plain option');
  assert.equal(readOption(listOnly, ['a b']), ['a b']);
  assert.equal(writeOption(plain, ['a']), ['a']);
  assert.is(writeOption(single, ['a']), 'a');
  assert.equal(writeOption(single, ['a', 'b']), ['a', 'b']);
  assert.is(writeOption(joined, ['121', '249']), '121 249');
  assert.is(writeOption(joined, []), undefined, 'an empty list removes the option');
  assert.equal(readOption(whole, 'host 1194 udp'), ['host 1194 udp'], 'an option is one item, blanks included');
  assert.equal(readOption(whole, ['a 1', 'b 2']), ['a 1', 'b 2']);
  assert.equal(writeOption(whole, ['a 1']), ['a 1']);
});

test('a number or a name: a decimal reads as an integer, a name as itself', () => {
  const table = integerOrName({ minimum: 0 }, { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }).codec;
  assert.equal(['100', 'main', ' 7', '0x10'].map((text) => readOption(table, text)), [100, 'main', 7, '0x10']);
  assert.is(writeOption(table, 100), '100');
  assert.is(writeOption(table, 'main'), 'main');
});

test('words: one string of space-separated items, read from an option or a list', () => {
  const network = words({ pattern: '^[a-z]+$' }).codec;
  assert.is(readOption(network, 'lan  guest'), 'lan guest');
  assert.is(readOption(network, ['lan', 'guest']), 'lan guest', 'a UCI list reads joined');
  assert.is(readOption(network, undefined), undefined);
  assert.is(writeOption(network, ' lan   guest '), 'lan guest', 'written as one option');
  assert.is(writeOption(network, '  '), undefined, 'no item removes the option');
});

test('separators: snmpd\'s comma-joined option for an array, openvpn\'s colon-joined list for a string', () => {
  const commas = list({}, { joined: ',' }).codec;
  assert.equal(readOption(commas, 'UDP:161,UDP6:161'), ['UDP:161', 'UDP6:161']);
  assert.equal(readOption(commas, 'unix:/a b'), ['unix:/a b'], 'blanks are no separator');
  assert.is(writeOption(commas, ['UDP:161', 'UDP6:161']), 'UDP:161,UDP6:161');
  assert.is(writeOption(commas, []), undefined);
  const ciphers = words({ pattern: '^[A-Z0-9-]+$' }, ':');
  assert.is(ciphers.schema.pattern, '^(?:[A-Z0-9-]+)(:(?:[A-Z0-9-]+))*$');
  assert.is(readOption(ciphers.codec, ['AES-256-GCM', 'CHACHA20-POLY1305']), 'AES-256-GCM:CHACHA20-POLY1305', 'the list append_list joins');
  assert.is(readOption(ciphers.codec, 'AES-256-GCM'), null, 'config_list_foreach ignores a plain option');
  assert.equal(writeOption(ciphers.codec, 'AES-256-GCM:CHACHA20-POLY1305'), ['AES-256-GCM', 'CHACHA20-POLY1305'], 'written as a UCI list');
  assert.is(writeOption(ciphers.codec, ''), undefined, 'no item: the write removes the option');
});

test.run();
