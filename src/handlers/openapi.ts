import { DOCUMENT_ID } from '../generated/document-id.js';
import { plainResponse } from '../http/response.js';
import type { Context } from './context.js';

const KEPT_PREFIX = 'wrtapi-openapi.';
const KEPT = `/tmp/${KEPT_PREFIX}${DOCUMENT_ID}.json`;

/**
 * `GET /openapi.json`: the document (handlers/document.ts). Assembling it costs a router as much as
 * dozens of reads, so the first fetch keeps it in /tmp (RAM, never flash), named for the docs it
 * came from, and later fetches answer that copy without loading the assembly; wrtapi-doc's hooks
 * remove the copy when its prose comes or goes. Hand-built: no security headers.
 */
export async function GET({ ports }: Context) {
  const kept = ports.readFileBytes(KEPT);
  if (kept !== undefined) return { ...plainResponse(200, 'application/json'), bytes: kept };
  const text = await (await import('./document.js')).documentText(ports);
  // A copy from an earlier build of the package is of no use any more.
  for (const name of ports.list('/tmp')) if (name.startsWith(KEPT_PREFIX) && `/tmp/${name}` !== KEPT) ports.remove(`/tmp/${name}`);
  ports.writeFileAtomic(KEPT, text);
  return plainResponse(200, 'application/json', text);
}
