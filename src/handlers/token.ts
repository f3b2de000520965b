import { mayRevoke } from '../auth/scope-tree.js';
import { findToken, revokeToken, tokenRecord } from '../auth/token-admin.js';
import { ApiError } from '../http/errors.js';
import type { Context } from './context.js';
import { jsonResponse, plainResponse } from '../http/response.js';

export async function GET({ ports, params }: Context) {
  return jsonResponse(200, tokenRecord(await findToken(ports, params.name)));
}

/** Revokes at once: the store is re-read by every request. */
export async function DELETE({ ports, params, caller }: Context) {
  if (!mayRevoke((await findToken(ports, params.name)).scopes, caller!.token.scopes)) {
    throw new ApiError(403, 'insufficient_scope', `${params.name} holds scopes the caller's do not cover; only a token that holds them all may revoke it`);
  }
  await revokeToken(ports, params.name);
  return plainResponse(204, undefined);
}
