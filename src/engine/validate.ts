import { type FieldError, type FieldErrorCode } from '../http/errors.js';
import { isUnwritable, UNWRITABLE_MESSAGE } from '../http/text.js';
import { validationFailed } from '../http/validation-failed.js';
import {
  applies,
  isGroup,
  valueAt,
  type Json,
  type MappedField,
  type MappedMember,
  type JsonObject,
  type ResourceEntry,
  type ResourceMapping,
  type RuleContext,
  type JsonSchema,
  type ResourceModule,
  type Rules,
  type SchemaError,
} from '../resources/model.js';
import type { Ports } from '../platform/ports.js';
import type { BodyKind } from '../openapi/request-schemas.js';
import { conflict, given } from '../resources/checks.js';
import { referenceErrors } from './references.js';
import { schemaCheck } from './schema-check.js';

const CODE_OF_KEYWORD: Record<string, FieldErrorCode> = {
  required: 'required',
  additionalProperties: 'unknown_field',
  pattern: 'invalid_format',
  format: 'invalid_format',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  minLength: 'out_of_range',
  maxLength: 'out_of_range',
  minItems: 'out_of_range',
  maxItems: 'out_of_range',
  enum: 'not_in_enum',
  const: 'not_in_enum',
};

const bound = ({ comparison, limit }: SchemaError['params']) => `must be ${comparison} ${limit}`;

/** What is wrong, from the keyword and params. */
const MESSAGE_OF_KEYWORD: Record<string, (params: SchemaError['params']) => string> = {
  required: () => 'is required',
  additionalProperties: () => 'is not a known field',
  type: ({ type }) => `must be ${[type].flat().join(' or ')}`,
  pattern: () => 'must match the expected format',
  format: () => 'must match the expected format',
  minimum: bound,
  maximum: bound,
  exclusiveMinimum: bound,
  exclusiveMaximum: bound,
  minLength: ({ limit }) => `must be at least ${limit} characters`,
  maxLength: ({ limit }) => `must be at most ${limit} characters`,
  minItems: ({ limit }) => `must have at least ${limit} items`,
  maxItems: ({ limit }) => `must have at most ${limit} items`,
  enum: ({ allowedValues }) => `must be one of: ${(allowedValues as Json[]).map(String).join(', ')}`,
  const: ({ allowedValue }) => `must be ${String(allowedValue)}`,
  anyOf: () => 'must match one of the allowed forms',
};

/** `/match/src_port` becomes `match.src_port`, `/dns/0` becomes `dns[0]`. */
function dottedPath(pointer: string, last?: unknown): string {
  const segments = pointer.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof last === 'string') segments.push(last);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

/** A body's schema errors as field errors; a required field sent as null is `required`. */
export function schemaErrors(schema: JsonSchema, body: Json, pattern: (index: number) => string = noPatterns): FieldError[] {
  return schemaCheck(schema, body, pattern).map((error) => {
    const name = error.params.missingProperty ?? error.params.additionalProperty;
    const field = dottedPath(error.instancePath, name);
    const value = valueAt(body, error.instancePath.split('/').slice(1).join('.'));
    const code = error.keyword === 'type' && value === null ? 'required' : CODE_OF_KEYWORD[error.keyword] ?? 'invalid_type';
    // Every pattern refuses what a configuration file cannot hold (http/text.ts): say so when that is why.
    const why = error.keyword === 'pattern' && typeof value === 'string' && isUnwritable(value) ? UNWRITABLE_MESSAGE : MESSAGE_OF_KEYWORD[error.keyword]?.(error.params);
    return { field, code, message: `${field || 'body'} ${why ?? 'is invalid'}` };
  });
}

/** A schema that names no pattern by index (a route's own, not a resource's). */
const noPatterns = (index: number): string => {
  throw new Error(`pattern ${index} named by a schema without the doc's patterns`);
};

/** A body's schema, with what spells each pattern it names by its index in the doc. */
type Checks = { schema: JsonSchema; pattern: (index: number) => string; rules?: Rules };

// Built once per resource and kind in a process: a batch checks many bodies of the same resource.
const checksOf = new Map<string, Promise<Checks>>();

/**
 * What a body of that kind is checked with: its schema from the resource's doc and the definition's
 * cross-field rules. The schema is the same for every request of a build: kept once for all
 * (Ports.derived) with the sources of the patterns it names, it spares a write parsing the doc (a
 * firewall rule's POST 1.2M instructions) and loading the patterns' module (15 KB of bytecode,
 * 0.5M), so it is recalled before anything is loaded to make it.
 */
