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
import { addSection, copySection, findSection, removeSection, type UciPackage, type UciSection } from '../uci/index.js';
import { curatedPaths, curatedType, rawBodyErrors, rawReload, rawView, writeRawOptions } from './raw.js';
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
  /** Its type as read before the write; within a batch, the type staged before it decides. */
  type?: string;
  /** Runs the plan; its own transaction when absent. */
  run?: (plan: WritePlan<JsonObject>) => Promise<Written<JsonObject>>;
  /**
   * Checks the curated scope of the section's type: the body's on a create, else the staged
   * section's (within a batch it may be one an earlier operation created).
   */
  authorize: (type: string) => void;
}

/** A curated resource's checks that a raw write of one of its sections runs too. */
interface CuratedChecks {
  /** The definition's rules, when it `guardsRaw`: run on the staged section as its resource would read it. */
  guard?: (model: UciPackage, name: string, context: RuleContext) => void;
  undeletable?: Record<string, string>;
}

async function checksOf(entry: ResourceEntry): Promise<CuratedChecks> {
  const module = await entry.module();
  const { mapping } = module;
  const rules = mapping.guardsRaw && (await module.rules());
  const optionOf = (field: string) => {
    const member = mapping.members[field];
    return member && !isGroup(member) ? `options.${member.option ?? field}` : field;
  };
  const guard: CuratedChecks['guard'] =
    rules &&
    ((model, name, context) => {
      const errors = rules(viewOf(mapping, findSection(model, name)!), context);
      if (errors.length) throw validationFailed(errors.map((error) => ({ ...error, field: optionOf(error.field) })));
    });
  return { guard, undeletable: mapping.undeletable };
}

/**
 * The curated resources a write may touch a section of: the type's, or, for a section of a batch,
 * whose type is only known once the operations before it are staged (one of them may have created
 * it), every curated resource of the package.
 */
async function candidates(target: RawTarget, type: string | undefined): Promise<ResourceEntry[]> {
  const paths = target.run && target.id !== undefined ? curatedPaths(target.pkg) : [type === undefined ? undefined : curatedType(target.pkg, type)?.path];
  const entries = await Promise.all(paths.map((path) => path && resourceAt(path)));
  return entries.filter((entry): entry is ResourceEntry => entry !== undefined);
}

/**
 * `type`: the section's type as read before the write (a create's: its body's). `stage` is handed
 * the checks of the type it stages.
 */
async function rawTransaction(target: RawTarget, type: string | undefined, stage: (model: UciPackage, checksOfType: (type: string) => CuratedChecks) => JsonObject): Promise<JsonObject> {
  const { ports, pkg } = target;
  const entries = await candidates(target, type);
  // A create removes no name; any other write may remove the name of a section of any of them.
  const [referrers, checks] = await Promise.all([target.id === undefined ? [] : Promise.all(entries.map(referrersOf)).then((lists) => lists.flat()), Promise.all(entries.map(checksOf))]);
  const checksOfType = (staged: string): CuratedChecks => {
    const path = curatedType(pkg, staged)?.path;
    if (path === undefined) return {};
    const i = entries.findIndex((entry) => entry.path === path);
    if (i < 0) throw new ApiError(409, 'conflict', `${pkg}/${target.id} changed its type while the write was made; send it again`);
    return checks[i];
  };
  const { reload, provider } = rawReload(pkg, (service) => ports.stat(`/etc/init.d/${service}`) !== undefined);
  const plan: WritePlan<JsonObject> = {
    packages: [...new Set([pkg, ...referrers.map(({ definition }) => definition.package)])],
    writes: [pkg],
    reload,
    provider,
    stage(staged) {
      const names = referrers.map(({ reference }) => referencedNames(staged(reference.package), reference));
      // The rules compare the section as written with the package as it was, as a curated write's do.
      const before = checks.some(({ guard }) => guard) ? { sections: staged(pkg).sections.map(copySection) } : undefined;
      const result = stage(staged(pkg), checksOfType);
      const { guard } = checksOfType(result.type as string);
      if (guard) guard(staged(pkg), result.id as string, { read: (name) => (name === pkg ? before! : staged(name)), id: result.id as string, file: (path) => ports.readFile(path) });
      checkNoDanglingReferences(referrers, names, staged);
      return result;
    },
  };
  return (await (target.run ? target.run(plan) : runTransaction(ports, plan))).result;
}

/** The section the path names, once the request's preconditions hold (raw carries no ETag). */
function existing(target: RawTarget, model: UciPackage): UciSection {
  const section = findSection(model, target.id!);
  if (!section) throw new ApiError(404, 'not_found', `${target.pkg} has no section ${target.id}`);
  target.authorize(section.type);
  checkPreconditions(target, true);
  return section;
}

export async function createRaw(target: RawTarget, body: JsonObject): Promise<JsonObject> {
  checkPreconditions(target, undefined);
  if (typeof body.type === 'string') target.authorize(body.type);
  const errors = rawBodyErrors(target.pkg, body, undefined);
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
    const errors = rawBodyErrors(target.pkg, after, section, merge);
    if (errors.length) throw validationFailed(errors);
    const options = (after.options ?? {}) as JsonObject;
    writeRawOptions(target.pkg, section, options, merge);
    return rawView(target.pkg, section);
  });
}

export async function deleteRaw(target: RawTarget): Promise<void> {
  await rawTransaction(target, target.type, (model, checksOfType) => {
    const section = existing(target, model);
    // A section its curated resource may not lose (uhttpd's main) is kept here too.
    const kept = checksOfType(section.type).undeletable?.[section.name];
    if (kept) throw new ApiError(409, 'conflict', `${target.pkg}/${section.name} cannot be deleted: ${kept}`);
    removeSection(model, section.name);
    return rawView(target.pkg, section);
  });
}
