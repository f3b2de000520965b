import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeUtf8 } from '../../src/http/utf8.js';

// Node's fatal TextDecoder is strict RFC 3629 UTF-8: the decoder must agree with it on every input.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const reference = (bytes: Uint8Array) => {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
};

test('well-formed text decodes exactly, one to four bytes a character', () => {
  const text = 'ascii é € 😀 \u0000 \u07ff \u0800 \uffff \u{10000} \u{10ffff}';
  assert.is(decodeUtf8(Buffer.from(text)), text);
  assert.is(decodeUtf8(new Uint8Array()), '');
  const long = 'x€😀'.repeat(5000);
  assert.is(decodeUtf8(Buffer.from(long)), long);
});

test('overlong forms, surrogates, code points past U+10FFFF, stray and missing continuation bytes are refused', () => {
  for (const hex of ['c0ae', 'c1bf', 'e080af', 'f08282ac', 'eda080', 'edbfbf', 'f4908080', 'f5808080', 'fe', 'ff', '80', 'bf', 'c3', 'e282', 'f09f98', 'c328', 'e228a1', 'f0288cbc']) {
    assert.is(decodeUtf8(Buffer.from(hex, 'hex')), undefined, hex);
  }
});

test('random bytes: the same verdict and text as a strict decoder', () => {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  for (let round = 0; round < 5000; round++) {
    const bytes = Uint8Array.from({ length: next() % 12 }, () => (next() < 96 ? next() & 0x7f : 0x80 | next()));
    assert.is(decodeUtf8(bytes), reference(bytes), Buffer.from(bytes).toString('hex'));
  }
});

test.run();
