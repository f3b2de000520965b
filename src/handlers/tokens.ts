import { mayMint } from '../auth/scope-tree.js';
import { mintProblems, mintToken, storedTokens, tokenRecord } from '../auth/token-admin.js';
import { ApiError } from '../http/errors.js';
import { validationFailed } from '../http/validation-failed.js';
import { bodyObject } from '../http/json-body.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';

const numberOrUndefined = (value: unknown) => (typeof value === 'number' ? value : undefined);

export async function GET({ ports }: Context) {
  return jsonResponse(200, (await storedTokens(ports)).map(tokenRecord));
}

/** `POST /tokens`: mints a token whose scopes are a strict subset of the caller's. */
export async function POST({ ports, request, caller }: Context) {
  const input = await bodyObject(request);
  const errors = mintProblems(ports, input, false);
  if (errors.length) throw validationFailed(errors, 'The token request');
  const scopes = input.scopes as string[];
  if (!mayMint(scopes, caller!.token.scopes)) {
    throw new ApiError(403, 'scope_escalation_blocked', 'The requested scopes must be a strict subset of the caller\'s');
  }
  const minted = await mintToken(ports, {
    name: input.name as string,
    scopes,
    expiresInSeconds: numberOrUndefined(input.expires_in_seconds),
    allowedCidrs: Array.isArray(input.allowed_cidrs) ? input.allowed_cidrs : [],
    rate: numberOrUndefined(input.rate),
    burst: numberOrUndefined(input.burst),
  });
  const response = jsonResponse(201, minted);
  // A replay confirms the token exists but never shows the bearer a second time.
  response.replayBody = JSON.stringify({ ...minted, bearer: null });
  return response;
}
