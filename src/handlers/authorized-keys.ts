// `/system/authorized_keys[/{id}]`: the keys of dropbear's authorized keys file, each addressed by an
// id derived from the key itself. A non-configuration write: it takes the global lock exclusively,
// replaces the file atomically (mode 0600, which dropbear.init sets anyway) keeping every line it
// does not change byte for byte, and carries no reload header and, as a non-configuration resource,
// no ETag (spec: ETag): If-Match can only be `*`.
import { acquireLocks } from '../config/locks.js';
import { checkPreconditions } from '../engine/etag.js';
import { ApiError } from '../http/errors.js';
import { validationFailed } from '../http/validation-failed.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import type { Request } from '../http/request.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject } from '../resources/model.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';
import { AUTHORIZED_KEY_REQUEST } from '../openapi/authorized-keys.js';
import { acceptedTypes, fileText, readKeys, requestedEntry, type KeyEntry } from './ssh-keys.js';

const DIR = '/etc/dropbear';
const FILE = `${DIR}/authorized_keys`;

const json = (entry: KeyEntry) => entry as unknown as JsonObject;

function found(entries: KeyEntry[], id: string): JsonObject {
  const entry = entries.find((candidate) => candidate.id === id);
  if (!entry) throw new ApiError(404, 'not_found', `No system/authorized_keys with id ${id}`);
  return json(entry);
}

export async function GET({ ports, request, params }: Context) {
  const { entries, skipped } = readKeys(ports.readFile(FILE) ?? '');
  const counted = { 'X-Skipped-Lines': String(skipped) };
  if (params.id === undefined) {
    const { page, headers } = pageOf(request.query, entries, (entry) => entry.id);
    return jsonResponse(200, page, { ...headers, ...counted });
  }
  return jsonResponse(200, found(entries, params.id), counted);
}

/** The entry the body asks for and its line, checked as dropbear reads it, or a 422. */
async function requested(ports: Ports, request: Request) {
  const [{ bodyObject }, { schemaErrors }] = await Promise.all([import('../http/json-body.js'), import('../engine/validate.js')]);
  const body = (await bodyObject(request)) as JsonObject;
  const schema = schemaErrors(AUTHORIZED_KEY_REQUEST, body);
  const result = schema.length ? { errors: schema } : requestedEntry(body, acceptedTypes(ports.list(DIR)));
  if ('errors' in result) {
    throw validationFailed(result.errors, 'system/authorized_keys: the body');
  }
  return result;
}

/**
 * Replaces the file's lines by what `change` makes of them, under the global lock, unless another
 * writer (LuCI, an scp) replaced the file meanwhile: theirs is kept and this write refused.
 */
function rewrite(ports: Ports, change: (keys: ReturnType<typeof readKeys>) => string[]): void {
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const before = ports.readFile(FILE);
    const lines = change(readKeys(before ?? ''));
    if (ports.readFile(FILE) !== before) throw new ApiError(409, 'conflict', `${FILE} was changed by another writer meanwhile; nothing was written`);
    ports.makeDirectory(DIR);
    ports.writeFileAtomic(FILE, fileText(lines), 0o600);
  } finally {
    held.release();
  }
}

/** Adds a key as the file's last line; a key the file already holds is a 409. */
export async function POST({ ports, request }: Context) {
  checkPreconditions({ ports, request }, undefined);
  const { entry, line } = await requested(ports, request);
  rewrite(ports, ({ lines, ids }) => {
    if (ids.includes(entry.id)) throw new ApiError(409, 'conflict', `system/authorized_keys/${entry.id} already holds this key`);
    return [...lines, line];
  });
  return jsonResponse(200, json(entry));
}

/** Writes the key's options and comment on its first line, and drops its later lines, which dropbear would not read. */
export async function PUT({ ports, request, params }: Context) {
  const { entry, line } = await requested(ports, request);
  rewrite(ports, ({ lines, ids, entries }) => {
    found(entries, params.id);
    checkPreconditions({ ports, request }, true);
    if (entry.id !== params.id) {
      throw new ApiError(422, 'validation_failed', 'system/authorized_keys: the body holds another key', {
        errors: [{ field: 'key', code: 'conflict', message: `the id is derived from the key, and this key's is ${entry.id}: POST it, then DELETE ${params.id}` }],
      });
    }
    const first = ids.indexOf(params.id);
    return lines.flatMap((text, i) => (i === first ? [line] : ids[i] === params.id ? [] : [text]));
  });
  return jsonResponse(200, json(entry));
}

/** Removes every line of the key. */
export async function DELETE({ ports, request, params }: Context) {
  rewrite(ports, ({ lines, ids, entries }) => {
    found(entries, params.id);
    checkPreconditions({ ports, request }, true);
    return lines.filter((_, i) => ids[i] !== params.id);
  });
  return plainResponse(204, undefined);
}
