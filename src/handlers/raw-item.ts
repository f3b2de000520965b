import { rawView } from '../engine/raw.js';
import type { Json } from '../resources/model.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import type { Context } from './context.js';
import { rawSection, rawTarget } from './raw-common.js';

/** One section; raw passthrough carries no ETag, so If-None-Match has nothing to match (spec: ETag). */
export async function GET(context: Context) {
  return jsonResponse(200, rawView(context.params.package, await rawSection(context)));
}

async function update(context: Context, mode: 'replace' | 'merge' | 'jsonPatch') {
  const target = await rawTarget(context);
  const { bodyJson, bodyObject } = await import('../http/json-body.js');
  const body = (await (mode === 'jsonPatch' ? bodyJson : bodyObject)(context.request)) as Json;
  const { updateRaw } = await import('../engine/raw-write.js');
  return jsonResponse(200, await updateRaw(target, body, mode));
}

export const PUT = (context: Context) => update(context, 'replace');

/** A merge patch, or a JSON Patch document when sent as application/json-patch+json. */
export const PATCH = (context: Context) => update(context, context.request.contentType === 'application/json-patch+json' ? 'jsonPatch' : 'merge');

export async function DELETE(context: Context) {
  const target = await rawTarget(context);
  const { deleteRaw } = await import('../engine/raw-write.js');
  await deleteRaw(target);
  return plainResponse(204, undefined);
}
