import { readPackage } from '../config/store.js';
import { sectionsOf, viewOf } from '../engine/read.js';
import { ApiError } from '../http/errors.js';
import type { JsonObject } from '../resources/model.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

function pageSize(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PAGE;
  if (!/^[1-9]\d*$/.test(text) || Number(text) > MAX_PAGE) {
    throw new ApiError(400, 'bad_request', `limit must be an integer from 1 to ${MAX_PAGE}`);
  }
  return Number(text);
}

/** The collection in configuration order, filtered by `managed`, a page at a time after `cursor`. */
export async function GET({ ports, request, route }: Context) {
  const definition = (await route.resource!.module()).mapping;
  const managed = request.query.get('managed');
  if (managed !== undefined && managed !== 'true' && managed !== 'false') {
    throw new ApiError(400, 'bad_request', 'managed must be true or false');
  }
  const limit = pageSize(request.query.get('limit'));
  let sections = sectionsOf(definition, await readPackage(ports, definition.package));
  if (managed !== undefined) sections = sections.filter((section) => section.anonymous !== (managed === 'true'));
  const cursor = request.query.get('cursor');
  if (cursor !== undefined) {
    const after = cursor.startsWith('c_') ? sections.findIndex((section) => section.name === cursor.slice(2)) : -1;
    if (after < 0) throw new ApiError(400, 'invalid_cursor', `cursor ${cursor} does not name a current item`);
    sections = sections.slice(after + 1);
  }
  const page = sections.slice(0, limit);
  const headers: Record<string, string> = {};
  if (sections.length > limit) {
    const next = `c_${page[page.length - 1].name}`;
    headers['Link'] = `<?cursor=${next}&limit=${limit}>; rel="next"`;
    headers['X-Next-Cursor'] = next;
  }
  let bodies = page.map((section) => viewOf(definition, section));
  if (definition.runtime) bodies = (await import('../engine/runtime.js')).withRuntime(ports, definition, bodies, (body) => body.id as string);
  return jsonResponse(200, bodies, headers);
}

export async function POST({ ports, request, route }: Context) {
  const entry = route.resource!;
  const definition = (await entry.module()).mapping;
  const { parseJsonObject } = await import('../http/json-body.js');
  const body = parseJsonObject(await request.body()) as JsonObject;
  const { createResource } = await import('../engine/create-replace.js');
  const { writtenResponse } = await import('../engine/write.js');
  return writtenResponse(await createResource({ ports, request, entry, definition }, body));
}
