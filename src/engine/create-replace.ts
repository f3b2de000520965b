// The writes that take a whole body, checked against the resource's schemas and rules: POST
// creates a section, PUT replaces one. Apart from write.ts, so that a DELETE never compiles the body check.
import { ApiError, type FieldError } from '../http/errors.js';
import type { Json, JsonObject, ResourceMapping } from '../resources/model.js';
import { addSection, findSection, type UciSection } from '../uci/index.js';
import { sectionTypeOf, viewOf } from './read.js';
import { referrersOf } from './references.js';
import type { Written } from './transaction.js';
import { checkBody, loadChecks, readOnlyErrors, schemaErrors } from './validate.js';
import { completed, generatedId, stagedSection, transact, withoutFrameworkMembers, withPathWarning, writeFields, type Target } from './write.js';
import { checkPreconditions } from './etag.js';
import { sectionIdErrors } from './section-id.js';

function idErrors(definition: ResourceMapping, id: Json | undefined): FieldError[] {
  if (id === undefined || id === null) return [];
  if (definition.ids && !definition.ids.includes(id as string)) return [{ field: 'id', code: 'not_in_enum', message: `id must be one of: ${definition.ids.join(', ')}` }];
  return sectionIdErrors(id);
}

export async function createResource(target: Target, body: JsonObject): Promise<Written<JsonObject>> {
  const { definition, ports } = target;
  checkPreconditions(target, undefined);
  const { schema, pattern, rules } = await loadChecks(target.ports, target.entry, 'full');
  const fields = completed(definition, withoutFrameworkMembers(body));
  let after: JsonObject | undefined;
  const write = () => transact(target, (model, read) => {
    // Without an id, a resource of fixed ids (sysntpd reads only the timeserver `ntp`) takes the first
    // free one; with none free, the first, which is then a conflict as a taken id named in the body.
    const ids = definition.ids;
    const name = typeof body.id === 'string' ? body.id : ids ? (ids.find((id) => !findSection(model, id)) ?? ids[0]) : generatedId(definition, fields, ports);
    let section: UciSection | undefined;
    checkBody(definition, rules, [...idErrors(definition, body.id), ...schemaErrors(schema, body, pattern)], fields, { read, id: name, file: (path) => ports.readFile(path) }, () => {
      if (findSection(model, name)) return [];
      section = addSection(model, sectionTypeOf(definition, fields), name);
      writeFields(definition, section, fields);
      return readOnlyErrors(definition, body, [(after = viewOf(definition, section))]);
    });
    if (!section) throw new ApiError(409, 'conflict', `${definition.package} already has a section named ${name}`);
    return after!;
  });
  return withPathWarning(target, write, () => ({ after }));
}

export async function replaceResource(target: Target, body: JsonObject): Promise<Written<JsonObject>> {
  const { definition } = target;
  const { schema, pattern, rules } = await loadChecks(target.ports, target.entry, 'full');
  const fields = withoutFrameworkMembers(body);
  let before: JsonObject | undefined;
  let after: JsonObject | undefined;
  const referrers = await referrersOf(target.entry);
  const write = () => transact(
    target,
    (model, read) => {
      const section = stagedSection(target, model);
      before = viewOf(definition, section);
      checkPreconditions(target, before);
      const whole = completed(definition, fields, before);
      checkBody(definition, rules, schemaErrors(schema, body, pattern), whole, { read, id: section.name, file: (path) => target.ports.readFile(path) }, () => {
        writeFields(definition, section, whole);
        return readOnlyErrors(definition, body, [before, (after = viewOf(definition, section))]);
      });
      return after!;
    },
    referrers,
    () => before,
  );
  return withPathWarning(target, write, () => ({ before, after }));
}

