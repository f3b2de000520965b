import { readPackage } from '../config/store.js';
import { etagOf, notModified } from '../engine/etag.js';
import { findResourceSection, viewOf } from '../engine/read.js';
import type { Json, JsonObject } from '../resources/model.js';
import type { Context } from './context.js';
import { jsonResponse, jsonTextResponse, plainResponse } from '../http/response.js';

const JSON_PATCH = 'application/json-patch+json';

async function target({ ports, request, route, params, run }: Context) {
  const entry = route.resource!;
  const module = await entry.module();
  return { ports, request, entry, module, definition: module.mapping, id: params.id, run };
}

/** One resource with its ETag; a matching If-None-Match answers 304 with no body. */
export async function GET(context: Context) {
  const { definition, module, id, ports, request } = await target(context);
  const section = findResourceSection(definition, await readPackage(ports, definition.package), id);
  const body = viewOf(definition, section);
  const text = JSON.stringify(body);
  const etag = etagOf(ports, text);
  const unchanged = notModified(request, etag);
  if (unchanged) return unchanged;
  // Runtime state is outside the ETag: only then is the answer another text than the one hashed.
  if (!definition.runtime && !module.runtimeOf) return jsonTextResponse(200, text, { ETag: etag });
  const [answer] = await (await import('../engine/runtime.js')).withRuntime(ports, module, [body], () => section.name);
  return jsonResponse(200, answer, { ETag: etag });
}

export async function PUT(context: Context) {
  const { bodyObject } = await import('../http/json-body.js');
  const body = (await bodyObject(context.request)) as JsonObject;
  const { replaceResource } = await import('../engine/create-replace.js');
  const { writtenResponse } = await import('../engine/write.js');
  return writtenResponse(context.ports, await replaceResource(await target(context), body));
}

/** A merge patch, or a JSON Patch document when sent as application/json-patch+json. */
export async function PATCH(context: Context) {
  const { bodyJson, bodyObject } = await import('../http/json-body.js');
  const jsonPatch = context.request.contentType === JSON_PATCH;
  const patch = (await (jsonPatch ? bodyJson : bodyObject)(context.request)) as Json;
  const { patchResource } = await import('../engine/patch-resource.js');
  const { writtenResponse } = await import('../engine/write.js');
  return writtenResponse(context.ports, await patchResource(await target(context), patch, jsonPatch));
}

export async function DELETE(context: Context) {
  const { deleteResource } = await import('../engine/write.js');
  const { headers } = await deleteResource(await target(context));
  return { ...plainResponse(204, undefined), headers };
}
