import { readPackage } from '../config/store.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import type { Request } from '../http/request.js';
import type { UciPackage } from '../uci/index.js';
import { limitFor, takeFromBucket } from './ratelimit.js';
import { decide, targetName, type ScopedAccess, type Target } from './scopes.js';
import { SERVICE_PACKAGE, tokenOfBearer, tokensIn, withLastUse, type Token } from './tokens.js';

const BEARER = /^Bearer +([!-~]+)$/i;

function unauthenticated(code: 'unauthorized' | 'invalid_token', message: string): ApiError {
  return new ApiError(401, code, message, { headers: { 'WWW-Authenticate': `Bearer realm="wrtapi", error="${code}"` } });
}

export interface Caller {
  token: Token;
  /** /etc/config/wrtapi as read for this request: the token store and the service's settings. */
  config: UciPackage;
}

/** The caller's token from `Authorization: Bearer`, re-read from the store on every request. */
export async function authenticate(ports: Ports, request: Request): Promise<Caller> {
  const header = request.header('Authorization');
  const bearer = header === undefined ? undefined : BEARER.exec(header.trim())?.[1];
  if (bearer === undefined) throw unauthenticated('unauthorized', 'Missing or malformed Authorization header; expected "Bearer <token>"');
  const config = await readPackage(ports, SERVICE_PACKAGE);
  const token = tokenOfBearer(ports, tokensIn(config), bearer);
  if (!token) throw unauthenticated('invalid_token', 'Unknown token');
  if (token.expiresAt !== undefined && ports.now() / 1000 >= token.expiresAt) throw unauthenticated('invalid_token', 'Token expired');
  // Loaded only for tokens that restrict their sources.
  if (token.allowedCidrs.length && !(await import('./cidr.js')).addressInList(request.remoteAddr, token.allowedCidrs)) {
    throw unauthenticated('invalid_token', 'Source IP not permitted for this token');
  }
  return { token, config };
}

/** Takes the request from the token's bucket and, unless told not to, stamps its use; the caller then carries the last use before it. */
export function enforceRateLimit(ports: Ports, caller: Caller, ip: string, stamp = true): void {
  caller.token = withLastUse(caller.token, takeFromBucket(ports, caller.token, limitFor(caller.config, caller.token), ip, stamp));
}

export function requireAccess(caller: Caller, { target, readsNeedRw }: ScopedAccess, params: Record<string, string>, write: boolean): void {
  const sub = target.sub?.startsWith(':') ? params[target.sub.slice(1)] : target.sub;
  requireScope(caller, sub === undefined ? { domain: target.domain } : { domain: target.domain, sub }, write || !!readsNeedRw);
}

export function requireScope(caller: Caller, target: Target, write: boolean): void {
  if (!decide(caller.token.scopes, target, write)) {
    throw new ApiError(403, 'insufficient_scope', `This token's scopes do not grant ${targetName(target)}:${write ? 'rw' : 'ro'}`);
  }
}
