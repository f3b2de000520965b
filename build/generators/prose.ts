// What the package wrtapi-doc installs: the prose of /openapi.json and /schema, taken from the same
// sources as the rest (the definitions, the fixed part, build/generators/openapi-text.ts), and the
// docs and fixed part the core keeps without it. src/openapi/prose.ts puts it back.
import type { FixedDocument } from '../../src/openapi/document.js';
import type { DocProse } from '../../src/openapi/prose.js';
import { isGroup, type ResourceDoc } from '../../src/resources/model.js';
import { TEXT } from './openapi-text.js';

/** A resource's descriptions, by member name. */
function docProse(doc: ResourceDoc): DocProse {
  const members: DocProse['members'] = {};
  for (const [name, member] of Object.entries(doc.members)) {
    if (!isGroup(member)) {
      if (member.description !== undefined) members[name] = member.description;
      continue;
    }
    const fields: Record<string, string> = {};
    for (const [inner, field] of Object.entries(member.fields)) if (field.description !== undefined) fields[inner] = field.description;
    members[name] = { ...(member.description === undefined ? {} : { description: member.description }), fields };
  }
  return { description: doc.description, members };
}

/** The doc without its descriptions: what the core keeps. */
export function bareDoc(doc: ResourceDoc): ResourceDoc {
  const members: ResourceDoc['members'] = {};
  for (const [name, member] of Object.entries(doc.members)) {
    if (!isGroup(member)) {
      const { description: _description, ...field } = member;
      members[name] = field;
      continue;
    }
    const { description: _description, ...group } = member;
    members[name] = { ...group, fields: Object.fromEntries(Object.entries(member.fields).map(([inner, { description: _unused, ...field }]) => [inner, field])) };
  }
  const { description: _description, ...rest } = doc;
  return { ...rest, members };
}

/**
 * Every description and summary of the fixed part gone, but a response's description, which
 * OpenAPI requires: ''. An operation is kept as `operation()`'s arguments (build/generators/deferred.ts):
 * its summary first, its responses fourth.
 */
export function bareFixed(fixed: FixedDocument): FixedDocument {
  const bare = (value: unknown, response = false): unknown => {
    if (Array.isArray(value)) return value.map((item) => bare(item));
    if (value === null || typeof value !== 'object') return value;
    const result: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if ((key === 'description' || key === 'summary') && typeof member === 'string') {
        if (response && key === 'description') result[key] = '';
      } else result[key] = key === 'responses' ? responses(member) : bare(member);
    }
    return result;
  };
  const responses = (value: unknown) => Object.fromEntries(Object.entries(value as object).map(([status, response]) => [status, bare(response, true)]));
  const paths = Object.fromEntries(
    Object.entries(fixed.paths).map(([template, item]) => [
      template,
      Object.fromEntries(
        Object.entries(item).filter(([key]) => key !== 'description').map(([key, value]) => {
          if (!Array.isArray(value) || key === 'parameters') return [key, bare(value)];
          const [, tag, statuses, answers, fields] = value;
          return [key, ['', tag, statuses, responses(answers), bare(fields)]];
        }),
      ),
    ]),
  );
  return { ...(bare(fixed) as FixedDocument), paths };
}

/**
 * wrtapi-doc's files by their path under /usr/share/wrtapi-doc (handlers/document.ts reads them):
 * `text.json`, the build's id and the texts src/openapi places; `fixed.json`; and a resource's
 * descriptions in `docs/<path>.json`, which is all /schema reads of them.
 */
export const proseFiles = (id: string, docs: ResourceDoc[], fixed: FixedDocument): Record<string, unknown> => ({
  'text.json': { id, text: TEXT },
  'fixed.json': fixed,
  ...Object.fromEntries(docs.map((doc) => [`docs/${doc.path}.json`, docProse(doc)])),
});
