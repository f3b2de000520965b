// Values generated from JSON Schemas, as a client that builds its requests from /openapi.json would
// build them: seeded, so that a failure replays with the same seed.
import RandExp from 'randexp';

export type Schema = Record<string, any>;

/** mulberry32: a small seeded generator, enough to vary requests and replay them. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}

export type Random = ReturnType<typeof seeded>;

/**
 * A value of a schema whose `$ref`s point into `document`. Strings are drawn now and then from
 * `pool` (values the router already holds, such as zone names), so that references and rules get
 * exercised past their refusals too; any value drawn matches the schema.
 */
export function schemaValue(document: Schema, random: Random, pool: readonly string[], schema: Schema): unknown {
  const resolved = resolve(document, schema);
  if (resolved.enum) return random.pick(resolved.enum);
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (branches) return schemaValue(document, random, pool, random.pick(branches));
  const types: string[] = resolved.type === undefined ? ['string', 'integer', 'boolean'] : [resolved.type].flat();
  const others = types.filter((candidate) => candidate !== 'null');
  const type = !others.length || (types.includes('null') && random.chance(0.15)) ? 'null' : random.pick(others);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return random.chance(0.5);
    case 'integer':
    case 'number': {
      const min = resolved.minimum ?? (resolved.maximum !== undefined ? Math.max(resolved.maximum - 1000, -1000) : -1000);
      const max = resolved.maximum ?? min + 2000;
      return random.chance(0.2) ? random.pick([min, max]) : random.int(min, Math.min(max, min + 2000));
    }
    case 'string':
      return stringValue(random, pool, resolved);
    case 'array': {
      const min = resolved.minItems ?? 0;
      const length = random.int(min, Math.min(resolved.maxItems ?? min + 3, min + 3));
      return Array.from({ length }, () => schemaValue(document, random, pool, resolved.items ?? {}));
    }
    case 'object': {
      const required: string[] = resolved.required ?? [];
      const members: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(resolved.properties ?? {})) {
        if (required.includes(name) || random.chance(0.3)) members[name] = schemaValue(document, random, pool, property as Schema);
      }
      return members;
    }
    default:
      throw new Error(`no values for type ${type}`);
  }
}

/** The document's component schemas, each with its references followed (a request schema is a reference to its patch's). */
export function resolvedSchemas(document: Schema): Record<string, Schema> {
  return Object.fromEntries(Object.entries(document.components.schemas as Record<string, Schema>).map(([name, schema]) => [name, resolve(document, schema)]));
}

/** A schema with its references followed; a reference's siblings (a request's `required`) apply beside its target's. */
export function resolve(document: Schema, schema: Schema): Schema {
  let resolved = schema;
  while (typeof resolved.$ref === 'string') {
    const { $ref, ...siblings } = resolved;
    const target = ($ref as string)
      .slice(2)
      .split('/')
      .reduce((node: Schema, key: string) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    resolved = { ...target, ...siblings };
  }
  return resolved;
}

function stringValue(random: Random, pool: readonly string[], schema: Schema): string {
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const excluded = schema.not?.pattern === undefined ? undefined : new RegExp(schema.not.pattern, 'u');
  const fits = (text: string) =>
    (!pattern || pattern.test(text)) && !excluded?.test(text) && text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
  if (random.chance(0.5)) {
    const known = pool.filter(fits);
    if (known.length) return random.pick(known);
  }
  const generator = new RandExp(schema.pattern ?? `^[a-z0-9_]{${schema.minLength ?? 0},${Math.min(schema.maxLength ?? 12, (schema.minLength ?? 0) + 12)}}$`);
  generator.randInt = random.int;
  generator.max = 4;
  for (let attempt = 0; attempt < 20; attempt++) {
    const text = generator.gen();
    if (fits(text)) return text;
  }
  throw new Error(`no string of length ${schema.minLength ?? 0}-${schema.maxLength ?? '∞'} from /${schema.pattern}/`);
}
