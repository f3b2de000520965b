import { isoTime } from '../auth/tokens.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';

/** `GET /auth/whoami`: the calling token as the server sees it; any valid token, no scope check. */
export function GET({ caller, request }: Context) {
  const token = caller!.token;
  return jsonResponse(200, {
    token_id: token.name,
    scopes: token.scopes,
    source_ip: request.remoteAddr,
    expires_at: isoTime(token.expiresAt),
    allowed_cidrs: token.allowedCidrs,
    last_used_at: isoTime(token.lastUsedAt),
    last_used_ip: token.lastUsedIp ?? null,
  });
}
