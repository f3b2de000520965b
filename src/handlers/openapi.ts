import { DOCUMENT_ID } from '../generated/document-id.js';
import { plainResponse } from '../http/response.js';
import type { Context } from './context.js';

const KEPT_PREFIX = 'wrtapi-openapi.';
const KEPT = `/tmp/${KEPT_PREFIX}${DOCUMENT_ID}.json`;

/**
 * `GET /openapi.json`: the document, assembled from each resource's generated doc and the fixed part
 * the build wrote. Assembling it costs a router as much as dozens of reads, so the first fetch keeps
 * it in /tmp (RAM, never flash), named for the docs it came from, and later fetches answer that
 * copy without loading the assembly. Hand-built: no security headers.
 */
export async function GET({ ports }: Context) {
  const kept = ports.readFileBytes(KEPT);
  if (kept !== undefined) return { ...plainResponse(200, 'application/json'), bytes: kept };
  const [{ allResources }, { FIXED }, { pattern }, { openapiDocument }, { withPatterns }, { resourceDoc }] = await Promise.all([
    import('../engine/tables.js'),
    import('../generated/openapi-fixed.js'),
    import('../generated/patterns.js'),
    import('../openapi/document.js'),
    import('../openapi/members.js'),
    import('../openapi/resource-doc.js'),
  ]);
  const docs = await Promise.all((await allResources()).map(async (entry) => withPatterns(await resourceDoc(await entry.module()), pattern)));
  // ASCII only (test/api/openapi.test.ts): one character past it would make QuickJS hold the whole
  // text at two bytes a character, on every later fetch of the copy too.
  const text = JSON.stringify(openapiDocument(docs, FIXED));
  // A copy from an earlier build of the package is of no use any more.
  for (const name of ports.list('/tmp')) if (name.startsWith(KEPT_PREFIX) && `/tmp/${name}` !== KEPT) ports.remove(`/tmp/${name}`);
  ports.writeFileAtomic(KEPT, text);
  return plainResponse(200, 'application/json', text);
}
