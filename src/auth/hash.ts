import type { Ports } from '../platform/ports.js';

// SHA-256 (FIPS 180-4) in a few hundred bytes: every authenticated request compiles this module, and
// a library's unrolled rounds cost more to compile than the one or two hashes a request computes.

// The standard's initial state (8 words) and round constants (64): the fractional parts of the
// square and cube roots of the first primes. As hex text: a router compiles a string literal for a
// fraction of an array literal's cost, and deriving them from the primes costs more than a hash.
const CONSTANTS =
  '6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19' +
  '428a2f9871374491b5c0fbcfe9b5dba53956c25b59f111f1923f82a4ab1c5ed5d807aa9812835b01243185be550c7dc372be5d7480deb1fe9bdc06a7c19bf174' +
  'e49b69c1efbe47860fc19dc6240ca1cc2de92c6f4a7484aa5cb0a9dc76f988da983e5152a831c66db00327c8bf597fc7c6e00bf3d5a7914706ca63511429296727' +
  'b70a852e1b21384d2c6dfc53380d13650a7354766a0abb81c2c92e92722c85a2bfe8a1a81a664bc24b8b70c76c51a3d192e819d6990624f40e3585106aa07019' +
  'a4c1161e376c082748774c34b0bcb5391c0cb34ed8aa4a5b9cca4f682e6ff3748f82ee78a5636f84c878148cc7020890befffaa4506cebbef9a3f7c67178f2';

let words: number[] | undefined;

function constants(): number[] {
  if (words) return words;
  words = [];
  for (let i = 0; i < 72; i++) words.push(parseInt(CONSTANTS.slice(8 * i, 8 * i + 8), 16) | 0);
  return words;
}

export function sha256(message: Uint8Array): Uint8Array {
  const k = constants();
  const state = k.slice(0, 8);
  const padded = new Uint8Array((message.length + 72) & ~63);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(message.length / 2 ** 29));
  view.setUint32(padded.length - 4, message.length << 3);
  const w = new Int32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 64; i++) {
      if (i < 16) w[i] = view.getInt32(block + 4 * i);
      else {
        const x = w[i - 15];
        const y = w[i - 2];
        w[i] = w[i - 16] + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[i - 7] + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10));
      }
    }
    let [a, b, c, d, e, f, g, h] = state;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + k[i + 8] + w[i]) | 0;
      const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, h].forEach((word, i) => (state[i] = (state[i] + word) | 0));
  }
  const digest = new DataView(new ArrayBuffer(32));
  state.forEach((word, i) => digest.setInt32(4 * i, word));
  return new Uint8Array(digest.buffer);
}

/** UTF-8 bytes of a string; a lone surrogate becomes U+FFFD, as TextEncoder (absent in QuickJS) does. */
export function utf8Bytes(text: string): Uint8Array {
  // Filled by index: a push per byte costs QuickJS a method call.
  const bytes = new Uint8Array(text.length * 3);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[length++] = code;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x800) {
      bytes[length++] = 0xc0 | (code >> 6);
    } else if (code < 0x10000) {
      bytes[length++] = 0xe0 | (code >> 12);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
    } else {
      bytes[length++] = 0xf0 | (code >> 18);
      bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
    }
    bytes[length++] = 0x80 | (code & 0x3f);
  }
  return bytes.subarray(0, length);
}

export function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += (byte < 16 ? '0' : '') + byte.toString(16);
  return text;
}

/** SHA-256 of the text's UTF-8 bytes, lowercase hex: natively where the ports offer it. */
export function sha256Hex(ports: Pick<Ports, 'sha256Hex'>, text: string): string {
  return ports.sha256Hex ? ports.sha256Hex(text) : hex(sha256(utf8Bytes(text)));
}

/** The stored hash of a bearer: SHA-256 of `<salt>:<bearer>`, lowercase hex. */
export function hashBearer(ports: Pick<Ports, 'sha256Hex'>, salt: string, bearer: string): string {
  return sha256Hex(ports, `${salt}:${bearer}`);
}

/** Compares without an early exit, so the time taken does not reveal where two hashes differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
