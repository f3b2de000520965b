import { targetName } from '../auth/scopes.js';
import { SERVICE_PACKAGE } from '../auth/tokens.js';
import { lockState } from '../config/locks.js';
import { recentErrors } from '../pipeline/error-ring.js';
import { ApiError } from '../http/errors.js';
import { allResources } from '../engine/tables.js';
import { managementPath } from '../engine/management-path.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';
import { VERSION } from '../platform/version.js';

/** `GET /diagnostics`, with `?validate=1` the sweep of every section the token may read. */
export async function GET({ ports, request, requestId, caller }: Context) {
  const validate = request.query.get('validate') ?? '0';
  if (validate !== '0' && validate !== '1') throw new ApiError(400, 'bad_request', 'validate must be 0 or 1');
  const resources = await allResources();
  const body = {
    version: VERSION,
    uptime_seconds: Math.floor(parseFloat(ports.readFile('/proc/uptime')!)),
    resources_loaded: resources.map((entry) => targetName(entry.scope)),
    lock_state: lockState(ports, [...new Set([SERVICE_PACKAGE, ...resources.map((entry) => entry.package)])]),
    recent_errors: recentErrors(ports),
    management_path: managementPath(ports, request.remoteAddr),
    request_id: requestId,
  };
  if (validate === '0') return jsonResponse(200, body);
  const { sweep } = await import('../engine/sweep.js');
  return jsonResponse(200, { ...body, ...(await sweep(ports, caller!.token.scopes)) });
}
