// Raw writes: the same transaction as curated writes (locks, snapshot, atomic commit, reload of the
// package's services, restore on failure), with the same refusal of a change that leaves a curated
// section naming one that is gone. The answer carries none of the reload or kernel headers.
import { resourceAt } from './tables.js';
import { ApiError } from '../http/errors.js';
import { validationFailed } from '../http/validation-failed.js';
import type { Request } from '../http/request.js';
import type { Ports } from '../platform/ports.js';
import { ulid } from '../platform/ulid.js';
import { isGroup, type Json, type JsonObject, type ResourceEntry, type RuleContext } from '../resources/model.js';
import { addSection, findSection, removeSection, type UciPackage, type UciSection } from '../uci/index.js';
import { curatedType, rawBodyErrors, rawReload, rawView, writeRawOptions } from './raw.js';
import { checkNoDanglingReferences, referencedNames, referrersOf } from './references.js';
import { viewOf } from './read.js';
import { runTransaction, type WritePlan, type Written } from './transaction.js';
import { checkPreconditions } from './etag.js';

export interface RawTarget {
  ports: Ports;
  request: Request;
  pkg: string;
  /** The section's name; absent on a create. */
  id?: string;
  /** Its type as read before the write, which decides the references to keep. */
  type?: string;
  /** Runs the plan; its own transaction when absent. */
  run?: (plan: WritePlan<JsonObject>) => Promise<Written<JsonObject>>;
  /**
   * Checks the curated scope of the section's type: the body's on a create, else the staged
   * section's (within a batch it may be one an earlier operation created).
   */
  authorize: (type: string) => void;
}

async function curatedEntry(pkg: string, type: string | undefined): Promise<ResourceEntry | undefined> {
  const curated = type === undefined ? undefined : curatedType(pkg, type);
  return curated && resourceAt(curated.path);
}

/** The rules of a definition that `guardsRaw`, run on the staged section as its resource would read it. */
async function guardOf(entry: ResourceEntry | undefined): Promise<((model: UciPackage, name: string, context: RuleContext) => void) | undefined> {
  const module = entry && (await entry.module());
  const rules = module?.mapping.guardsRaw && (await module.rules());
  if (!rules) return undefined;
  const { mapping } = module;
  return (model, name, context) => {
    const errors = rules(viewOf(mapping, findSection(model, name)!), context);
    const optionOf = (field: string) => {
      const member = mapping.members[field];
      return member && !isGroup(member) ? `options.${member.option ?? field}` : field;
    };
    if (errors.length) throw validationFailed(errors.map((error) => ({ ...error, field: optionOf(error.field) })));
  };
}

function copyOf(model: UciPackage): UciPackage {
  return { sections: model.sections.map((section) => ({ ...section, options: new Map([...section.options].map(([name, value]) => [name, Array.isArray(value) ? [...value] : value])) })) };
}

/** `type`: the section's type before the write, which decides the references to keep and the rules that guard it. */
async function rawTransaction(target: RawTarget, type: string | undefined, stage: (model: UciPackage) => JsonObject): Promise<JsonObject> {
  const { ports, pkg } = target;
  const entry = await curatedEntry(pkg, type);
  const [referrers, guard] = await Promise.all([entry && target.type !== undefined ? referrersOf(entry) : [], guardOf(entry)]);
  const { reload, provider } = rawReload(pkg, (service) => ports.stat(`/etc/init.d/${service}`) !== undefined);
  const plan: WritePlan<JsonObject> = {
    packages: [...new Set([pkg, ...referrers.map(({ definition }) => definition.package)])],
    writes: [pkg],
    reload,
    provider,
    stage(staged) {
      const names = referrers.map(({ reference }) => referencedNames(staged(reference.package), reference));
      // The rules compare the section as written with the package as it was, as a curated write's do.
      const before = guard && copyOf(staged(pkg));
      const result = stage(staged(pkg));
      if (before) guard!(staged(pkg), result.id as string, { read: (name) => (name === pkg ? before : staged(name)), id: result.id as string, file: (path) => ports.readFile(path) });
      checkNoDanglingReferences(referrers, names, staged);
      return result;
    },
  };
  return (await (target.run ? target.run(plan) : runTransaction(ports, plan))).result;
}

/** The section the path names, with the request's preconditions held against its view. */
function existing(target: RawTarget, model: UciPackage): UciSection {
  const section = findSection(model, target.id!);
  if (!section) throw new ApiError(404, 'not_found', `${target.pkg} has no section ${target.id}`);
  target.authorize(section.type);
  checkPreconditions(target.request, rawView(target.pkg, section));
  return section;
}

export async function createRaw(target: RawTarget, body: JsonObject): Promise<JsonObject> {
  if (typeof body.type === 'string') target.authorize(body.type);
  const errors = rawBodyErrors(body, undefined);
  if (errors.length) throw validationFailed(errors);
  return rawTransaction(target, body.type as string, (model) => {
    const name = typeof body.id === 'string' ? body.id : ulid(target.ports.now(), target.ports.randomBytes(10));
    if (findSection(model, name)) throw new ApiError(409, 'conflict', `${target.pkg} already has a section named ${name}`);
    const section = addSection(model, body.type as string, name);
    writeRawOptions(target.pkg, section, (body.options ?? {}) as JsonObject, false);
    return rawView(target.pkg, section);
  });
}

/** PUT, a merge patch (options named null are removed), or a JSON Patch of the section's view. */
export async function updateRaw(target: RawTarget, body: Json, mode: 'replace' | 'merge' | 'jsonPatch'): Promise<JsonObject> {
  const jsonPatch = mode === 'jsonPatch' ? await import('./patch.js') : undefined;
  return rawTransaction(target, target.type, (model) => {
    const section = existing(target, model);
    const after = jsonPatch ? jsonPatch.patchedObject(rawView(target.pkg, section), body) : (body as JsonObject);
    const merge = mode === 'merge';
    const errors = rawBodyErrors(after, section, merge);
    if (errors.length) throw validationFailed(errors);
    const options = (after.options ?? {}) as JsonObject;
    writeRawOptions(target.pkg, section, options, merge);
    return rawView(target.pkg, section);
  });
}

export async function deleteRaw(target: RawTarget): Promise<void> {
  // A section its curated resource may not lose (uhttpd's main) is kept here too.
  const entry = await curatedEntry(target.pkg, target.type);
  const undeletable = entry && (await entry.module()).mapping.undeletable;
  await rawTransaction(target, target.type, (model) => {
    const section = existing(target, model);
    const kept = undeletable?.[section.name];
    if (kept) throw new ApiError(409, 'conflict', `${target.pkg}/${section.name} cannot be deleted: ${kept}`);
    removeSection(model, section.name);
    return rawView(target.pkg, section);
  });
}
