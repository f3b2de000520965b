// A write with `?dry_run=true`: its own handler runs it, checked as the real write is, with a runner
// whose transaction stops once staged (engine/transaction.ts runPlans); the answer says what the
// write would do. The batch runs its operations' plans itself, and answers its own dry run.
import { runPlans, type DryRun } from '../engine/transaction.js';
import { ApiError } from '../http/errors.js';
import type { Request } from '../http/request.js';
import { jsonResponse, type Response } from '../http/response.js';
import type { Json, JsonObject } from '../resources/model.js';
import type { Context, Handler, Route } from './context.js';

/**
 * Whether a write that names `dry_run` is one: `true` on a route that has dry runs; `false` is the
 * write itself. Any other value, an empty one included, is a 400, as is a dry run of a write that
 * has none: either would otherwise do the write a client meant to try.
 */
export function isDryRun(request: Request, route: Route): boolean {
  const value = request.query.get('dry_run');
  if (value !== 'true' && value !== 'false') throw new ApiError(400, 'bad_request', 'dry_run must be true or false');
  if (value === 'true' && !route.dryRuns) throw new ApiError(400, 'bad_request', `${request.method} ${route.template} has no dry run`);
  return value === 'true';
}

export async function dryRun(handler: Handler, context: Context): Promise<Response> {
  if (context.route.template === '/batch') return handler({ ...context, dryRun: true });
  let ran: { result: JsonObject; found: DryRun } | undefined;
  const response = await handler({
    ...context,
    dryRun: true,
    run: async (plan) => {
      const { results, dryRun: found } = await runPlans(context.ports, [plan], { dryRun: true, confirm: context.confirm });
      ran = { result: results[0], found: found! };
      return { result: results[0], headers: {} };
    },
  });
  const { result, found } = ran!;
  // A DELETE answers 204 with no body: the dry run shows the resource it would remove.
  return dryRunResponse(response.status === 204 ? { resource: null, removed: result } : { resource: result }, found, response.headers);
}

/** 200, marked as a dry run, with the write's management-path warning: what it found, after what it would answer. */
export function dryRunResponse(answer: Record<string, Json>, { changes, reload }: DryRun, headers: Record<string, string>): Response {
  const warning = headers['X-Mgmt-Path-Warning'];
  return jsonResponse(200, { dry_run: true, ...answer, changes, reload }, { 'X-Dry-Run': 'true', ...(warning ? { 'X-Mgmt-Path-Warning': warning } : {}) });
}
