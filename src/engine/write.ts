import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import type { Request } from '../http/request.js';
import { readOption, writeOption } from '../resources/options.js';
import { applies, isGroup, type Json, type JsonObject, type MappedField, type ResourceEntry, type ResourceMapping } from '../resources/model.js';
import { addSection, findSection, removeSection, renameSection, type UciPackage, type UciSection, type UciValue } from '../uci/index.js';
import { jsonTextResponse, type Response } from '../http/response.js';
import { ulid } from '../platform/ulid.js';
import { checkPreconditions, etagOf } from './etag.js';
import { findResourceSection, sectionsOf, sectionTypeOf, viewOf } from './read.js';
import { runTransaction, type WritePlan, type Written } from './transaction.js';
import { checkNoDanglingReferences, referencedNames, referrersOf, type Referrer } from './references.js';

// Members every read carries besides the fields (and the has_<secret> flags), which a write
// tolerates and ignores so that a read can be sent back unchanged.
const FRAMEWORK_MEMBERS = ['id', 'managed', 'runtime'];

export interface Target {
  ports: Ports;
  request: Request;
  entry: ResourceEntry;
  definition: ResourceMapping;
  /** The section id; absent for a singleton. */
  id?: string;
  /** Runs the write's plan; its own transaction when absent (a batch runs all its operations' at once). */
  run?: (plan: WritePlan<JsonObject>) => Promise<Written<JsonObject>>;
}

export function withoutFrameworkMembers(body: JsonObject): JsonObject {
  const fields: JsonObject = {};
  for (const [name, value] of Object.entries(body)) if (!FRAMEWORK_MEMBERS.includes(name) && !name.startsWith('has_')) fields[name] = value;
  return fields;
}

/** The family an address literal (optionally `!`-negated, with a prefix) is of; a host name has none. */
function addressFamily(value: Json | undefined): 'ipv4' | 'ipv6' | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.includes(':')) return 'ipv6';
  return /^!?\d{1,3}(\.\d{1,3}){3}(\/|$)/.test(value) ? 'ipv4' : undefined;
}

/**
 * A create or PUT body with what it leaves out and the daemon needs: each field's `default` where the
 * write would leave it unset (absent or null), on a create and where the section (`read`) held a
 * value, so that a section stored without one stays as it was; and the `typeBy` field: from the first
 * address literal among the fields `typeBy.family` names (a route's target), else on a PUT
 * the section's, so that it keeps its type (a com2sec6 stays one); a create without either takes the
 * resource's.
 */
export function completed(definition: ResourceMapping, fields: JsonObject, read?: JsonObject): JsonObject {
  const body = { ...fields };
  const { typeBy } = definition;
  const type = typeBy && body[typeBy.field];
  if (typeBy && (type === undefined || (type === null && typeBy.family))) {
    const family = typeBy.family?.map((name) => addressFamily(body[name])).find(Boolean);
    if (family) body[typeBy.field] = family;
    else if (read) body[typeBy.field] = read[typeBy.field];
  }
  for (const name in definition.members) {
    const member = definition.members[name];
    if (isGroup(member) || member.default === undefined || (body[name] ?? null) !== null || (read && (read[name] ?? null) === null)) continue;
    body[name] = member.default;
  }
  return body;
}

/** Calls `visit` for every field with its dotted path, its value in `body`, and the top-level member it is or is in. */
export function forEachField(definition: ResourceMapping, body: JsonObject, visit: (path: string, name: string, field: MappedField, value: Json | undefined, member: string) => void) {
  for (const name in definition.members) {
    const member = definition.members[name];
    if (!isGroup(member)) {
      visit(name, name, member, body[name], name);
      continue;
    }
    const group = body[name];
    const values = group !== null && typeof group === 'object' && !Array.isArray(group) ? group : undefined;
    for (const inner in member.fields) visit(`${name}.${inner}`, inner, member.fields[inner], values?.[inner], name);
  }
}

/**
 * Writes the body's fields into the section's options. A replace (create, PUT, no `changed`) drops
 * every option but the kept ones, so options the resource does not model go too; a merge writes only
 * the fields named in `changed` and every other option stays as it was. Kept are a secret the body
 * omits and a stored value that reads as null because the read cannot represent it: a read sent back
 * must not delete what it could not show. Options stay in their places, new ones last, as `uci set`
 * places them.
 */
