import type { Caller } from './auth/gate.js';
import type { LockedError } from './config/locks.js';
import { ApiError, type FieldError } from './http/errors.js';
import type { SyslogLevel } from './pipeline/events.js';
import { recordRequest } from './pipeline/metrics.js';
import type { Ports } from './platform/ports.js';
import { readRequest, refuseUnexpectedBody, type Request } from './http/request.js';
import { errorResponse, renderCgiHead, type Response } from './http/response.js';
import type { Route, RouteModule } from './handlers/context.js';
import { routeTable } from './engine/tables.js';
import type { FixedRoute } from './routes.js';
import type { Confirming } from './config/armed.js';
import { ulid } from './platform/ulid.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9_-]{8,128}$/;
const INSECURE_MARKER = '/etc/wrtapi.insecure';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the pipeline learned about a request, for the answer and for what follows it. */
interface Outcome {
  requestId: string;
  request?: Request;
  route?: Route;
  caller?: Caller;
  response?: Response;
  error?: ApiError;
  insecureBypass?: boolean;
  internalError?: Error;
  /** A write with `?dry_run=true`, which changes nothing. */
  dryRun?: boolean;
  /** A write with `?confirm_within` or `?confirm_id`. */
  confirm?: Confirming;
}

/** One CGI request, start to end. */
export async function handleRequest(ports: Ports): Promise<void> {
  const started = ports.now();
  const outcome: Outcome = { requestId: clientRequestId(ports.env('HTTP_X_REQUEST_ID')) ?? '' };
  try {
    const request = (outcome.request = readRequest(ports));
    outcome.requestId ||= clientRequestId(request.query.get('request_id')) ?? newRequestId(ports);
    await enforceTransportRule(ports, request, outcome);
    const { route, params } = await findRoute(request.method, request.segments).catch(async (error) => {
      // Only GETs of the open routes need no token (spec: Authentication 1): without one, a caller
      // learns nothing of the other paths, not even whether they exist.
      outcome.caller = await (await import('./auth/gate.js')).authenticate(ports, request);
      throw error;
    });
    outcome.route = route;
    if (route.access !== 'open') {
      const gate = await import('./auth/gate.js');
      const caller = (outcome.caller = await gate.authenticate(ports, request));
      // A read ignores dry_run, as any query parameter it does not take; only a write naming it loads its check.
      if (WRITE_METHODS.has(request.method) && request.queryNames.has('dry_run')) outcome.dryRun = (await import('./handlers/dry-run.js')).isDryRun(request, route);
      if (WRITE_METHODS.has(request.method) && (request.queryNames.has('confirm_within') || request.queryNames.has('confirm_id'))) {
        outcome.confirm = (await import('./handlers/confirm.js')).confirmingOf(ports, request, route, caller);
      }
      // A dry run leaves no trace of its token's use: the bucket counts it, the last-use stamp does not.
      gate.enforceRateLimit(ports, caller, request.remoteAddr, !outcome.dryRun);
      if (route.access !== 'token') gate.requireAccess(caller, route.access, params, WRITE_METHODS.has(request.method));
    }
    refuseUnexpectedBody(request, route.template);
    const run = async () => {
      const handler = (await route.load())[request.method]!;
      const context = { ports, request, requestId: outcome.requestId, params, caller: outcome.caller, route, findRoute, confirm: outcome.confirm };
      if (outcome.dryRun) return (await import('./handlers/dry-run.js')).dryRun(handler, context);
      return outcome.confirm ? (await import('./handlers/confirm.js')).confirming(handler, context) : handler(context);
    };
    outcome.response = await idempotent(ports, request, outcome, run);
  } catch (error) {
    outcome.requestId ||= newRequestId(ports);
    outcome.response = answerError(error, outcome);
  }
  // Lines and records first: uhttpd kills a program whose client hangs up, and clients hang up as
  // soon as a 204's headers arrive, so whatever came after the answer could be lost.
  await recordOutcome(ports, outcome, ports.now() - started);
  ports.writeStdout(renderCgiHead(outcome.response, outcome.requestId));
  if (outcome.response.body) ports.writeStdout(outcome.response.body);
  if (outcome.response.bytes) ports.writeStdoutBytes(outcome.response.bytes);
}

interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

// Imported once a process, as the tables are (engine/tables.ts): a batch routes each of its operations.
let resourceRoutes: Promise<typeof import('./handlers/resource-routes.js')> | undefined;

/**
 * The route for a request, from the table of its path's first segment: a fixed route of src/routes.ts,
 * else a curated resource of the domain of that name. `404 not_found` for an unknown path, `405`
 * for a verb the route does not serve.
 */
async function findRoute(method: string, segments: string[]): Promise<RouteMatch> {
  const table = await routeTable<FixedRoute>(segments[0] ?? '');
  let match: RouteMatch | undefined;
  for (const { handler, ...fixed } of table.routes) {
    const params = matchTemplate(fixed.template, segments);
    if (!params) continue;
    // The bundle keeps each route module at src/handlers/<name> (rollup.config.ts).
    match = { route: { ...fixed, load: (): Promise<RouteModule> => import(`./handlers/${handler}.js`) }, params };
    break;
  }
  if (!match && table.resources.length) match = (await (resourceRoutes ??= import('./handlers/resource-routes.js'))).resourceRoute(table.resources, segments);
  if (!match) throw new ApiError(404, 'not_found', `No resource at /${segments.join('/')}`);
  if (!match.route.methods.includes(method)) {
    throw new ApiError(405, 'method_not_allowed', `${method} is not supported on ${match.route.template}`, {
      headers: { Allow: match.route.methods.join(', ') },
    });
  }
  return match;
}

function matchTemplate(template: string, segments: string[]): Record<string, string> | undefined {
  const parts = template.split('/').filter(Boolean);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(':')) params[parts[i].slice(1)] = segments[i];
    else if (parts[i] !== segments[i]) return undefined;
  }
  return params;
}

function clientRequestId(candidate: string | undefined): string | undefined {
  return candidate !== undefined && CLIENT_REQUEST_ID.test(candidate) ? candidate : undefined;
}

function newRequestId(ports: Ports): string {
  return ulid(ports.now(), ports.randomBytes(10));
}

/**
 * Plain HTTP is for loopback callers only; the operator's marker file lets remote plain HTTP
 * through for closed-network testing. The rule runs before routing, so it covers unknown paths too.
 */
async function enforceTransportRule(ports: Ports, request: Request, outcome: Outcome): Promise<void> {
  if (request.https) return;
  const { isLoopback } = await import('./auth/cidr.js');
  if (isLoopback(request.remoteAddr)) return;
  if (ports.stat(INSECURE_MARKER) === undefined) {
    throw new ApiError(403, 'tls_required', 'Plain HTTP is accepted from loopback clients only; use HTTPS');
  }
  outcome.insecureBypass = true;
}

/** A POST with an `Idempotency-Key` runs once per token and key; repeats get the stored answer. */
async function idempotent(ports: Ports, request: Request, outcome: Outcome, run: () => Promise<Response>): Promise<Response> {
  // A dry run neither consumes a key nor replays one: the write it tries may follow with that key.
  const key = request.method === 'POST' && !outcome.dryRun ? request.headerOrQuery('Idempotency-Key', 'idempotency_key') : undefined;
  if (key === undefined || !outcome.caller) return run();
  const { claimIdempotency, settleIdempotency } = await import('./pipeline/idempotency.js');
  const claim = claimIdempotency(ports, outcome.caller.token.name, key, { method: request.method, path: request.path, body: await request.body() });
  if (!('path' in claim)) return claim;
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    response = answerError(error, outcome);
  }
  settleIdempotency(ports, claim, response);
  return response;
}

function answerError(error: unknown, outcome: Outcome): Response {
  if (error instanceof ApiError) {
    outcome.error = error;
  } else {
    outcome.internalError = error instanceof Error ? error : new Error(String(error));
    outcome.error = new ApiError(500, 'internal_error', 'Internal error');
  }
  return errorResponse(outcome.error, outcome.requestId);
}

