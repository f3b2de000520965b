import { OPENAPI } from '../generated/openapi.js';
import { plainResponse } from '../http/response.js';

/** `GET /openapi.json`: the document generated from the resource definitions. Hand-built: no security headers. */
export function GET() {
  return plainResponse(200, 'application/json', OPENAPI);
}