export function writeFields(definition: ResourceMapping, section: UciSection, body: JsonObject, changed?: Set<string>) {
  const typeField = definition.typeBy?.field;
  // The options of the fields that apply: a group that does not apply loses its options, but not
  // one a field that applies shares (netifd's protos reuse option names: dhcp's and pppoe's `norelease`).
  const applying = new Set<string>();
  const kept = new Set<string>();
  // A section a create just added holds no option to keep, spell as it was, or remove: nothing is
  // looked up for a field the body leaves out (a map lookup each is 0.1M of a firewall rule's write).
  const fresh = section.options.size === 0;
  forEachField(definition, body, (path, name, field, value, member) => {
    const option = field.option ?? name;
    const fieldApplies = applies(definition.members[member].when, body);
    if (fieldApplies) applying.add(option);
    if (path === typeField || field.readOnly || fresh) return;
    const stored = section.options.get(option);
    // A replace keeps a secret the body omits, unless its group no longer applies (a PPPoE password
    // once proto is static); a merge changes only the secrets it names (see changed).
    const unreadable = stored !== undefined && (readOption(field.codec, stored) === null || (typeof stored === 'string' && !!field.implied?.[stored]));
    if ((!changed && field.secret && value === undefined && fieldApplies) || (value === null && unreadable)) kept.add(option);
  });
  // Under a proto the resource does not model, the options no applying field reads may be that proto's own.
  const unless = definition.openUnless;
  const open = unless && typeof body[unless.field] === 'string' && !applies(unless, body);
  // What each option becomes: a value, or undefined to remove it.
  const next = new Map<string, UciValue | undefined>();
  forEachField(definition, body, (path, name, field, value) => {
    if (fresh && value === undefined) return;
    const option = field.option ?? name;
    if (!applying.has(option)) {
      if (!open) next.set(option, undefined);
      return;
    }
    if (path === typeField || field.readOnly || kept.has(option) || (changed ? !changed.has(path) : value === undefined)) return;
    if (value === undefined || value === null || (typeof value === 'string' && field.implied?.[value])) return next.set(option, undefined);
    // A value the stored spelling already means keeps that spelling (`on` for true, a space-separated option for a list).
    const stored = section.options.get(option);
    const written = stored !== undefined && JSON.stringify(readOption(field.codec, stored)) === JSON.stringify(value) ? stored : writeOption(field.codec, value);
    // libuci keeps no empty value (`uci set` of '' removes the option), so the answer and its ETag
    // must not show one: an empty string or list removes the option.
    next.set(option, written === '' || (Array.isArray(written) && !written.length) ? undefined : written);
  });
  // A replace of what a read gave then writes the options back in the order whoever wrote them chose.
  const options = new Map<string, UciValue>();
  for (const [option, stored] of section.options) {
    const value = next.has(option) ? next.get(option) : changed || kept.has(option) || (open && !applying.has(option)) ? stored : undefined;
    if (value !== undefined) options.set(option, value);
  }
  for (const [option, value] of next) if (value !== undefined && !options.has(option)) options.set(option, value);
  section.options.clear();
  for (const [option, value] of options) section.options.set(option, value);
  // The section keeps its name and place; only what netifd files it under changes.
  if (typeField) section.type = sectionTypeOf(definition, body);
}

/** A managed (named) section; anonymous ones must be adopted before any write. */
function managedSection(target: Target, section: UciSection): UciSection {
  if (target.definition.kind === 'collection' && section.anonymous) {
    throw new ApiError(409, 'unmanaged_resource', `${target.definition.path}/${section.name} is unmanaged; adopt it first with POST .../${section.name}/adopt`);
  }
  return section;
}

/**
 * Runs a write and answers with X-Mgmt-Path-Warning when it touched the caller's own path, which is
 * looked up before the write: afterwards the interface it came through may be gone. `views` gives
 * the read views around the write.
 */
export async function withPathWarning<T>(
  target: Target,
  write: () => Promise<Written<T>>,
  views: () => { before?: JsonObject; after?: JsonObject },
): Promise<Written<T>> {
  if (!target.definition.mgmtPath) return write();
  const { managementPath, pathWarning } = await import('./management-path.js');
  const path = managementPath(target.ports, target.request.remoteAddr);
  const written = await write();
  const { before, after } = views();
  return { ...written, headers: { ...written.headers, ...pathWarning(path, target.definition, before, after) } };
}

/** The answer to a write that leaves a resource: its body, its ETag and the reload headers. */
export function writtenResponse(ports: Pick<Ports, 'hash64'>, { result, headers }: Written<JsonObject>): Response {
  const text = JSON.stringify(result);
  return jsonTextResponse(200, text, { ETag: etagOf(ports, text), ...headers });
}

