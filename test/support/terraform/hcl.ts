// The part of HCL a README configuration uses: blocks with labels, attributes holding strings,
// numbers, booleans, lists, objects, and references (`var.x`, `uapi_network_interface.wg0.id`),
// which stay unresolved until the resource they name is applied.
import type { Json } from '../../../src/resources/model.js';

export interface Reference {
  reference: string[];
}
export type Value = Json | Reference | Value[] | { [key: string]: Value };

export interface Block {
  type: string;
  labels: string[];
  body: Record<string, Value>;
  blocks: Block[];
}

const TOKEN = /\s*(?:#[^\n]*|\/\/[^\n]*|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)|([{}[\]=,\n]))/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      if (/^\s*$/.test(text.slice(start))) break;
      throw new Error(`HCL: unexpected text at ${JSON.stringify(text.slice(start, start + 20))}`);
    }
    const token = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (token !== undefined) tokens.push(token);
  }
  return tokens;
}

export function parseHcl(text: string): Block[] {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const skipNewlines = () => {
    while (peek() === '\n' || peek() === ',') at++;
  };
  function value(): Value {
    skipNewlines();
    const token = next();
    if (token.startsWith('"')) return JSON.parse(token) as string;
    if (/^-?\d/.test(token)) return Number(token);
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (token === '[') {
      const items: Value[] = [];
      for (skipNewlines(); peek() !== ']'; skipNewlines()) items.push(value());
      next();
      return items;
    }
    if (token === '{') return body(true).body;
    return { reference: token.split('.') };
  }
  function body(object = false): { body: Record<string, Value>; blocks: Block[] } {
    const result: Record<string, Value> = {};
    const blocks: Block[] = [];
    for (skipNewlines(); peek() !== '}'; skipNewlines()) {
      const name = next();
      if (peek() === '=') {
        next();
        result[name] = value();
        continue;
      }
      if (object) throw new Error(`HCL: ${name} in an object needs =`);
      const labels: string[] = [];
      while (peek() !== '{') labels.push(JSON.parse(next()) as string);
      next();
      const inner = body();
      blocks.push({ type: name, labels, ...inner });
    }
    next();
    return { body: result, blocks };
  }
  tokens.push('}');
  return body().blocks;
}

/** A value with its references resolved by `lookup`; throws on a reference it cannot resolve. */
export function resolve(value: Value, lookup: (reference: string[]) => Json | undefined): Json {
  if (value !== null && typeof value === 'object' && 'reference' in value && Array.isArray(value.reference)) {
    const found = lookup(value.reference as string[]);
    if (found === undefined) throw new Error(`HCL: ${(value.reference as string[]).join('.')} names nothing applied`);
    return found;
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, lookup));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner, lookup)]));
  return value;
}
