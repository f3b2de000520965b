// Random and mutated writes to one curated resource through the CGI path, as a hostile or broken
// client sends them: every resource the inventory holds gets them, from its own schemas in the
// served document. Shared by the fuzz test and `npm run fuzz`.
import { titleOf } from '../../src/openapi/document.js';
import { isGroup, type ResourceEntry, type ResourceMapping } from '../../src/resources/model.js';
import type { Router } from './router.js';
import { resolve, schemaValue, type Random, type Schema } from './schema-values.js';

export interface Figures {
  requests: number;
  byStatus: Map<number, number>;
  /** What the writes left behind once they were all answered: none may remain. */
  leftovers: string[];
  /** What broke a promise: a 5xx, an answer outside the envelope, a refused write that changed a file, an accepted one stored otherwise. */
  failures: string[];
}

const ERROR_CODES = new Set([
  'bad_request', 'invalid_cursor', 'unauthorized', 'invalid_token', 'insufficient_scope', 'scope_escalation_blocked', 'tls_required',
  'not_found', 'method_not_allowed', 'conflict', 'unmanaged_resource', 'idempotency_key_conflict', 'precondition_failed',
  'validation_failed', 'locked', 'too_many_requests',
]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Attempt {
  method: string;
  path: string;
  body: string | Buffer;
  contentType: string;
  /** What a read must show after an accepted write: the fields sent, as sent. */
  sent?: Record<string, Json>;
  /** The field given a character no configuration file can hold: the write must be refused there. */
  unwritable?: string;
}

// What libuci cannot write and read back (src/http/text.ts): controls but tab, LF and CR, and
// unpaired surrogates, which JSON.stringify writes as the escapes a JSON parser takes.
const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f'];
const HIGH_SURROGATES = ['\ud800', '\udbff'];
const LOW_SURROGATES = ['\udc00', '\udfff'];

type Key = string | number;

/** Every string of a body with where it is. */
function stringsOf(value: Json, at: Key[] = []): Key[][] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsOf(item, [...at, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([name, item]) => stringsOf(item, [...at, name]));
  return [];
}

/** A field's path as a 422 names it: `match.src_zone`, `dns[0]`. */
const fieldPath = (at: Key[]) => at.reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key), '');

/**
 * The body with one of its strings given a character no configuration file can hold (a high
 * surrogate last and a low one first, where no neighbour pairs with it), and the field it is in.
 */
function withUnwritable(random: Random, body: Record<string, Json>): { text: string; field: string } | undefined {
  const strings = stringsOf(body);
  if (!strings.length) return undefined;
  const at = random.pick(strings);
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, Json>;
  const parent = at.slice(0, -1).reduce<any>((value, key) => value[key], copy);
  const value = parent[at[at.length - 1]] as string;
  const kind = random.int(0, 2);
  const middle = random.int(0, value.length);
  parent[at[at.length - 1]] =
    kind === 0 ? `${value.slice(0, middle)}${random.pick(CONTROLS)}${value.slice(middle)}` : kind === 1 ? value + random.pick(HIGH_SURROGATES) : random.pick(LOW_SURROGATES) + value;
  return { text: JSON.stringify(copy), field: fieldPath(at) };
}

const sameFiles = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([path, text]) => b.get(path) === text);

/** One change that makes a body wrong in a way clients get wrong, or attackers try. */
function mutated(random: Random, body: Record<string, Json>): string | Buffer {
  const names = Object.keys(body);
  const name = names.length ? random.pick(names) : 'name';
  const swapped: Json[] = [7, -1.5, true, 'text', [], [1, 'two'], { nested: 'object' }, null, ''];
  switch (random.int(0, 6)) {
    case 0:
      return JSON.stringify({ ...body, [name]: random.pick(swapped) });
    case 1:
      return JSON.stringify({ ...body, [name]: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) });
    case 2:
      return JSON.stringify({ ...body, [name]: 'x'.repeat(random.pick([300, 5000, 70000])) });
    case 3:
      return Buffer.concat([Buffer.from(JSON.stringify({ ...body, [name]: 'AB' }).replace('"AB"', '"A')), Buffer.from(random.pick(['c0ae', 'eda080', 'fe', 'e282', 'f4908080']), 'hex'), Buffer.from('B"')]);
    case 4:
      return JSON.stringify({ ...body, [`unknown_${random.int(0, 99)}`]: 'x' });
    case 5:
      return random.pick(['', '{', 'null', '[]', '"text"', '{"a":1,}', `{"${name}": undefined}`]);
    default:
      return JSON.stringify(Object.fromEntries(Object.entries(body).filter(([key]) => key !== name)));
  }
}

