import { openView } from '../engine/view.js';
import { ApiError } from '../http/errors.js';
import { jsonResponse } from '../http/response.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';

/**
 * A read-only view: the page of items the query asks for, or the item `id` names. The file is parsed
 * only as far as the answer needs, and `X-Skipped-Lines` counts the malformed lines passed over.
 */
export async function GET({ ports, request, route, params }: Context) {
  const items = await openView(ports, await route.resource!.module());
  const counted = () => ({ 'X-Skipped-Lines': String(items.skipped()) });
  if (params.id !== undefined) {
    let item = items.next();
    while (item !== undefined && item.id !== params.id) item = items.next();
    if (!item) throw new ApiError(404, 'not_found', `No ${route.resource!.path} with id ${params.id}`);
    return jsonResponse(200, item, counted());
  }
  const { page, headers } = pageOf(request.query, () => items.next(), (item) => item.id as string);
  return jsonResponse(200, page, { ...headers, ...counted() });
}
