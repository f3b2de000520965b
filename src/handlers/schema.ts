import { pattern } from '../generated/patterns.js';
import { allResources } from '../engine/tables.js';
import { ApiError } from '../http/errors.js';
import { jsonResponse } from '../http/response.js';
import { schemaProperties, withPatterns } from '../openapi/members.js';
import { resourceDoc } from '../openapi/resource-doc.js';
import type { ResourceEntry } from '../resources/model.js';
import type { Context } from './context.js';
import { described, installedProse, sayer } from './document.js';

/** `<package>/<resource>`: the path, or `<domain>/<type>` for a singleton domain such as `system`. */
const keyOf = ({ path, type }: ResourceEntry) => (path.includes('/') ? path : `${path}/${type}`);

/** The one key whose properties are no generated doc's: the authorized keys file is no UCI resource. */
const AUTHORIZED_KEYS = 'system/authorized_keys';

/**
 * `GET /schema` lists the schema keys; `GET /schema/<package>/<resource>` answers one resource's
 * properties, with wrtapi-doc's descriptions when it is installed.
 */
export async function GET({ params, ports }: Context) {
  const resources = await allResources();
  const keys = resources.map(keyOf);
  if (params.package === undefined) return jsonResponse(200, { resources: [...keys, AUTHORIZED_KEYS] });
  const key = `${params.package}/${params.resource}`;
  const index = keys.indexOf(key);
  if (index < 0 && key !== AUTHORIZED_KEYS) throw new ApiError(404, 'not_found', `No schema for ${key}`);
  const prose = installedProse(ports);
  const say = sayer(prose?.text);
  if (key === AUTHORIZED_KEYS) {
    const { AUTHORIZED_KEY, describedKeys } = await import('../openapi/authorized-keys.js');
    return jsonResponse(200, { key, schema_properties: describedKeys(AUTHORIZED_KEY, say) });
  }
  const doc = resourceDoc(await resources[index].module());
  return jsonResponse(200, { key, schema_properties: schemaProperties(withPatterns(described(doc, prose?.doc(doc.path)), pattern), say) });
}
