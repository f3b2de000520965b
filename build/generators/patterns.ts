// Shrinks ajv's code for a router that compiles a validator on every write: the patterns spelled
// with shared parts, and the members the engine never reads dropped.

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

const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

/**
 * ajv's code made smaller for a router that parses a validator on every write. Each pattern, which
 * ajv writes into the RegExp, every error's params and the schema constant, becomes one constant
 * built from shared parts. The members the engine never reads go: errors' `schemaPath`, and the
 * `parentData`, `parentDataProperty` and `rootData` of a call, which only `$data` and recursive
 * references use.
 */
export function slimmed(code: string, sources: string[]): string {
  const { parts, spelled } = patternParts(sources);
  const spell = (pieces: Piece[]) => pieces.map((piece) => (typeof piece === 'string' ? JSON.stringify(piece) : `patternPart${piece.part}`)).join(' + ');
  // A part refers only to parts found after it.
  const declarations = [
    ...parts.map((pieces, part) => `const patternPart${part} = ${spell(pieces)};\n`).reverse(),
    ...spelled.map((pieces, index) => `const patternSource${index} = ${spell(pieces)};\n`),
  ];
  const constants = new Map(sources.map((source, index) => [JSON.stringify(source), `patternSource${index}`]));
  const slim = code
    // A literal before `:` is an object key, which must stay one.
    .replace(STRING_LITERAL, (literal: string, offset: number) => (code[offset + literal.length] === ':' ? literal : constants.get(literal) ?? literal))
    .replace(/schemaPath:"(?:[^"\\]|\\.)*",/g, '')
    .replace(/,parentData:\w+,parentDataProperty:(?:\w+|"(?:[^"\\]|\\.)*"),rootData\}/g, '}')
    .replace(/\{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}/g, '{instancePath=""}={}');
  const left = /schemaPath|parentData|rootData/.exec(slim);
  if (left) throw new Error(`ajv's code still holds ${left[0]}: its output changed, or a keyword reads it`);
  return declarations.join('') + slim;
}
