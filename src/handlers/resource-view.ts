import { countdownWriter, openView } from '../engine/view.js';
import { ApiError } from '../http/errors.js';
import { jsonTextResponse } from '../http/response.js';
import type { Json } from '../resources/model.js';
import type { Context } from './context.js';
import { pageOf, pageQuery } from './paging.js';

/** A page as kept: its items' JSON texts without the countdown, each item's `until`, and its headers. */
interface ViewPage {
  texts: string[];
  untils: Json[];
  headers: Record<string, string>;
}

/**
 * A read-only view: the page of items the query asks for, or the item `id` names. The file is parsed
 * only as far as the answer needs, and `X-Skipped-Lines` counts the malformed lines passed over. A
 * page depends on the file's text and the query alone (the countdown is written in afterwards), so
 * wrtapi-bytecode keeps it: parsing and writing the first page of 1,000 leases cost QuickJS about
 * 8M instructions, and a file's text changes far less often than a client reads it.
 */
export async function GET({ ports, request, route, params }: Context) {
  const module = await route.resource!.module();
  const { mapping } = module;
  const view = await openView(ports, module);
  const until = (item: Record<string, Json>) => (mapping.countdown ? item[mapping.countdown.until] : null);
  const written = countdownWriter(mapping, Math.floor(ports.now() / 1000));
  if (params.id !== undefined) {
    const items = view.items();
    let item = items.next();
    while (item !== undefined && item.id !== params.id) item = items.next();
    if (!item) throw new ApiError(404, 'not_found', `No ${route.resource!.path} with id ${params.id}`);
    return jsonTextResponse(200, written(JSON.stringify(item), until(item)), { 'X-Skipped-Lines': String(items.skipped()) });
  }
  const makePage = (): ViewPage => {
    const items = view.items();
    const { page, headers } = pageOf(request.query, () => items.next(), (item) => item.id as string);
    return { texts: page.map((item) => JSON.stringify(item)), untils: page.map(until), headers: { ...headers, 'X-Skipped-Lines': String(items.skipped()) } };
  };
  const { texts, untils, headers } = ports.derived?.(`page.${mapping.path.replace('/', '.')}`, `${pageQuery(request.query)}\n${view.text}`, makePage) ?? makePage();
  return jsonTextResponse(200, `[${texts.map((text, i) => written(text, untils[i])).join(',')}]`, headers);
}
