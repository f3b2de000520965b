import { ApiError, type FieldError } from '../http/errors.js';
import type { Json, JsonObject, ResourceEntry, ResourceMapping, RuleContext, JsonSchema, Rules } from '../resources/model.js';
import { pattern } from '../generated/patterns.js';
import { requestSchemas } from '../openapi/request-schemas.js';
import { referenceErrors } from './references.js';
import { schemaFieldErrors } from './schema-errors.js';

/** A body's schema errors as field errors, the patterns of the generated docs resolved. */
export function schemaErrors(schema: JsonSchema, body: Json): FieldError[] {
  return schemaFieldErrors(schema, body, pattern);
}

/** What a body is checked with: the schemas of the resource's doc and the definition's cross-field rules. */
export async function loadChecks(entry: ResourceEntry): Promise<{ full: JsonSchema; patch: JsonSchema; rules?: Rules }> {
  const module = await entry.module();
  const [{ doc }, rules] = await Promise.all([module.doc(), module.rules()]);
  return { ...requestSchemas(doc), rules };
}

/**
 * Schema errors, then the definition's rules and references on the whole merged body, all at once
 * and de-duplicated by field and code, a schema error winning over a rule's. A 422 when any.
 */
export function checkBody(definition: ResourceMapping, rules: Rules | undefined, schema: FieldError[], body: JsonObject, context: RuleContext): void {
  let ruleErrors: FieldError[] = [];
  try {
    ruleErrors = [...(rules?.(body, context) ?? []), ...referenceErrors(definition, body, context)];
  } catch (error) {
    // Rules may assume schema-valid values; when the schema already failed, its errors say why.
    if (!schema.length) throw error;
  }
  const seen = new Set<string>();
  const errors = [...schema, ...ruleErrors].filter((error) => {
    const key = `${error.field}\u0000${error.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (errors.length) throw new ApiError(422, 'validation_failed', `${definition.path}: the body has ${errors.length} invalid field(s)`, { errors });
}
