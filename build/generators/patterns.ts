// The patterns of every resource, kept once: one generated module spells them with shared parts
// (bytes, IPv4, IPv6, 32-bit numbers), and the docs refer to them by index.

export function patterns(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([key, value]) => (key === 'pattern' && typeof value === 'string' ? [value] : patterns(value)));
}

/** The parenthesized groups of a regular expression source, or of a piece of one. */
function regexGroups(source: string): string[] {
  const groups: string[] = [];
  const starts: number[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const character = source[i];
    if (character === '\\') i++;
    else if (inClass) inClass = character !== ']';
    else if (character === '[') inClass = true;
    else if (character === '(') starts.push(i);
    else if (character === ')' && starts.length) groups.push(source.slice(starts.pop(), i + 1));
  }
  return groups;
}

/** Literal text, or a shared part by its index. */
type Piece = string | { part: number };
// A shorter group saves less than its constant costs.
const MIN_PART_LENGTH = 16;

/**
 * The patterns spelled with shared parts, for patterns that repeat long groups (bytes, IPv4, IPv6,
 * 32-bit numbers): the longest group that recurs in the literal text becomes a part, until none does.
 */
function patternParts(sources: string[]): { parts: Piece[][]; spelled: Piece[][] } {
  let parts: Piece[][] = [];
  let spelled: Piece[][] = sources.map((source) => [source]);
  for (;;) {
    const seen = new Set<string>();
    let recurring = '';
    for (const text of [...spelled, ...parts].flat()) {
      if (typeof text !== 'string') continue;
      for (const group of regexGroups(text)) {
        if (seen.has(group) && group.length >= MIN_PART_LENGTH && group.length > recurring.length) recurring = group;
        seen.add(group);
      }
    }
    if (!recurring) return { parts, spelled };
    const part = parts.length;
    const spellWithPart = (text: string): Piece[] => text.split(recurring).flatMap((between, i): Piece[] => (i ? [{ part }, between] : [between]));
    const split = (pieces: Piece[]) => pieces.flatMap((piece) => (typeof piece === 'string' ? spellWithPart(piece) : [piece])).filter((piece) => piece !== '');
    spelled = spelled.map(split);
    parts = [...parts.map(split), [recurring]];
  }
}

/**
 * `src/generated/patterns.ts`: `pattern(index)`, every pattern of every resource, spelled from shared
 * parts in JSON text (a piece is literal text, or a part by its number), which costs a router far
 * less to parse than the same concatenations as code. A pattern is spelled when first asked for: a
 * write needs only its resource's few of them.
 */
export function patternsModule(header: string, sources: string[]): string {
  const { parts, spelled } = patternParts(sources);
  const pieces = (list: Piece[]) => list.map((piece) => (typeof piece === 'string' ? piece : piece.part));
  const data = JSON.stringify({ parts: parts.map(pieces), patterns: spelled.map(pieces) });
  return [
    header,
    `const { parts, patterns }: { parts: (string | number)[][]; patterns: (string | number)[][] } = JSON.parse(${JSON.stringify(data)});`,
    'const spelled = new Map<(string | number)[], string>();',
    'const spell = (pieces: (string | number)[]): string => {',
    '  let text = spelled.get(pieces);',
    '  if (text === undefined) spelled.set(pieces, (text = pieces.map((piece) => (typeof piece === \'number\' ? spell(parts[piece]) : piece)).join(\'\')));',
    '  return text;',
    '};',
    '',
    'export const pattern = (index: number): string => spell(patterns[index]);',
    '',
  ].join('\n');
}

/** The schema with each pattern replaced by its index, as the docs carry it. */
export function indexedPatterns<T>(schema: T, index: Map<string, number>): T {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => indexedPatterns(item, index)) as T;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) result[key] = key === 'pattern' && typeof value === 'string' ? index.get(value) : indexedPatterns(value, index);
  return result as T;
}