/** A JSON Patch that reaches where patches should not: odd pointers, whole-document replaces, bad ops. */
function oddPatch(random: Random, fields: string[]): string {
  const path = random.pick(['', '/', '/-', '/0', '/~2', '/match/~1x', '/match/src_ip/999', `/${random.pick(fields)}/0/1`, `/${random.pick(fields)}`, 'no-slash']);
  const op = random.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'delete']);
  const operation: Record<string, Json> = { op, path };
  if (random.chance(0.7)) operation.value = random.pick<Json>([1, 'x', null, [], {}, { a: { b: 1 } }]);
  if (random.chance(0.5)) operation.from = random.pick(['', '/name', '/match', '/~', `/${random.pick(fields)}`]);
  return JSON.stringify(random.chance(0.1) ? operation : [operation]);
}

/** A read of a cleared field: absent, null, an empty list, or a group of cleared fields. */
const cleared = (shown: Json | undefined): boolean =>
  shown === undefined || shown === null || (Array.isArray(shown) ? shown.length === 0 : typeof shown === 'object' && Object.values(shown).every(cleared));

/** The dotted names of the fields of the `words` codec: their items are stored separated by single spaces. */
function wordsFields(mapping: ResourceMapping): Set<string> {
  const names = new Set<string>();
  for (const [name, member] of Object.entries(mapping.members)) {
    if (!isGroup(member)) {
      if (member.codec.kind === 'words') names.add(name);
      continue;
    }
    for (const [inner, field] of Object.entries(member.fields)) if (field.codec.kind === 'words') names.add(`${name}.${inner}`);
  }
  return names;
}

/**
 * Whether the read shows each sent field as it was sent: a null clears a field, and so does an
 * empty string (UCI cannot hold an empty option: `uci set` deletes it), so it then reads cleared; a
 * secret reads as its `has_` flag; a list sent in its legacy string form reads as its items, and
 * a string of words (`words`) as its words separated by single spaces. A field in `derived` reads
 * what the others imply, or its default, once cleared (a route's family, a rule's action, an snmpd
 * access's version).
 */
function storedAsSent(read: Record<string, Json>, sent: Record<string, Json>, derived: Set<string>, words: Set<string>, at = ''): string | undefined {
  for (const [name, value] of Object.entries(sent)) {
    const shown = read[name];
    if (value === null && !at && derived.has(name)) continue;
    if (`has_${name}` in read) {
      if (read[`has_${name}`] !== (value !== null)) return `${at}has_${name} reads ${JSON.stringify(read[`has_${name}`])}`;
    } else if (typeof value === 'string' && words.has(`${at}${name}`)) {
      const items = value.split(/\s+/).filter(Boolean).join(' ');
      if (items ? shown !== items : !cleared(shown)) return `${at}${name} sent ${JSON.stringify(value)}, reads ${JSON.stringify(shown)}`;
    } else if (typeof value === 'string' && Array.isArray(shown)) {
      if (shown.join(' ') !== value.split(/\s+/).filter(Boolean).join(' ')) return `${at}${name} sent ${JSON.stringify(value)}, reads ${JSON.stringify(shown)}`;
    } else if (value === null || value === '') {
      if (!cleared(shown)) return `${at}${name} reads ${JSON.stringify(shown)} after ${JSON.stringify(value)}`;
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const inner = storedAsSent((shown ?? {}) as Record<string, Json>, value as Record<string, Json>, derived, words, `${at}${name}.`);
      if (inner) return inner;
    } else if (JSON.stringify(shown) !== JSON.stringify(value)) {
      return `${at}${name} sent ${JSON.stringify(value)}, reads ${JSON.stringify(shown)}`;
    }
  }
  return undefined;
}

