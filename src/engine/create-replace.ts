// The writes that take a whole body, checked against the resource's schemas and rules: POST
// creates a section, PUT replaces one. Apart from write.ts, so that a DELETE never compiles the body check.
import { ApiError, type FieldError } from '../http/errors.js';
import type { Json, JsonObject, ResourceMapping } from '../resources/model.js';
import { addSection, findSection } from '../uci/index.js';
import { sectionTypeOf, viewOf } from './read.js';
import { referrersOf } from './references.js';
import type { Written } from './transaction.js';
import { checkBody, loadChecks, schemaErrors } from './validate.js';
import { generatedId, stagedSection, transact, withoutFrameworkMembers, withPathWarning, writeFields, type Target } from './write.js';
import { checkPreconditions } from './etag.js';

const SECTION_ID = /^[A-Za-z0-9_]+$/;
// libuci names an anonymous section `cfg`, a hex counter of its position and a hex hash: a named
// section of that form would be taken for one once a deletion renumbers the anonymous ones, and
// libuci then refuses the file or merges the two.
const ANONYMOUS_NAME = /^cfg[0-9a-f]{6,}$/;
const MAX_ID_LENGTH = 32;

function idErrors(definition: ResourceMapping, id: Json | undefined): FieldError[] {
  if (definition.ids && !definition.ids.includes(id as string)) {
    return [{ field: 'id', code: id === undefined || id === null ? 'required' : 'not_in_enum', message: `id must be one of: ${definition.ids.join(', ')}` }];
  }
  if (id === undefined || id === null) return [];
  if (typeof id !== 'string') return [{ field: 'id', code: 'invalid_type', message: 'id must be a string' }];
  if (!SECTION_ID.test(id)) return [{ field: 'id', code: 'invalid_format', message: 'id may hold only A-Z, a-z, 0-9 and _' }];
  if (ANONYMOUS_NAME.test(id)) return [{ field: 'id', code: 'invalid_format', message: 'ids of the form cfg<hex> are the names of anonymous sections' }];
  if (id.length > MAX_ID_LENGTH) return [{ field: 'id', code: 'out_of_range', message: `id is at most ${MAX_ID_LENGTH} characters` }];
  return [];
}

export async function createResource(target: Target, body: JsonObject): Promise<Written<JsonObject>> {
  const { definition, ports } = target;
  const { full, rules } = await loadChecks(target.entry);
  const fields = withoutFrameworkMembers(body);
  let after: JsonObject | undefined;
  const write = () => transact(target, (model, read) => {
    const name = typeof body.id === 'string' ? body.id : generatedId(definition, fields, ports);
    checkBody(definition, rules, [...idErrors(definition, body.id), ...schemaErrors(full, body)], fields, { read, id: name, file: (path) => ports.readFile(path) });
    if (findSection(model, name)) throw new ApiError(409, 'conflict', `${definition.package} already has a section named ${name}`);
    const section = addSection(model, sectionTypeOf(definition, fields), name);
    writeFields(definition, section, fields);
    return (after = viewOf(definition, section));
  });
  return withPathWarning(target, write, () => ({ after }));
}

export async function replaceResource(target: Target, body: JsonObject): Promise<Written<JsonObject>> {
  const { definition } = target;
  const { full, rules } = await loadChecks(target.entry);
  const fields = withoutFrameworkMembers(body);
  let before: JsonObject | undefined;
  let after: JsonObject | undefined;
  const referrers = await referrersOf(target.entry);
  const write = () => transact(
    target,
    (model, read) => {
      const section = stagedSection(target, model);
      before = viewOf(definition, section);
      checkPreconditions(target.request, before);
      checkBody(definition, rules, schemaErrors(full, body), fields, { read, id: section.name, file: (path) => target.ports.readFile(path) });
      writeFields(definition, section, fields);
      return (after = viewOf(definition, section));
    },
    referrers,
    () => before,
  );
  return withPathWarning(target, write, () => ({ before, after }));
}

