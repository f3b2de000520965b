// `?confirm_within=<seconds>` and `?confirm_id=<id>` on a configuration write: what the transaction
// needs to arm a change or join the armed one (engine/window.ts).
import { requireScope, type Caller } from '../auth/gate.js';
import { runTransaction } from '../engine/transaction.js';
import { windowSeconds, type Confirming } from '../engine/window.js';
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Context, Handler, Route } from './context.js';

const CONFIRM_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Whether the change a token arms or joins is one it could confirm: confirming or rolling back puts
 * whole packages back, so it needs the write scope of each package's own domain, as raw access to a
 * package outside the curated set does.
 */
export function authorizeConfirm(caller: Caller, packages: string[]): void {
  for (const pkg of packages) requireScope(caller, { domain: pkg }, true);
}

/** A write's confirm parameters: only configuration writes (those that have a dry run) take them, and one at a time. */
export function confirmingOf(request: Request, route: Route, caller: Caller): Confirming {
  if (!route.dryRuns) throw new ApiError(400, 'bad_request', `${request.method} ${route.template} changes no configuration package; it takes neither confirm_within nor confirm_id`);
  const within = request.query.get('confirm_within');
  const join = request.query.get('confirm_id');
  if (within !== undefined && join !== undefined) throw new ApiError(400, 'bad_request', 'confirm_within arms a change and confirm_id joins the armed one: give one of them');
  if (join !== undefined && !CONFIRM_ID.test(join)) throw new ApiError(400, 'bad_request', 'confirm_id must be the id a write with confirm_within answered in X-Confirm-Id');
  return {
    ...(within !== undefined ? { within: windowSeconds('confirm_within', within) } : { join }),
    token: caller.token.name,
    authorize: (packages) => authorizeConfirm(caller, packages),
  };
}

/** Runs a write within its window: the batch runs its plans itself, every other write through `run`. */
export function confirming(handler: Handler, context: Context): Response | Promise<Response> {
  const { ports, confirm } = context;
  if (context.route.template === '/batch') return handler(context);
  return handler({ ...context, run: (plan) => runTransaction(ports, plan, confirm) });
}
