import { collectionViews } from '../engine/read.js';
import { ApiError } from '../http/errors.js';
import type { JsonObject } from '../resources/model.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';

/** The collection in configuration order, filtered by `managed`, a page at a time after `cursor`. */
export async function GET({ ports, request, route }: Context) {
  const module = await route.resource!.module();
  const definition = module.mapping;
  const managed = request.query.get('managed');
  if (managed !== undefined && managed !== 'true' && managed !== 'false') {
    throw new ApiError(400, 'bad_request', 'managed must be true or false');
  }
  const all = await collectionViews(ports, definition);
  const views = managed === undefined ? all : all.filter((view) => view.managed === (managed === 'true'));
  const { pageOf } = await import('./paging.js');
  const { page, headers } = pageOf(request.query, views, (view) => view.id as string);
  let bodies = page;
  if (definition.runtime || module.runtimeOf) bodies = await (await import('../engine/runtime.js')).withRuntime(ports, module, bodies, (body) => body.id as string);
  return jsonResponse(200, bodies, headers);
}

export async function POST(context: Context) {
  const { ports, request, route } = context;
  const entry = route.resource!;
  const definition = (await entry.module()).mapping;
  const { bodyObject } = await import('../http/json-body.js');
  const body = (await bodyObject(request)) as JsonObject;
  const { createResource } = await import('../engine/create-replace.js');
  const { writtenResponse } = await import('../engine/write.js');
  return writtenResponse(ports, await createResource({ ports, request, entry, definition, run: context.run }, body));
}
