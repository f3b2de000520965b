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

// The generated text's marks: ENTRY ends a part or a pattern, PART and one character (its number
// past FIRST_PART) stand for a part. No pattern holds a control character; the generator checks.
const ENTRY = '\n';
const PART = '\x01';
const FIRST_PART = 0x20;

/**
 * `src/generated/patterns.ts`: `pattern(index)`, every pattern of every resource, spelled from shared
 * parts. They lie in one string, the parts first, which a router tokenizes and splits for a quarter
 * of what parsing them as JSON costs. A pattern is spelled when first asked for: a write needs only
 * its resource's few of them.
 */
export function patternsModule(header: string, sources: string[]): string {
  const { parts, spelled } = patternParts(sources);
  const controls = sources.filter((source) => /[\0-\x1f]/.test(source));
  if (controls.length) throw new Error(`patterns hold control characters: ${controls.join(', ')}`);
  if (FIRST_PART + parts.length > 0x7f) throw new Error(`${parts.length} shared parts: more than one ASCII character can number`);
  const text = (list: Piece[]) => list.map((piece) => (typeof piece === 'string' ? piece : PART + String.fromCharCode(FIRST_PART + piece.part))).join('');
  return [
    header,
    `const entries = ${JSON.stringify([...parts, ...spelled].map(text).join(ENTRY))}.split(${JSON.stringify(ENTRY)});`,
    'const spelled = new Map<number, string>();',
    'const spell = (entry: number): string => {',
    '  let text = spelled.get(entry);',
    `  if (text === undefined) spelled.set(entry, (text = entries[entry].replace(/\\x01([^])/g, (_, part: string) => spell(part.charCodeAt(0) - ${FIRST_PART}))));`,
    '  return text;',
    '};',
    '',
    `export const pattern = (index: number): string => spell(${parts.length} + index);`,
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
