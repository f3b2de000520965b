// SSH public keys for the authorized-keys tests, made with node's crypto as ssh-keygen lays them out
// (RFC 4253 6.6, RFC 8709, RFC 5656, OpenSSH PROTOCOL.u2f), and their ids and fingerprints as
// ssh-keygen -l computes them.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';

const wireString = (bytes: Buffer | string) => {
  const data = Buffer.from(bytes);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
};

/** An mpint: big-endian, no leading zero bytes, and one when the high bit is set. */
const mpint = (bytes: Buffer) => {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return wireString(trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
};

const jwk = (key: KeyObject) => key.export({ format: 'jwk' }) as Record<string, string>;
const bytes = (base64url: string) => Buffer.from(base64url, 'base64url');

/** The base64 blob of a fresh key of the type (`bits` for RSA). */
export function sshKey(type: string, bits = 2048): string {
  const parts = [wireString(type)];
  if (type.includes('ed25519')) {
    parts.push(wireString(bytes(jwk(generateKeyPairSync('ed25519').publicKey).x)));
  } else if (type === 'ssh-rsa') {
    const { e, n } = jwk(generateKeyPairSync('rsa', { modulusLength: bits }).publicKey);
    parts.push(mpint(bytes(e)), mpint(bytes(n)));
  } else {
    const curve = /nistp(\d+)/.exec(type)![1];
    const { x, y } = jwk(generateKeyPairSync('ec', { namedCurve: `P-${curve}` }).publicKey);
    parts.push(wireString(`nistp${curve}`), wireString(Buffer.concat([Buffer.from([4]), bytes(x), bytes(y)])));
  }
  if (type.startsWith('sk-')) parts.push(wireString('ssh:'));
  return Buffer.concat(parts).toString('base64');
}

/** A blob of the given wire strings, for keys no generator makes (a short RSA modulus, a mislabelled type). */
export function blobOf(...strings: (Buffer | string)[]): string {
  return Buffer.concat(strings.map(wireString)).toString('base64');
}

export function idOf(key: string): string {
  return createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 16);
}

export function fingerprintOf(key: string): string {
  return `SHA256:${createHash('sha256').update(Buffer.from(key, 'base64')).digest('base64').replace(/=+$/, '')}`;
}
