import type { FieldError } from '../http/errors.js';
import { applyMergePatch, jsonEqual } from './json-values.js';
import { isGroup, type Json, type JsonObject, type ResourceMapping } from '../resources/model.js';
import { viewOf } from './read.js';
import { referrersOf } from './references.js';
import type { Written } from './transaction.js';
import { checkBody, loadChecks, readOnlyErrors, schemaErrors } from './validate.js';
import { forEachField, stagedSection, transact, completed, withoutFrameworkMembers, withPathWarning, writeFields, type Target } from './write.js';
import { checkPreconditions } from './etag.js';

/** The request's value at a dotted path: null when it sets the path or a group holding it to null. */
function namedAt(named: JsonObject, path: string): Json | undefined {
  let value: Json | undefined = named;
  for (const name of path.split('.')) {
    if (value === null) return null;
    value = typeof value === 'object' && !Array.isArray(value) ? value[name] : undefined;
  }
  return value;
}

/** Paths of the fields a merge changes; a secret counts as changed whenever the request names it. */
function changedFields(definition: ResourceMapping, before: JsonObject, after: JsonObject, named: JsonObject): Set<string> {
  const changed = new Set<string>();
  const previous = new Map<string, Json | undefined>();
  forEachField(definition, before, (path, _name, _field, value) => previous.set(path, value));
  forEachField(definition, after, (path, _name, field, value) => {
    if (field.readOnly) return;
    const requested = field.secret ? namedAt(named, path) !== undefined : !jsonEqual(previous.get(path) ?? null, value ?? null);
    if (requested) changed.add(path);
  });
  return changed;
}

/**
 * A write-only field is never in the read a merge patch applies to, so its null would leave no trace
 * in the merged body, which then reads as keeping the stored value: it stays there as null, for the
 * rules to see the value removed.
 */
function keepRemovedSecrets(definition: ResourceMapping, after: JsonObject, named: JsonObject): void {
  for (const name in named) {
    if (!Object.prototype.hasOwnProperty.call(definition.members, name)) continue;
    const member = definition.members[name];
    const value = named[name];
    if (!isGroup(member)) {
      if (member.secret && value === null) after[name] = null;
      continue;
    }
    const group = after[name];
    if (!isObject(value) || !isObject(group)) continue;
    for (const inner in value) if (member.fields[inner]?.secret && value[inner] === null) group[inner] = null;
  }
}

const isObject = (value: Json | undefined): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** PATCH: a merge patch (RFC 7396), or a JSON Patch (RFC 6902) array when `jsonPatch`. */
export async function patchResource(target: Target, patch: Json, jsonPatch: boolean): Promise<Written<JsonObject>> {
  const { definition } = target;
  const { schema: bodySchema, pattern, rules } = await loadChecks(target.ports, target.entry, jsonPatch ? 'full' : 'patch');
  const referrers = await referrersOf(target.entry);
  const jsonPatchModule = jsonPatch ? await import('./patch.js') : undefined;
  let before: JsonObject | undefined;
  let patched: JsonObject | undefined;
  const write = () => transact(target, (model, read) => {
    const section = stagedSection(target, model);
    before = viewOf(definition, section);
    checkPreconditions(target, before);
    let after: JsonObject;
    let schema: FieldError[];
    let named: JsonObject;
    // What the request says of the read-only fields: a JSON Patch, through the read it patches.
    let sent = patch as JsonObject;
    if (jsonPatchModule) {
      sent = jsonPatchModule.patchedObject(before, patch);
      schema = schemaErrors(bodySchema, sent, pattern);
      after = withoutFrameworkMembers(sent);
      named = after;
    } else {
      named = withoutFrameworkMembers(patch as JsonObject);
      schema = schemaErrors(bodySchema, patch, pattern);
      after = applyMergePatch(withoutFrameworkMembers(before), named) as JsonObject;
      keepRemovedSecrets(definition, after, named);
    }
    after = completed(definition, after, before);
    checkBody(definition, rules, schema, after, { read, id: section.name, file: (path) => target.ports.readFile(path) }, () => {
      writeFields(definition, section, after, changedFields(definition, before!, after, named));
      return readOnlyErrors(definition, sent, [before, (patched = viewOf(definition, section))]);
    });
    return patched!;
  }, referrers, () => before);
  return withPathWarning(target, write, () => ({ before, after: patched }));
}
