import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ulid } from '../../src/platform/ulid.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const zeros = new Uint8Array(10);

function decodeRandom(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) value = value * 32n + BigInt(CROCKFORD.indexOf(char));
  return Uint8Array.from({ length: 10 }, (_, i) => Number((value >> BigInt(8 * (9 - i))) & 0xffn));
}

test('time part: known vectors', () => {
  assert.is(ulid(0, zeros), '00000000000000000000000000');
  assert.is(ulid(1469918176385, zeros).slice(0, 10), '01ARYZ6S41');
  assert.is(ulid(2 ** 48 - 1, zeros).slice(0, 10), '7ZZZZZZZZZ');
  assert.is(ulid(1, zeros).slice(0, 10), '0000000001');
  assert.is(ulid(32, zeros).slice(0, 10), '0000000010');
  assert.is(ulid(1700000000000, zeros).slice(0, 10), '01HF7YAT00');
});

test('random part: 80 bits big-endian in 16 characters', () => {
  assert.is(ulid(0, new Uint8Array(10).fill(255)).slice(10), 'ZZZZZZZZZZZZZZZZ');
  assert.is(ulid(0, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 1])).slice(10), '0000000000000001');
  assert.is(ulid(0, Uint8Array.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0])).slice(10), 'G000000000000000');
  assert.is(ulid(1469918176385, decodeRandom('TSV4RRFFQ69G5FAV')), '01ARYZ6S41TSV4RRFFQ69G5FAV');
});

test('always 26 Crockford characters, sorting by time', () => {
  const earlier = ulid(1700000000000, new Uint8Array(10).fill(255));
  const later = ulid(1700000000001, zeros);
  assert.ok(/^[0-9A-HJKMNP-TV-Z]{26}$/.test(earlier));
  assert.ok(earlier < later);
});

test('rejects an out-of-range time or the wrong amount of randomness', () => {
  assert.throws(() => ulid(-1, zeros), RangeError);
  assert.throws(() => ulid(2 ** 48, zeros), RangeError);
  assert.throws(() => ulid(1.5, zeros), RangeError);
  assert.throws(() => ulid(Number.NaN, zeros), RangeError);
  assert.throws(() => ulid(0, new Uint8Array(9)), RangeError);
  assert.throws(() => ulid(0, new Uint8Array(11)), RangeError);
});

test.run();
