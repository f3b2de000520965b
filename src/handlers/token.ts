import { findToken, revokeToken, tokenRecord } from '../auth/token-admin.js';
import type { Context } from './context.js';
import { jsonResponse, plainResponse } from '../http/response.js';

export async function GET({ ports, params }: Context) {
  return jsonResponse(200, tokenRecord(await findToken(ports, params.name)));
}

/** Revokes at once: the store is re-read by every request. */
export async function DELETE({ ports, params }: Context) {
  await revokeToken(ports, params.name);
  return plainResponse(204, undefined);
}
