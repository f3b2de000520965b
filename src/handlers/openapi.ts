import { DOCS } from '../generated/docs.js';
import { FIXED } from '../generated/openapi-fixed.js';
import { pattern } from '../generated/patterns.js';
import { plainResponse } from '../http/response.js';
import { openapiDocument } from '../openapi/document.js';
import { withPatterns } from '../openapi/members.js';

/**
 * `GET /openapi.json`: the document, assembled from each resource's generated doc and the fixed part
 * the build wrote. Hand-built: no security headers.
 */
export async function GET() {
  const docs = await Promise.all(DOCS.map(async (load) => withPatterns((await load()).doc, pattern)));
  return plainResponse(200, 'application/json', JSON.stringify(openapiDocument(docs, FIXED)));
}
