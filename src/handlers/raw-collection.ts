import { decide } from '../auth/scopes.js';
import { curatedTarget, rawView, readsNeedRw } from '../engine/raw.js';
import { jsonResponse } from '../http/response.js';
import type { JsonObject } from '../resources/model.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';
import { rawPackage, requireCurated } from './raw-common.js';

/** The package's sections the token may read, in file order, a page at a time. */
export async function GET(context: Context) {
  const pkg = context.params.package;
  const scopes = context.caller!.token.scopes;
  const readable = (await rawPackage(context)).sections.filter((section) => {
    const target = curatedTarget(pkg, section.type);
    return !target || decide(scopes, target, readsNeedRw(pkg));
  });
  const { page, headers } = pageOf(context.request.query, readable, (section) => section.name);
  return jsonResponse(200, page.map((section) => rawView(pkg, section)), headers);
}

export async function POST(context: Context) {
  const { ports, request, params } = context;
  await rawPackage(context);
  const { parseJsonObject } = await import('../http/json-body.js');
  const body = parseJsonObject(await request.body()) as JsonObject;
  await requireCurated(context, params.package, typeof body.type === 'string' ? body.type : '');
  const { createRaw } = await import('../engine/raw-write.js');
  const { etagOf } = await import('../engine/etag.js');
  const created = await createRaw({ ports, request, pkg: params.package, run: context.run }, body);
  return jsonResponse(200, created, { ETag: etagOf(created) });
}
