import { readView } from '../engine/view.js';
import { ApiError } from '../http/errors.js';
import { jsonResponse } from '../http/response.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';

/**
 * A read-only view: the page of items the query asks for, or the item `id` names. Every answer
 * carries `X-Skipped-Lines`, the malformed lines of the file the read skipped.
 */
export async function GET({ ports, request, route, params }: Context) {
  const { items, skipped } = await readView(ports, await route.resource!.module());
  const counted = { 'X-Skipped-Lines': String(skipped) };
  if (params.id !== undefined) {
    const item = items.find((candidate) => candidate.id === params.id);
    if (!item) throw new ApiError(404, 'not_found', `No ${route.resource!.path} with id ${params.id}`);
    return jsonResponse(200, item, counted);
  }
  const { page, headers } = pageOf(request.query, items, (item) => item.id as string);
  return jsonResponse(200, page, { ...headers, ...counted });
}
