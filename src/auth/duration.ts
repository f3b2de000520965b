const SECONDS_PER_UNIT: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `--expires-in N[smhd]`: a positive integer with exactly one unit suffix, in seconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9]\d*)([smhd])$/.exec(text);
  if (match === null) return undefined;
  const seconds = Number(match[1]) * SECONDS_PER_UNIT[match[2]];
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}
