import { rawView, readableSections } from '../engine/raw.js';
import { jsonResponse } from '../http/response.js';
import type { JsonObject } from '../resources/model.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';
import { rawPackage, rawTarget } from './raw-common.js';

/** The package's sections the token may read, in file order, a page at a time. */
export async function GET(context: Context) {
  const pkg = context.params.package;
  const readable = readableSections(pkg, (await rawPackage(context)).sections, context.caller!);
  const { page, headers } = pageOf(context.request.query, readable, (section) => section.name);
  return jsonResponse(200, page.map((section) => rawView(pkg, section)), headers);
}

export async function POST(context: Context) {
  const target = await rawTarget(context);
  const { bodyObject } = await import('../http/json-body.js');
  const body = (await bodyObject(context.request)) as JsonObject;
  const { createRaw } = await import('../engine/raw-write.js');
  return jsonResponse(200, await createRaw(target, body));
}
