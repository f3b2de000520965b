import { ApiError } from '../http/errors.js';
import { SCHEMAS } from '../generated/schemas.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';

/** `GET /schema` lists the schema keys; `GET /schema/<package>/<resource>` answers one resource's properties. */
export async function GET({ params }: Context) {
  if (params.package === undefined) return jsonResponse(200, { resources: Object.keys(SCHEMAS) });
  const key = `${params.package}/${params.resource}`;
  // Every key holds a `/`, so no name inherited from Object.prototype can match.
  const load = SCHEMAS[key];
  if (!load) throw new ApiError(404, 'not_found', `No schema for ${key}`);
  return jsonResponse(200, (await load()).default);
}
