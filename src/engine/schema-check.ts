// The JSON Schema subset the resources' request schemas use, interpreted: a write checks its body
// against the same compact doc the OpenAPI document is built from, so no resource ships validator
// code. The build refuses a definition whose schema uses a keyword outside this subset
// (SCHEMA_KEYWORDS), and a unit test holds the verdicts to ajv's on random bodies.
import type { Json, JsonSchema, SchemaError } from '../resources/model.js';

/** Every keyword `schemaCheck` applies; the others that may appear only describe. */
export const SCHEMA_KEYWORDS = [
  'type', 'enum', 'const', 'anyOf', 'not', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'items', 'minItems',
  'maxItems', 'properties', 'required', 'additionalProperties',
];

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

function hasType(schema: JsonSchema, value: unknown): boolean {
  const { type } = schema;
  if (type === undefined) return true;
  const actual = typeOf(value);
  const types = typeof type === 'string' ? [type] : (type as string[]);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

// Code points, as JSON Schema counts a string's length (a surrogate pair is one character).
function length(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit < 0xdc00) count--;
  }
  return count;
}

// QuickJS compiles a regular expression each time one is built: a request builds each at most once,
// kept by the doc's index of its pattern where it has one (hashing the source is thousands of instructions).
const compiled = new Map<string | number, RegExp>();

function matches(key: string | number, source: string, text: string): boolean {
  let regexp = compiled.get(key);
  if (!regexp) compiled.set(key, (regexp = new RegExp(source, 'u')));
  return regexp.test(text);
}

// A function of the module, not a closure of each call: schemaCheck runs for every value of a body.
function fail(errors: SchemaError[], instancePath: string, keyword: string, params: Record<string, unknown>): void {
  errors.push({ instancePath, keyword, params });
}

/**
 * The errors of `value` against `schema`, in ajv's shape. `pattern` resolves a pattern given as
 * an index (as the generated docs hold them). A value of the wrong type gets its type error alone;
 * a value that fails `anyOf` gets the errors of the one branch of its type, or else `anyOf`.
 */
export function schemaCheck(schema: JsonSchema, value: unknown, pattern: (index: number) => string, path = '', errors: SchemaError[] = []): SchemaError[] {
  if (!hasType(schema, value)) {
    fail(errors, path, 'type', { type: schema.type });
    return errors;
  }
  if (schema.enum && !(schema.enum as Json[]).includes(value as Json)) fail(errors, path, 'enum', { allowedValues: schema.enum });
  if ('const' in schema && schema.const !== value) fail(errors, path, 'const', { allowedValue: schema.const });
  if (schema.anyOf) {
    const branches = schema.anyOf as JsonSchema[];
    if (!branches.some((branch) => !schemaCheck(branch, value, pattern, path).length)) {
      const typed = branches.filter((branch) => hasType(branch, value));
      if (typed.length === 1) schemaCheck(typed[0], value, pattern, path, errors);
      else fail(errors, path, 'anyOf', {});
    }
  }
  if (schema.not && !schemaCheck(schema.not as JsonSchema, value, pattern, path).length) fail(errors, path, 'not', {});
  if (typeof value === 'string') {
    const source = typeof schema.pattern === 'number' ? pattern(schema.pattern) : (schema.pattern as string | undefined);
    if (schema.minLength !== undefined && length(value) < (schema.minLength as number)) fail(errors, path, 'minLength', { limit: schema.minLength });
    if (schema.maxLength !== undefined && length(value) > (schema.maxLength as number)) fail(errors, path, 'maxLength', { limit: schema.maxLength });
    if (source !== undefined && !matches(schema.pattern as string | number, source, value)) fail(errors, path, 'pattern', { pattern: source });
  } else if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < (schema.minimum as number)) fail(errors, path, 'minimum', { comparison: '>=', limit: schema.minimum });
    if (schema.maximum !== undefined && value > (schema.maximum as number)) fail(errors, path, 'maximum', { comparison: '<=', limit: schema.maximum });
  } else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < (schema.minItems as number)) fail(errors, path, 'minItems', { limit: schema.minItems });
    if (schema.maxItems !== undefined && value.length > (schema.maxItems as number)) fail(errors, path, 'maxItems', { limit: schema.maxItems });
    if (schema.items) value.forEach((item, index) => schemaCheck(schema.items as JsonSchema, item, pattern, `${path}/${index}`, errors));
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    // In ajv's order: missing members, unknown ones, then each known one in the schema's order.
    for (const name of (schema.required ?? []) as string[]) if (object[name] === undefined) fail(errors, path, 'required', { missingProperty: name });
    if (schema.additionalProperties === false) {
      for (const name in object) if (!Object.prototype.hasOwnProperty.call(properties, name)) fail(errors, path, 'additionalProperties', { additionalProperty: name });
    }
    for (const name in properties) {
      if (object[name] !== undefined) schemaCheck(properties[name], object[name], pattern, `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, errors);
    }
  }
  return errors;
}
