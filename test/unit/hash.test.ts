import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { etagOf, hash64 } from '../../src/engine/etag.js';
import { constantTimeEqual, hashBearer, hex, sha256, sha256Hex, utf8Bytes } from '../../src/auth/hash.js';
import { newBearer, newSalt } from '../../src/auth/token-admin.js';

/** Ports without a native SHA-256: auth/hash.ts computes it. */
const WITHOUT_NATIVE = {};

test('SHA-256 NIST vectors', () => {
  assert.is(sha256Hex(WITHOUT_NATIVE, ''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.is(sha256Hex(WITHOUT_NATIVE, 'abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.is(
    sha256Hex(WITHOUT_NATIVE, 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
  assert.is(
    sha256Hex(WITHOUT_NATIVE, 
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    ),
    'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
  );
  assert.is(sha256Hex(WITHOUT_NATIVE, 'a'.repeat(1000000)), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
});

test('SHA-256 agrees with Node on every length across the padding boundaries', () => {
  for (let length = 0; length <= 300; length++) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 131 + length * 7) & 255);
    assert.is(hex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'), `length ${length}`);
  }
});

test('SHA-256 of non-ASCII text hashes its UTF-8 bytes', () => {
  for (const text of ['héllo', '€uro', '日本語', '😀 emoji', 'x\u0000y']) {
    assert.is(sha256Hex(WITHOUT_NATIVE, text), createHash('sha256').update(text, 'utf8').digest('hex'), text);
  }
});

test('utf8Bytes agrees with Node, lone surrogates included', () => {
  for (const text of ['', 'abc', 'é', '\u07ff', '\u0800', '€', '\uffff', '😀', '\ud800', '\udc00x', 'a\ud83d', '\ud83d\ud83d\ude00', '\u0000']) {
    assert.equal(Array.from(utf8Bytes(text)), Array.from(Buffer.from(text, 'utf8')), JSON.stringify(text));
  }
  assert.equal(Array.from(utf8Bytes('😀')), [0xf0, 0x9f, 0x98, 0x80]);
  assert.equal(Array.from(utf8Bytes('\ud800')), [0xef, 0xbf, 0xbd]);
});

test('hex', () => {
  assert.is(hex(new Uint8Array([])), '');
  assert.is(hex(new Uint8Array([0, 1, 15, 16, 127, 128, 255])), '00010f107f80ff');
});

test('hashBearer hashes salt, colon, bearer', () => {
  assert.is(hashBearer(WITHOUT_NATIVE, 's4lt', 'wrtapi_abc'), createHash('sha256').update('s4lt:wrtapi_abc').digest('hex'));
});

test('the ports\' native SHA-256, when offered, hashes the text in place of ours, to the same digits', () => {
  const hashed: string[] = [];
  const native = {
    sha256Hex(text: string) {
      hashed.push(text);
      return createHash('sha256').update(text, 'utf8').digest('hex');
    },
  };
  assert.is(hashBearer(native, 's4lt', 'wrtapi_é'), hashBearer(WITHOUT_NATIVE, 's4lt', 'wrtapi_é'));
  assert.equal(hashed, ['s4lt:wrtapi_é']);
});

test('constantTimeEqual', () => {
  assert.ok(constantTimeEqual('', ''));
  assert.ok(constantTimeEqual('abc', 'abc'));
  assert.not.ok(constantTimeEqual('abc', 'abd'));
  assert.not.ok(constantTimeEqual('abc', 'ab'));
  assert.not.ok(constantTimeEqual('abc', 'abcd'));
  assert.not.ok(constantTimeEqual('a', 'A'));
  assert.not.ok(constantTimeEqual('\u0100', '\u0000'));
});

test('newBearer: 128 bits as wrtapi_ and 32 hex digits', () => {
  const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
  assert.is(newBearer(bytes), 'wrtapi_00112233445566778899aabbccddeeff');
  assert.ok(/^wrtapi_[0-9a-f]{32}$/.test(newBearer(new Uint8Array(16).fill(255))));
  assert.throws(() => newBearer(new Uint8Array(15)), RangeError);
  assert.throws(() => newBearer(new Uint8Array(17)), RangeError);
});

test('newSalt: 14 hex digits, so salt, colon and bearer fit one SHA-256 block', () => {
  const salt = newSalt(new Uint8Array(7).fill(0xab));
  assert.is(salt, 'ab'.repeat(7));
  assert.ok(`${salt}:${newBearer(new Uint8Array(16))}`.length <= 55);
  assert.throws(() => newSalt(new Uint8Array(16)), RangeError);
});

test('etagOf: 64 bits of hex, fixed for a body\'s JSON text, changed by any character of it', () => {
  const body = { id: 'r1', name: 'Allow-SSH', match: { proto: ['tcp'], dest_port: ['22'] } };
  const etag = etagOf({}, JSON.stringify(body));
  assert.match(etag, /^"[0-9a-f]{16}"$/);
  assert.is(etag, '"a7a2ccd90108204c"');
  const seen = new Set([etag]);
  for (const variant of [{ ...body, id: 'r2' }, { ...body, name: 'Allow-SSh' }, { ...body, match: { proto: ['tcp'], dest_port: ['23'] } }, { ...body, name: 'Allow-SSH€' }, {}]) {
    seen.add(etagOf({}, JSON.stringify(variant)));
  }
  assert.is(seen.size, 6);
});

// The digits wrtapi-bytecode's hash64 must give too: packaging/wrtapi-bytecode/cross-check.sh holds
// the C to these, on each router architecture.
test('hash64: the UTF-16 code units, surrogates paired or not, NUL included', () => {
  const expected: [string, string][] = [
    ['', '1aee8d83488bdcb8'],
    ['{"id":"r1"}', 'd38376adbbb67325'],
    ['é ü 中 \u00ff', 'af48799ed2a368d5'],
    ['emoji \u{1f600}!', '4733a6ecefaf1826'],
    ['lone \ud800 and \udfff', 'c942e0d4e730713d'],
    ['nul \u0000 inside', '6efb5ba5a52c2195'],
  ];
  for (const [text, digits] of expected) assert.is(hash64(text), digits, JSON.stringify(text));
});

test('etagOf takes the ports\' native hash64 when they offer one', () => {
  const hashed: string[] = [];
  const etag = etagOf({ hash64: (text) => (hashed.push(text), 'native') }, '{"id":"r1"}');
  assert.is(etag, '"native"');
  assert.equal(hashed, ['{"id":"r1"}']);
});

test.run();