export function loadChecks(ports: Pick<Ports, 'derived'>, entry: ResourceEntry, kind: BodyKind): Promise<Checks> {
  const key = `${entry.path} ${entry.type} ${kind}`;
  let checks = checksOf.get(key);
  if (!checks) {
    checks = (async () => {
      const module = await entry.module();
      const name = `schema.${entry.path.replace('/', '.')}.${entry.type}.${kind}`;
      // A make that gives undefined keeps nothing: this only recalls.
      const kept = ports.derived?.<KeptSchema>(name, '', () => undefined);
      const checked = kept ? { schema: kept.schema, pattern: (index: number) => kept.patterns[index] } : await madeSchema(ports, name, module, kind);
      return { ...checked, rules: await module.rules() };
    })();
    checksOf.set(key, checks);
  }
  return checks;
}

type KeptSchema = { schema: JsonSchema; patterns: Record<number, string> };

async function madeSchema(ports: Pick<Ports, 'derived'>, name: string, module: ResourceModule, kind: BodyKind): Promise<Omit<Checks, 'rules'>> {
  const [{ pattern }, { requestSchema }, { resourceDoc }] = await Promise.all([
    import('../generated/patterns.js'),
    import('../openapi/request-schemas.js'),
    import('../openapi/resource-doc.js'),
  ]);
  const schema = requestSchema(resourceDoc(module), kind);
  ports.derived?.(name, '', (): KeptSchema => {
    const patterns: Record<number, string> = {};
    // JSON.stringify's replacer is handed every member of the schema, however deep it lies.
    JSON.stringify(schema, (member, value) => {
      if (member === 'pattern' && typeof value === 'number') patterns[value] = pattern(value);
      return value;
    });
    return { schema, patterns };
  });
  return { schema, pattern };
}

/**
 * Schema errors, then the definition's rules and references on the whole merged body, all at once
 * and de-duplicated by field and code, a schema error winning over a rule's. A 422 when any.
 * `stage`, run only when the schema holds (the body can then be written), writes the body into the
 * staged section and answers what only the written section can tell (a read-only field set to a
 * value no read gives).
 */
export function checkBody(definition: ResourceMapping, rules: Rules | undefined, schema: FieldError[], body: JsonObject, context: RuleContext, stage?: () => FieldError[]): void {
  let ruleErrors: FieldError[] = [];
  try {
    ruleErrors = [...(rules?.(body, context) ?? []), ...referenceErrors(definition, body, context)];
    if (definition.strictWhen) {
      for (const name in definition.members) {
        const { when, readOnly } = definition.members[name] as MappedField;
        if (when && !readOnly && !applies(when, body) && given(body, name)) ruleErrors.push(conflict(name, `${name} applies only with ${when.field} ${when.values.join(' or ')}`));
      }
    }
  } catch (error) {
    // Rules may assume schema-valid values; when the schema already failed, its errors say why.
    if (!schema.length) throw error;
  }
  if (!schema.length && stage) ruleErrors.push(...stage());
  const seen = new Set<string>();
  const errors = [...schema, ...ruleErrors].filter((error) => {
    const key = `${error.field}\u0000${error.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (errors.length) throw validationFailed(errors, `${definition.path}: the body`);
}

/**
 * A read-only field (`ipaddr`, a `has_<secret>` flag) sent with a value no read gives is refused, not
 * dropped: a client that sets one learns it did not (spec: `read_only`). The read before the write
 * and the one after it are both tolerated, so a read can be sent back unchanged, and so can a body
 * that already says what the write leads to; null stands for absent. Only the members the body
 * names are looked at: a write pays for what it sends, not for the resource's every field.
 */
export function readOnlyErrors(definition: ResourceMapping, sent: JsonObject, reads: (JsonObject | undefined)[]): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (body: JsonObject, members: Record<string, MappedMember>, prefix: string) => {
    for (const key in body) {
      const flag = key.startsWith('has_');
      const name = flag ? key.slice(4) : key;
      if (!Object.prototype.hasOwnProperty.call(members, name)) continue;
      const member = members[name];
      const value = body[key];
      if (isGroup(member)) {
        if (!flag && value !== null && typeof value === 'object' && !Array.isArray(value)) visit(value as JsonObject, member.fields, `${prefix}${key}.`);
        continue;
      }
      if (flag ? !member.secret : !member.readOnly) continue;
      const path = prefix + key;
      const shown = reads.filter((read): read is JsonObject => read !== undefined).map((read) => valueAt(read, path) ?? null);
      // Read-only fields are scalars or lists: their JSON text decides.
      if (shown.some((read) => JSON.stringify(read) === JSON.stringify(value))) continue;
      const why = flag ? `write or null \`${name}\` to change it` : 'the server computes it';
      errors.push({ field: path, code: 'read_only', message: `${path} is read-only: ${why}${shown.length ? `; it reads ${JSON.stringify(shown[shown.length - 1])}` : ''}` });
    }
  };
  visit(sent, definition.members, '');
  return errors;
}
