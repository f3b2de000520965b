// SHA-256 (FIPS 180-4) in a few hundred bytes: every authenticated request compiles this module, and
// a library's unrolled rounds cost more to compile than the one or two hashes a request computes.
let ROUND_CONSTANTS: number[] | undefined;
let INITIAL_STATE: number[] = [];

// The first 32 bits of the fractional parts of the square roots of the first 8 primes (the initial
// state) and of the cube roots of the first 64 (the round constants), as the standard defines them.
function constants(): number[] {
  if (ROUND_CONSTANTS) return ROUND_CONSTANTS;
  const rounds: number[] = [];
  for (let n = 2; rounds.length < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
    if (!prime) continue;
    if (INITIAL_STATE.length < 8) INITIAL_STATE.push(((Math.sqrt(n) % 1) * 2 ** 32) | 0);
    rounds.push(((Math.cbrt(n) % 1) * 2 ** 32) | 0);
  }
  return (ROUND_CONSTANTS = rounds);
}

const rotate = (word: number, bits: number) => (word >>> bits) | (word << (32 - bits));

export function sha256(message: Uint8Array): Uint8Array {
  const k = constants();
  const padded = new Uint8Array((message.length + 72) & ~63);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(message.length / 2 ** 29));
  view.setUint32(padded.length - 4, message.length << 3);
  const state = INITIAL_STATE.slice();
  const w = new Int32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 64; i++) {
      if (i < 16) w[i] = view.getInt32(block + 4 * i);
      else {
        const x = w[i - 15];
        const y = w[i - 2];
        w[i] = w[i - 16] + (rotate(x, 7) ^ rotate(x, 18) ^ (x >>> 3)) + w[i - 7] + (rotate(y, 17) ^ rotate(y, 19) ^ (y >>> 10));
      }
    }
    let [a, b, c, d, e, f, g, h] = state;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i]) | 0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
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

export function sha256Hex(text: string): string {
  return hex(sha256(utf8Bytes(text)));
}

/** The stored hash of a bearer: SHA-256 of `<salt>:<bearer>`, lowercase hex. */
export function hashBearer(salt: string, bearer: string): string {
  return sha256Hex(`${salt}:${bearer}`);
}

/** Compares without an early exit, so the time taken does not reveal where two hashes differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
