// Commit-confirm's routes, /confirm/<id>: a change armed with `?confirm_within`, shown, made
// permanent, renewed or rolled back. Any token may ask; each verb needs the write scope of every
// package the change touched. And the parameters that arm or join a change on a configuration write.
import { disarm, isoTime, readArmed, rollBack, superviseHelper, windowSeconds, writeArmed, type Armed, type Confirming } from '../config/armed.js';
import { requireScope, type Caller } from '../auth/gate.js';
import { packageTarget } from '../engine/raw.js';
import { runTransaction } from '../engine/transaction.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { acquireLocks } from '../config/locks.js';
import { ApiError } from '../http/errors.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import type { Ports } from '../platform/ports.js';
import { ulid } from '../platform/ulid.js';
import type { Context, Handler, Route } from './context.js';

function view(armed: Armed) {
  const { id, token, packages, services } = armed;
  return { id, token, armed_at: isoTime(armed.armed_at), expires_at: isoTime(armed.deadline), packages, services };
}

function armedChange({ ports, params, caller }: Context): Armed {
  const armed = readArmed(ports);
  if (armed?.id !== params.id) throw new ApiError(404, 'not_found', `No change awaits confirmation as ${params.id}: it was confirmed or rolled back, or never armed`);
  authorizeConfirm(caller!, armed.packages);
  return armed;
}

/** Under the global lock, exclusively, as the helper's rollback: neither can change what the other is doing. */
function exclusively<T>(ports: Ports, work: () => T): T {
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    return work();
  } finally {
    held.release();
  }
}

export function GET(context: Context) {
  const armed = armedChange(context);
  superviseHelper(context.ports, armed);
  return jsonResponse(200, view(armed));
}

/** Confirms the change, which then stays; with `?extend=<seconds>`, renews its window from now instead. */
export function POST(context: Context) {
  const { ports, request } = context;
  const extend = request.queryNames.has('extend') ? windowSeconds('extend', request.query.get('extend')) : undefined;
  return exclusively(ports, () => {
    const armed = armedChange(context);
    if (extend === undefined) {
      disarm(ports, armed);
      return plainResponse(204, undefined);
    }
    armed.deadline = Math.floor(ports.now() / 1000) + extend;
    writeArmed(ports, armed);
    superviseHelper(ports, armed);
    return jsonResponse(200, view(armed));
  });
}

/** Rolls the change back now, as its deadline would: the packages as they were, their services reloaded. */
export function DELETE(context: Context) {
  return exclusively(context.ports, () => {
    const { failures } = rollBack(context.ports, armedChange(context), true);
    if (failures.length) {
      throw new ApiError(500, 'reload_failed_restored', 'The change was rolled back, but reloading a service failed', { reload_error: failures.join('; ') });
    }
    return plainResponse(204, undefined);
  });
}

const CONFIRM_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Whether the change a token arms or joins is one it could confirm: confirming or rolling back puts
 * whole packages back, so it needs the write scope of each package as a whole (`firewall:rw`;
 * `prometheus_node_exporter_lua:rw` for its package's hyphens; `luci:rw` for a package no resource serves).
 */
export function authorizeConfirm(caller: Caller, packages: string[]): void {
  for (const pkg of packages) requireScope(caller, packageTarget(pkg), true);
}

/**
 * A write's confirm parameters: only configuration writes (those that have a dry run) take them, and
 * one at a time. Named but empty is a 400, as `dry_run`'s: the write would otherwise go through
 * unarmed, with nothing to roll it back.
 */
export function confirmingOf(ports: Ports, request: Request, route: Route, caller: Caller): Confirming {
  if (!route.dryRuns) throw new ApiError(400, 'bad_request', `${request.method} ${route.template} changes no configuration package; it takes neither confirm_within nor confirm_id`);
  const arming = request.queryNames.has('confirm_within');
  if (arming && request.queryNames.has('confirm_id')) throw new ApiError(400, 'bad_request', 'confirm_within arms a change and confirm_id joins the armed one: give one of them');
  const join = request.query.get('confirm_id');
  if (!arming && !CONFIRM_ID.test(join ?? '')) throw new ApiError(400, 'bad_request', 'confirm_id must be the id a write with confirm_within answered in X-Confirm-Id');
  return {
    ...(arming ? { within: windowSeconds('confirm_within', request.query.get('confirm_within')), id: ulid(ports.now(), ports.randomBytes(10)) } : { join }),
    token: caller.token.name,
    authorize: (packages) => authorizeConfirm(caller, packages),
  };
}

/** Runs a write within its window: the batch runs its plans itself, every other write through `run`. */
export async function confirming(handler: Handler, context: Context): Promise<Response> {
  const { ports, confirm } = context;
  if (context.route.template === '/batch') return handler(context);
  let window: Record<string, string> = {};
  const response = await handler({
    ...context,
    run: async (plan) => {
      const written = await runTransaction(ports, plan, confirm);
      window = Object.fromEntries(Object.entries(written.headers).filter(([name]) => name.startsWith('X-Confirm-')));
      return written;
    },
  });
  // A raw write answers none of its transaction's headers, but the window's it must: its id is how it is confirmed.
  return { ...response, headers: { ...response.headers, ...window } };
}
