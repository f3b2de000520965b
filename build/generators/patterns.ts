// The patterns of every resource, kept once: one generated module spells them with shared parts
// (bytes, IPv4, IPv6, 32-bit numbers), and the docs refer to them by index.
import { TEXT_PATTERN, UNWRITABLE_PARTS } from '../../src/http/text.js';

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
    // A split and a loop: QuickJS's replace with a callback costs about five times as much.
    'const spell = (entry: number): string => {',
    '  let text = spelled.get(entry);',
    '  if (text === undefined) {',
    `    const pieces = entries[entry].split(${JSON.stringify(PART)});`,
    '    text = pieces[0];',
    `    for (let i = 1; i < pieces.length; i++) text += spell(pieces[i].charCodeAt(0) - ${FIRST_PART}) + pieces[i].slice(1);`,
    '    spelled.set(entry, text);',
    '  }',
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

// One of each run of unwritable characters, by part of UNWRITABLE_PARTS: an atom that matches none
// of a part's matches none of its characters.
const UNWRITABLE_SAMPLES = [['\x00', '\x01', '\x08', '\x0b', '\x0c', '\x0e', '\x1f'], ['\ud800', '\udfff']];
/** The parts of the unwritable characters the atom matches, as the inside of a class. */
const unwritableIn = (atom: string) =>
  UNWRITABLE_PARTS.filter((_, part) => UNWRITABLE_SAMPLES[part].some((sample) => new RegExp(`^${atom}$`, 'u').test(sample))).join('');

/**
 * The pattern narrowed to text a configuration file can hold (src/http/text.ts), so that a value the
 * document calls valid is never refused for an unwritable character: a negated class, `\S`, `\W`,
 * `\D` and `.` leave those characters out too, and another class that holds one (`\s` holds VT and
 * FF) is preceded by a lookahead that refuses them. Inside a negative lookaround a narrower atom
 * would widen the pattern: a definition that needs one there is fixed by hand.
 */
export function textPattern(source: string): string {
  let result = '';
  const negative: boolean[] = [];
  const narrowed = (atom: string): string => {
    const matched = unwritableIn(atom);
    if (!matched) return atom;
    if (negative.includes(true)) throw new Error(`pattern ${source}: ${atom} inside a negative lookaround can match an unwritable character`);
    if (atom === '.') return `[^\\n\\r\\u2028\\u2029${matched}]`;
    if (/^\\[SWD]$/.test(atom)) return `[^\\${atom[1].toLowerCase()}${matched}]`;
    // First in the class, where no neighbour makes a range of their ends; after a leading `-`, which
    // is literal only there (QuickJS 2021 refuses it escaped).
    if (atom.startsWith('[^-')) return `[^-${matched}${atom.slice(3)}`;
    if (atom.startsWith('[^')) return `[^${matched}${atom.slice(2)}`;
    return `(?:(?![${matched}])${atom})`;
  };
  for (let i = 0; i < source.length; i++) {
    const character = source[i];
    if (character === '\\') {
      const escaped = source[++i];
      result += 'SWDswd'.includes(escaped) ? narrowed(`\\${escaped}`) : `\\${escaped}`;
    } else if (character === '[') {
      let end = i + 1;
      if (source[end] === '^') end++;
      if (source[end] === ']') end++;
      while (source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
      result += narrowed(source.slice(i, end + 1));
      i = end;
    } else if (character === '.') {
      result += narrowed('.');
    } else {
      if (character === '(') negative.push(source.startsWith('(?!', i) || source.startsWith('(?<!', i));
      else if (character === ')') negative.pop();
      result += character;
    }
  }
  // Throws here, at build time, on a pattern the narrowing broke.
  new RegExp(result, 'u');
  return result;
}

/**
 * A field's schema with every string it takes held to the text rule (src/http/text.ts): its pattern
 * narrowed, or the rule's own pattern where it had none. Values of an enum or const are the
 * definition's, and a `not` is left alone, as narrowing inside it would widen the schema.
 */
export function textSchema<T>(schema: T): T {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(textSchema) as T;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) result[key] = key === 'not' || (key === 'pattern' && typeof value === 'string') ? value : textSchema(value);
  const types = [result.type].flat();
  if (types.includes('string') && result.enum === undefined && result.const === undefined) {
    result.pattern = typeof result.pattern === 'string' ? textPattern(result.pattern) : TEXT_PATTERN;
  }
  return result as T;
}
