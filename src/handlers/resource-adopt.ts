import { adoptResource, writtenResponse } from '../engine/write.js';
import type { Context } from './context.js';

/** `POST /<resource>/{id}/adopt`: an anonymous section gets a generated id and becomes managed. */
export async function POST({ ports, request, route, params, run }: Context) {
  const entry = route.resource!;
  const definition = (await entry.module()).mapping;
  return writtenResponse(ports, await adoptResource({ ports, request, entry, definition, id: params.id, run }));
}
