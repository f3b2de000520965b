const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_TIME = 2 ** 48 - 1;

/** A ULID: 10 Crockford base32 characters of the 48-bit millisecond time, then 16 of 10 random bytes. */
export function ulid(nowMs: number, random: Uint8Array): string {
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_TIME) throw new RangeError(`ULID time out of range: ${nowMs}`);
  if (random.length !== 10) throw new RangeError(`expected 10 random bytes, got ${random.length}`);
  let time = '';
  for (let rest = nowMs, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  let randomPart = '';
  let bits = 0;
  let pending = 0;
  for (const byte of random) {
    pending = (pending << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      randomPart += CROCKFORD[(pending >> bits) & 31];
    }
    pending &= (1 << bits) - 1;
  }
  return time + randomPart;
}
