import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';

/** `GET /auth/whoami`: the calling token as the server sees it, times in epoch seconds; any valid token, no scope check. */
export function GET({ caller, request }: Context) {
  const token = caller!.token;
  return jsonResponse(200, {
    token_id: token.name,
    scopes: token.scopes,
    source_ip: request.remoteAddr,
    expires_at: token.expiresAt ?? null,
    allowed_cidrs: token.allowedCidrs,
    last_used_at: token.lastUsedAt ?? null,
    last_used_ip: token.lastUsedIp ?? null,
  });
}
