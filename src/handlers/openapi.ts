import { DOCUMENT_ID } from '../generated/document-id.js';
import { plainResponse } from '../http/response.js';
import type { Context } from './context.js';

const KEPT_PREFIX = 'wrtapi-openapi.';
const KEPT = `/tmp/${KEPT_PREFIX}${DOCUMENT_ID}.json`;

/**
 * `GET /openapi.json`: the document, assembled from each resource's generated doc and the fixed part
 * the build wrote, with wrtapi-doc's prose when it is installed. Assembling it costs a router as
 * much as dozens of reads, so the first fetch keeps it in /tmp (RAM, never flash), named for the
 * docs it came from, and later fetches answer that copy without loading the assembly; wrtapi-doc's
 * hooks remove the copy when it comes or goes. Hand-built: no security headers.
 */
export async function GET({ ports }: Context) {
  const kept = ports.readFileBytes(KEPT);
  if (kept !== undefined) return { ...plainResponse(200, 'application/json'), bytes: kept };
  const [{ allResources }, { FIXED }, { pattern }, { openapiDocument }, { withPatterns }, { resourceDoc }, { described, sayer }, { installedProse }] = await Promise.all([
    import('../engine/tables.js'),
    import('../generated/openapi-fixed.js'),
    import('../generated/patterns.js'),
    import('../openapi/document.js'),
    import('../openapi/members.js'),
    import('../openapi/resource-doc.js'),
    import('../openapi/prose.js'),
    import('./prose.js'),
  ]);
  const prose = installedProse(ports);
  const docs = await Promise.all(
    (await allResources()).map(async (entry) => {
      const doc = await resourceDoc(await entry.module());
      return withPatterns(described(doc, prose?.docs[doc.path]), pattern);
    }),
  );
  // ASCII only (test/api/openapi.test.ts): one character past it would make QuickJS hold the whole
  // text at two bytes a character, on every later fetch of the copy too.
  const text = JSON.stringify(openapiDocument(docs, prose?.fixed ?? FIXED, sayer(prose?.text)));
  // A copy from an earlier build of the package is of no use any more.
  for (const name of ports.list('/tmp')) if (name.startsWith(KEPT_PREFIX) && `/tmp/${name}` !== KEPT) ports.remove(`/tmp/${name}`);
  ports.writeFileAtomic(KEPT, text);
  return plainResponse(200, 'application/json', text);
}
