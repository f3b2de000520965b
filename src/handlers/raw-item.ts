import { etagOf, notModified } from '../engine/etag.js';
import { rawView } from '../engine/raw.js';
import type { Json } from '../resources/model.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import type { Context } from './context.js';
import { rawSection, rawTarget } from './raw-common.js';

/** One section with its ETag; a matching If-None-Match answers 304 with no body. */
export async function GET(context: Context) {
  const section = await rawSection(context);
  const body = rawView(context.params.package, section);
  const etag = etagOf(body);
  const unchanged = notModified(context.request, etag);
  if (unchanged) return unchanged;
  return jsonResponse(200, body, { ETag: etag });
}

async function update(context: Context, mode: 'replace' | 'merge' | 'jsonPatch') {
  const target = await rawTarget(context);
  const { parseJson, parseJsonObject } = await import('../http/json-body.js');
  const text = await context.request.body();
  const body = (mode === 'jsonPatch' ? parseJson(text) : parseJsonObject(text)) as Json;
  const { updateRaw } = await import('../engine/raw-write.js');
  const written = await updateRaw(target, body, mode);
  return jsonResponse(200, written, { ETag: etagOf(written) });
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
