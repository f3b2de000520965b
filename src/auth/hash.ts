import { hash as sha256 } from '@stablelib/sha256';

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