export async function fuzzResource(router: Router, document: Schema, entry: ResourceEntry, count: number, random: Random, authorization: string): Promise<Figures> {
  const figures: Figures = { requests: 0, byStatus: new Map(), leftovers: [], failures: [] };
  const collection = entry.kind === 'collection';
  const path = `/${entry.path}`;
  const title = titleOf(entry.path);
  const request = resolve(document, { $ref: `#/components/schemas/${title}Request` });
  const patchSchema = resolve(document, { $ref: `#/components/schemas/${title}Patch` });
  const fields = Object.keys(request.properties).filter((name) => name !== 'id');
  const { mapping } = await entry.module();
  const derived = new Set(
    Object.keys(mapping.members).filter((name) => (name === mapping.typeBy?.field && mapping.typeBy.family) || 'implied' in mapping.members[name] || 'default' in mapping.members[name]),
  );
  const words = wordsFields(mapping);
  const strings: string[] = [];
  for (let i = 0; i < count; i++) {
    const listed = await router.request({ method: 'GET', path, headers: { authorization } });
    const items = collection ? ((listed.json as { id: string; managed: boolean }[]) ?? []).filter((item) => item.managed).map((item) => item.id) : [];
    const target = collection ? (items.length ? `${path}/${random.pick(items)}` : undefined) : path;
    const valid = schemaValue(document, random, strings, request) as Record<string, Json>;
    const attempt: Attempt = (() => {
      const kind = random.int(0, 5);
      const method = collection && (kind < 2 || !target) ? 'POST' : kind < 4 ? 'PUT' : 'PATCH';
      const where = method === 'POST' ? path : target!;
      if (kind === 5 && target) return { method: 'PATCH', path: target, body: oddPatch(random, fields), contentType: 'application/json-patch+json' };
      if (random.chance(0.5)) {
        const body = method === 'PATCH' ? (schemaValue(document, random, strings, patchSchema) as Record<string, Json>) : valid;
        // Only a create takes the id; a PUT or PATCH tolerates and ignores it.
        const { id: _id, ...sent } = body;
        return { method, path: where, body: JSON.stringify(body), contentType: 'application/json', sent: method === 'POST' ? body : sent };
      }
      const unwritable = random.chance(0.3) ? withUnwritable(random, valid) : undefined;
      if (unwritable) return { method, path: where, body: unwritable.text, contentType: 'application/json', unwritable: unwritable.field };
      return { method, path: where, body: mutated(random, valid), contentType: 'application/json' };
    })();
    const before = router.snapshot();
    const response = await router.request({ method: attempt.method, path: attempt.path, body: attempt.body, headers: { authorization, 'content-type': attempt.contentType } });
    figures.requests++;
    figures.byStatus.set(response.status, (figures.byStatus.get(response.status) ?? 0) + 1);
    const label = `${attempt.method} ${attempt.path} ${Buffer.from(attempt.body).toString('utf8').slice(0, 300)}`;
    if (response.status >= 500) {
      figures.failures.push(`${label}: ${response.status} ${response.body}`);
      continue;
    }
    if (attempt.unwritable !== undefined) {
      const errors = (response.json as { errors?: { field: string; code: string }[] } | undefined)?.errors ?? [];
      // An enum's values are the definition's, none of them unwritable: it refuses by its own code.
      if (response.status !== 422 || !errors.some(({ field, code }) => field === attempt.unwritable && (code === 'invalid_format' || code === 'not_in_enum'))) {
        figures.failures.push(`${label}: an unwritable character in ${attempt.unwritable} answered ${response.status} ${response.body}`);
      }
    }
    if (response.status >= 300) {
      const envelope = response.json as { code?: string; message?: string; request_id?: string; errors?: unknown[] } | undefined;
      const wellFormed =
        response.headers['content-type'] === 'application/json' &&
        ERROR_CODES.has(envelope?.code ?? '') &&
        typeof envelope?.message === 'string' &&
        envelope.request_id === response.headers['x-request-id'] &&
        (response.status !== 422 || (Array.isArray(envelope.errors) && envelope.errors.length > 0));
      if (!wellFormed) figures.failures.push(`${label}: not an envelope: ${response.status} ${response.body}`);
      if (!sameFiles(before, router.snapshot())) figures.failures.push(`${label}: refused with ${response.status}, yet a file changed`);
      continue;
    }
    if (attempt.sent) {
      const stored = response.json as Record<string, Json>;
      const read = await router.request({ method: 'GET', path: collection ? `${path}/${stored.id}` : path, headers: { authorization } });
      const wrong = storedAsSent(read.json as Record<string, Json>, attempt.sent, derived, words);
      if (wrong) figures.failures.push(`${label}: stored otherwise: ${wrong}`);
    }
  }
  figures.leftovers = router.leftovers();
  return figures;
}
