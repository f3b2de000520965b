// How uci's blob.c converts an option for a daemon's INT32 attribute (netifd, the wifi scripts): the
// round-trip tests compare files as the daemon reads them, with this as their own reference.

/** strtol(value, &end, 0) when it consumes everything, else undefined: blob.c drops the option. An empty value is 0. */
export function strtol(value: string): number | undefined {
  if (value.trim() === '') return 0;
  const match = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9A-Fa-f]+|0[0-7]*|[1-9][0-9]*)$/.exec(value);
  if (!match) return undefined;
  const [, sign, digits] = match;
  const number = /^0[xX]/.test(digits) ? Number.parseInt(digits.slice(2), 16) : digits.startsWith('0') ? Number.parseInt(digits, 8) : Number(digits);
  return sign === '-' ? -number : number;
}