/** What a write locks and stages: its package, those its references and rules read, and its referrers'. */
export function packagesOf(definition: ResourceMapping, referrers: Referrer[] = []): string[] {
  const read = [...(definition.references ?? []).map((reference) => reference.package), ...(definition.reads ?? [])];
  return [...new Set([definition.package, ...read, ...referrers.map(({ definition: referrer }) => referrer.package)])];
}

/**
 * One write to the resource's package, reloading its services. With `referrers` (the resources
 * that name this one's sections) a write that would leave them naming nothing is refused.
 */
export async function transact(
  target: Target,
  stage: (model: UciPackage, read: (pkg: string) => UciPackage) => JsonObject,
  referrers: Referrer[] = [],
  before?: () => JsonObject | undefined,
): Promise<Written<JsonObject>> {
  const { definition, ports } = target;
  // Loaded only for the resources that have a kernel apply.
  const kernel = definition.kernel && (await import('./kernel.js'));
  const plan: WritePlan<JsonObject> = {
    packages: packagesOf(definition, referrers),
    writes: [definition.package],
    reload: definition.reload,
    provider: definition.daemonPackage,
    stage(staged) {
      const names = referrers.map(({ reference }) => referencedNames(staged(reference.package), reference));
      const result = stage(staged(definition.package), staged);
      checkNoDanglingReferences(referrers, names, staged);
      return result;
    },
    ...(kernel ? { apply: (result, staged) => kernel.applyWireguardPeer(ports, definition, before?.(), target.request.method === 'DELETE' ? undefined : result, staged) } : {}),
  };
  return target.run ? target.run(plan) : runTransaction(ports, plan);
}

export async function deleteResource(target: Target): Promise<Written<JsonObject>> {
  const referrers = await referrersOf(target.entry);
  let before: JsonObject | undefined;
  const write = () =>
    transact(
      target,
      (model) => {
        const section = stagedSection(target, model);
        before = viewOf(target.definition, section);
        checkPreconditions(target, before);
        const kept = target.definition.undeletable?.[section.name];
        if (kept) throw new ApiError(409, 'conflict', `${target.definition.path}/${section.name} cannot be deleted: ${kept}`);
        removeSection(model, section.name);
        // What a dry run answers as removed; the DELETE itself answers 204 with no body.
        return before;
      },
      referrers,
      () => before,
    );
  return withPathWarning(target, write, () => ({ before }));
}

const ID_CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The id of a section created or adopted without one: the prefix and a ULID, or a short random one where it must be short. */
export function generatedId(definition: ResourceMapping, fields: JsonObject, ports: Ports): string {
  const short = definition.shortIds;
  if (!short || !applies(short.when, fields)) return `${definition.idPrefix ?? ''}${ulid(ports.now(), ports.randomBytes(10))}`;
  const random = ports.randomBytes(short.length - short.prefix.length);
  return short.prefix + Array.from(random, (byte) => ID_CHARACTERS[byte % ID_CHARACTERS.length]).join('');
}

/**
 * Gives an anonymous section a generated id, which makes it managed. Refused while other sections
 * name it by its section name (an mwan3 rule its policy): the new name would leave them dangling.
 */
export async function adoptResource(target: Target): Promise<Written<JsonObject>> {
  const { definition, ports } = target;
  const referrers = await referrersOf(target.entry);
  return transact(target, (model) => {
    const section = findResourceSection(definition, model, target.id);
    if (!section.anonymous) throw new ApiError(409, 'unmanaged_resource', `${definition.path}/${section.name} is already managed`);
    // A resource of fixed ids (sysntpd reads only the timeserver `ntp`) adopts under one that is
    // free: under any other name its daemon would not read the section.
    const name = definition.ids ? definition.ids.find((id) => !findSection(model, id)) : generatedId(definition, viewOf(definition, section), ports);
    if (name === undefined) throw new ApiError(409, 'conflict', `${definition.path} reads only sections named ${definition.ids!.join(', ')}, and each is taken`);
    const adopted = renameSection(model, section.name, name);
    return viewOf(definition, adopted);
  }, referrers);
}

/**
 * The section a PUT, PATCH or DELETE targets; a missing singleton section is created, named as its
 * daemon looks it up. A section of another type holding that name is the user's: the write is refused.
 */
export function stagedSection(target: Target, model: UciPackage): UciSection {
  const { definition } = target;
  if (definition.kind === 'singleton' && !sectionsOf(definition, model).length) {
    const name = definition.section ?? definition.type;
    const other = model.sections.find((section) => section.name === name);
    if (other) throw new ApiError(409, 'conflict', `${definition.package} section ${name} is a ${other.type}, not the ${definition.type} ${definition.path} writes`);
    return addSection(model, definition.type, name);
  }
  return managedSection(target, findResourceSection(definition, model, target.id));
}
