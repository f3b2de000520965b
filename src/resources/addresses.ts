// The address and port syntaxes every daemon's options share, as regular expression sources: definitions
// build their patterns from them, and so do the token CIDRs of the OpenAPI document.

// Numbers never have leading zeros: ucode and nft read a leading zero as octal in some versions.
export const BYTE = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
export const PORT_NUMBER = '(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}|0)';

/**
 * The decimal numbers from `min` to `max` (no leading zeros), as one group: for a number whose
 * range a schema's `minimum` and `maximum` cannot state because a string holds it (a lease time's
 * `12h`). Digit by digit: a shared leading digit, then the numbers of the same length between.
 */
/*#__NO_SIDE_EFFECTS__*/
export function numberRange(min: number, max: number): string {
  const digits = (count: number) => (count ? `[0-9]${count > 1 ? `{${count}}` : ''}` : '');
  const between = (low: string, high: string): string[] => {
    if (!low) return [''];
    const rest = low.length - 1;
    if (low[0] === high[0]) return between(low.slice(1), high.slice(1)).map((tail) => low[0] + tail);
    const fromZero = /^0*$/.test(low.slice(1));
    const toNine = /^9*$/.test(high.slice(1));
    const first = Number(low[0]) + (fromZero ? 0 : 1);
    const last = Number(high[0]) - (toNine ? 0 : 1);
    return [
      ...(fromZero ? [] : between(low.slice(1), '9'.repeat(rest)).map((tail) => low[0] + tail)),
      ...(first <= last ? [`${first === last ? first : `[${first}-${last}]`}${digits(rest)}`] : []),
      ...(toNine ? [] : between('0'.repeat(rest), high.slice(1)).map((tail) => high[0] + tail)),
    ];
  };
  const alternatives: string[] = [];
  for (let length = String(min).length; length <= String(max).length; length++) {
    const low = length === String(min).length ? String(min) : `1${'0'.repeat(length - 1)}`;
    const high = length === String(max).length ? String(max) : '9'.repeat(length);
    alternatives.push(...between(low, high));
  }
  return `(${alternatives.reverse().join('|')})`;
}

/** A port a server listens on or is reached at, 1-65535: port 0 binds one the kernel picks, or reaches nothing. */
export const SERVICE_PORT = numberRange(1, 65535);

export const IPV4 = `${BYTE}(\\.${BYTE}){3}`;
export const HEXTET = '[0-9A-Fa-f]{1,4}';
export const IPV6 = `(${[
  `(${HEXTET}:){7}${HEXTET}`,
  `(${HEXTET}:){1,7}:`,
  `(${HEXTET}:){1,6}:${HEXTET}`,
  `(${HEXTET}:){1,5}(:${HEXTET}){1,2}`,
  `(${HEXTET}:){1,4}(:${HEXTET}){1,3}`,
  `(${HEXTET}:){1,3}(:${HEXTET}){1,4}`,
  `(${HEXTET}:){1,2}(:${HEXTET}){1,5}`,
  `${HEXTET}:(:${HEXTET}){1,6}`,
  `:((:${HEXTET}){1,7}|:)`,
  `((${HEXTET}:){6}|::(${HEXTET}:){0,5}|${[1, 2, 3, 4, 5].map((left) => `(${HEXTET}:){${left}}:(${HEXTET}:){0,${5 - left}}`).join('|')})${IPV4}`,
].join('|')})`;
export const PREFIX4 = '(3[0-2]|[12]?[0-9])';
export const PREFIX6 = '(12[0-8]|1[01][0-9]|[1-9]?[0-9])';

/** An address or `address/prefix`, as a token's `allowed_cidrs` takes it (parseCidr). */
export const CIDR = { pattern: `^(${IPV4}(/${PREFIX4})?|${IPV6}(/${PREFIX6})?)$` };