/** Log lines, metrics and the error ring, before the answer leaves: none of them may change it. */
async function recordOutcome(ports: Ports, outcome: Outcome, durationMs: number): Promise<void> {
  const { request, requestId, error } = outcome;
  const method = request?.method ?? ports.env('REQUEST_METHOD') ?? '-';
  // A dry run's lines and errors say so: they must not read as a change made.
  const path = request ? `${request.path}${outcome.dryRun ? '?dry_run=true' : ''}` : '-';
  const status = outcome.response!.status;
  const token = outcome.caller?.token.name ?? '-';
  if (error) {
    (await import('./pipeline/error-ring.js')).rememberError(ports, {
      ts: Math.floor(ports.now() / 1000),
      request_id: requestId,
      code: error.code,
      status,
      method,
      path,
      message: error.message,
    });
  }
  try {
    await recordRequest(ports, {
      method,
      path: outcome.route?.template ?? '-',
      status,
      token,
      seconds: durationMs / 1000,
      dryRun: outcome.dryRun,
      rateLimitDrop: error?.code === 'too_many_requests',
      lockType: (error as Partial<LockedError> | undefined)?.lockType,
      // By the route, never the path: a raw section's id in a label would make a series per section.
      validateErrors: fieldErrorsOf(error)?.map(({ code }) => ({ resource: outcome.route?.resource?.path ?? outcome.route?.template ?? '-', code })),
    });
  } catch {
    // Metrics are best effort.
  }
  try {
    await logEvents(ports, outcome, (severity) => `${requestId} ${token} ${severity} ${error?.code ?? '-'} ${method} ${path} ${status} ${durationMs}ms`);
  } catch {
    // A broken logger must not turn an answered request into a failed process.
  }
}

/**
 * The spec's Events: the event categories skip /healthz, non-auth 4xx answers and successful reads.
 * The insecure-bypass line is not a category but the trace of a weakened transport, so every request
 * that takes the bypass leaves one, /healthz included. Only a write or a refusal can be an event, so
 * a successful read loads the module that sends lines only when the settings ask it for one.
 */
async function logEvents(ports: Ports, outcome: Outcome, line: (severity: string) => string): Promise<void> {
  const { request, requestId } = outcome;
  const status = outcome.response!.status;
  const lines: [SyslogLevel, string][] = [];
  // A write's own lines (a batch's per operation) wait in the module for flushLog.
  let events = request && WRITE_METHODS.has(request.method) ? await import('./pipeline/events.js') : undefined;
  try {
    if (outcome.internalError) lines.push(['err', `wrtapi-internal ${requestId}: ${outcome.internalError.message}`]);
    if (!request) return;
    if (outcome.insecureBypass) lines.push(['notice', `wrtapi-insecure-bypass ${requestId} ${request.method} ${request.path} status=${status} remote=${request.remoteAddr}`]);
    if (request.path === '/healthz') return;
    if (status >= 400) events ??= await import('./pipeline/events.js');
    const event = events?.eventOf(status, WRITE_METHODS.has(request.method));
    if (event) lines.push([event[0], line(event[1])]);
    const config = outcome.caller?.config ?? (await (await import('./config/store.js')).readPackage(ports, 'wrtapi'));
    const settings = config.sections.find((section) => section.type === 'wrtapi');
    if (settings?.options.get('debug') === '1') {
      for (const call of (await import('./platform/bus.js')).busCalls()) {
        lines.push(['debug', `${line('DEBUG')} ubus call ${call.object} ${call.method} exit=${call.code} ${call.ms}ms`]);
      }
    }
    if (settings?.options.get('access') === '1') lines.push(['info', line('ACCESS')]);
  } finally {
    if (lines.length) events ??= await import('./pipeline/events.js');
    for (const [level, text] of lines) events!.logLine(level, text);
    events?.flushLog(ports);
  }
}

/** A refused write's field errors: its own, or those of the batch operation it failed at. */
function fieldErrorsOf(error: ApiError | undefined): FieldError[] | undefined {
  return error?.details.errors ?? (error?.details.error?.errors as FieldError[] | undefined);
}
