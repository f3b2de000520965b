// /confirm/<id>: a change armed with `?confirm_within`, shown, made permanent, renewed or rolled back.
// Any token may ask; each verb needs the write scope of every package the change touched.
import { disarm, isoTime, readArmed, rollBack, superviseHelper, writeArmed, type Armed } from '../config/armed.js';
import { acquireLocks } from '../config/locks.js';
import { windowSeconds } from '../engine/window.js';
import { ApiError } from '../http/errors.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import type { Ports } from '../platform/ports.js';
import { authorizeConfirm } from './confirm-write.js';
import type { Context } from './context.js';

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
