import { etagOf } from '../engine/read.js';
import { adoptResource } from '../engine/write.js';
import type { Context } from '../routes.js';
import { jsonResponse } from '../response.js';

/** `POST /<resource>/{id}/adopt`: an anonymous section gets a generated id and becomes managed. */
export async function POST({ ports, request, route, params }: Context) {
  const entry = route.resource!;
  const definition = (await entry.module()).mapping;
  const { result, headers } = await adoptResource({ ports, request, entry, definition, id: params.id });
  return jsonResponse(200, result, { ETag: etagOf(result), ...headers });
}
