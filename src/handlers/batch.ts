// POST /batch: up to 50 operations on curated and raw paths as one transaction. Each operation
// runs through the same handler (or raw write) as on its own, with a runner that hands its plan to
// the batch instead of running it: once every operation has given its plan, the plans run as one
// transaction (engine/transaction.ts runPlans), and each operation's answer is made from its result.
import { requireAccess } from '../auth/gate.js';
import { configPath } from '../config/store.js';
import { findResourceSection, sectionsOf, viewOf } from '../engine/read.js';
import { checkRawPackage, rawView, readableSections } from '../engine/raw.js';
import { PlanFailure, runPlans, type Ran, type WritePlan, type Written } from '../engine/transaction.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { validationFailed } from '../http/validation-failed.js';
import { bodyObject } from '../http/json-body.js';
import { isUnwritable, UNWRITABLE_MESSAGE } from '../http/text.js';
import { refuseUnexpectedBody, type Request } from '../http/request.js';
import { plainResponse, type Response } from '../http/response.js';
import { eventOf, logLine } from '../pipeline/events.js';
import type { Json, JsonObject } from '../resources/model.js';
import { findSection } from '../uci/index.js';
import type { Context, Runner } from './context.js';
import { requireCurated } from './raw-common.js';

const MAX_OPERATIONS = 50;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const MEMBERS = ['method', 'path', 'body', 'if_match'];
// A curated or raw path: segments of the characters their ids and package names hold.
const PATH = /^(\/[A-Za-z0-9_-]+)+$/;

interface Operation {
  method: string;
  path: string;
  body?: Json;
  if_match?: string;
}

interface Answer {
  status: number;
  /**
   * The body as JSON text, as the operation's own answer holds it: spliced into the batch's answer
   * as it is, where parsing it and writing it again cost a router 0.3M instructions an operation.
   */
  body: string;
  /** X-Mgmt-Path-Warning of the operation, which the batch's answer carries for it. */
  warning?: string;
}

function operationsOf(body: JsonObject): Operation[] {
  const errors: FieldError[] = Object.keys(body).filter((name) => name !== 'operations').map((field) => ({ field, code: 'unknown_field', message: `${field} is not a member of a batch` }));
  const operations = body.operations;
  if (!Array.isArray(operations)) errors.push({ field: 'operations', code: operations === undefined ? 'required' : 'invalid_type', message: 'operations must be an array of operations' });
  else if (operations.length < 1 || operations.length > MAX_OPERATIONS) errors.push({ field: 'operations', code: 'out_of_range', message: `a batch holds 1 to ${MAX_OPERATIONS} operations` });
  else {
    operations.forEach((operation, i) => {
      const at = `operations[${i}]`;
      if (operation === null || typeof operation !== 'object' || Array.isArray(operation)) {
        errors.push({ field: at, code: 'invalid_type', message: `${at} must be an object` });
        return;
      }
      for (const name of Object.keys(operation)) if (!MEMBERS.includes(name)) errors.push({ field: `${at}.${name}`, code: 'unknown_field', message: `${name} is not a member of an operation` });
      if (!METHODS.includes(operation.method as string)) errors.push({ field: `${at}.method`, code: 'not_in_enum', message: `method must be one of ${METHODS.join(', ')}` });
      if (typeof operation.path !== 'string' || !PATH.test(operation.path)) errors.push({ field: `${at}.path`, code: 'invalid_format', message: 'path is a curated or raw path below the base URL, such as /firewall/rules/r_1, without a query' });
      if (operation.if_match !== undefined && typeof operation.if_match !== 'string') errors.push({ field: `${at}.if_match`, code: 'invalid_type', message: 'if_match must be a string' });
      else if (typeof operation.if_match === 'string' && isUnwritable(operation.if_match)) errors.push({ field: `${at}.if_match`, code: 'invalid_format', message: `if_match ${UNWRITABLE_MESSAGE}` });
    });
  }
  if (errors.length) throw validationFailed(errors, 'The batch');
  return operations as unknown as Operation[];
}

/** The operation as a request of its own: its `if_match` is the query form, its body the batch's value of it. */
function subRequest(request: Request, operation: Operation): Request {
  const query = new Map<string, string>(operation.if_match === undefined ? [] : [['if_match', operation.if_match]]);
  const jsonPatch = operation.method === 'PATCH' && Array.isArray(operation.body);
  return {
    ...request,
    method: operation.method,
    path: operation.path,
    segments: operation.path.split('/').slice(1),
    query,
    queryNames: new Set(query.keys()),
    contentType: jsonPatch ? 'application/json-patch+json' : 'application/json',
    header: () => undefined,
    headerOrQuery: (_header, name) => query.get(name),
    hasBody: operation.body !== undefined && operation.body !== null,
    body: async () => (operation.body === undefined ? '' : JSON.stringify(operation.body)),
    parsedBody: operation.body,
  };
}

/** A read of the staged configuration, as a plan that writes nothing. */
function readPlan(packages: string[], read: (staged: (pkg: string) => import('../uci/index.js').UciPackage) => Json): WritePlan<JsonObject> {
  return { packages, writes: [], reload: [], stage: (staged) => read(staged) as JsonObject };
}

function answerOf(response: Response): Answer {
  const warning = response.headers['X-Mgmt-Path-Warning'];
  return { status: response.status, body: response.body || 'null', ...(warning ? { warning } : {}) };
}

/** A raw read, of the configuration as the operations before it staged it. */
async function readRaw({ ports, request, params, caller, run }: Context): Promise<Answer> {
  const pkg = params.package;
  checkRawPackage(pkg, request.method, ports.stat(configPath(pkg)) !== undefined);
  const plan = readPlan([pkg], (staged) => {
    if (params.id === undefined) return readableSections(pkg, staged(pkg).sections, caller!).map((section) => rawView(pkg, section));
    const section = findSection(staged(pkg), params.id);
    if (!section) throw new ApiError(404, 'not_found', `${pkg} has no section ${params.id}`);
    requireCurated(caller!, pkg, section.type, false);
    return rawView(pkg, section);
  });
  return { status: 200, body: JSON.stringify((await run!(plan)).result) };
}

/** One operation, through the handler or raw write its path has, with `run` taking its plan. */
async function perform(context: Context, operation: Operation, index: number, run: Runner): Promise<Answer> {
  const request = subRequest(context.request, operation);
  const { route, params } = await context.findRoute(operation.method, request.segments);
  refuseUnexpectedBody(request, route.template);
  const raw = route.template.startsWith('/raw/');
  if (!route.resource && !raw) {
    const field = `operations[${index}].path`;
    throw new ApiError(422, 'validation_failed', `${operation.path} cannot be part of a batch`, { errors: [{ field, code: 'invalid_format', message: 'a batch holds operations on curated and raw paths only' }] });
  }
  const write = operation.method !== 'GET';
  if (typeof route.access === 'object') requireAccess(context.caller!, route.access, params, write);
  const sub: Context = { ...context, request, params, route, run };
  // A write runs through its route's own handler, with `run` taking its plan; a read answers the staged configuration.
  if (write || route.resource?.kind === 'view') return answerOf(await (await route.load())[operation.method]!(sub));
  if (raw) return readRaw(sub);
  const entry = route.resource!;
  const definition = (await entry.module()).mapping;
  const plan = readPlan([definition.package], (staged) => {
    const model = staged(definition.package);
    if (entry.kind === 'collection' && params.id === undefined) return sectionsOf(definition, model).map((section) => viewOf(definition, section));
    return viewOf(definition, findResourceSection(definition, model, params.id));
  });
  return { status: 200, body: JSON.stringify((await run(plan)).result) };
}

/**
 * Every operation's plan, run as one transaction: 207 with each operation's `{status, body}` and
 * the reload and kernel headers once; or the first failure, with everything as it was.
 */
export async function POST(context: Context): Promise<Response> {
  const { ports, requestId } = context;
  const started = ports.now();
  const operations = operationsOf((await bodyObject(context.request)) as JsonObject);
  const plans: WritePlan<JsonObject>[] = [];
  const settle: ((written: Written<JsonObject>) => void)[] = [];
  let unplanned = operations.length;
  let allPlanned!: () => void;
  const planned = new Promise<void>((resolve) => (allPlanned = resolve));
  const answers = operations.map((operation, index) =>
    perform(context, operation, index, (plan) => {
      plans[index] = plan;
      if (--unplanned === 0) allPlanned();
      return new Promise((resolve) => (settle[index] = resolve));
    }).catch((error) => {
      throw error instanceof PlanFailure ? error : new PlanFailure(index, error);
    }),
  );
  answers.forEach((answer) => answer.catch(() => undefined));
  let results: Answer[];
  let ran: Ran<JsonObject>;
  try {
    // Until every operation has given its plan, or one has failed before it could.
    await Promise.race([planned, ...answers.map((answer) => answer.then(() => new Promise<never>(() => undefined)))]);
    ran = await runPlans(ports, plans, { attribute: true, dryRun: context.dryRun, confirm: context.confirm });
    ran.results.forEach((result, index) => settle[index]({ result, headers: {} }));
    results = await Promise.all(answers);
  } catch (error) {
    if (!(error instanceof PlanFailure)) throw error;
    return failure(context, operations, error, ports.now() - started);
  }
  const token = context.caller!.token.name;
  results.forEach(({ status }, index) => {
    const event = eventOf(status, operations[index].method !== 'GET');
    if (event) logLine(event[0], `${requestId}.${index} ${token} ${event[1]} - ${operations[index].method} ${pathOf(context, operations[index])} ${status} ${ports.now() - started}ms`);
  });
  // A warning's fields are comma-separated: the operations' warnings are joined with `; `.
  const warnings = results.flatMap(({ warning }) => (warning ? [warning] : []));
  const warning: Record<string, string> = warnings.length ? { 'X-Mgmt-Path-Warning': warnings.join('; ') } : {};
  if (ran.dryRun) {
    const each = results.map(({ status, body }) => ({ status, body: JSON.parse(body) as Json }));
    return (await import('./dry-run.js')).dryRunResponse({ results: each }, ran.dryRun, warning);
  }
  // Each body is JSON.stringify's text, so this is the text JSON.stringify would give of them all.
  const answer = plainResponse(207, 'application/json', `{"results":[${results.map(({ status, body }) => `{"status":${status},"body":${body}}`).join(',')}]}`);
  return { ...answer, headers: { ...answer.headers, ...ran.headers, ...warning } };
}

/** An operation's path as its log line shows it: a dry run's says so, as the batch's own line does. */
function pathOf({ dryRun }: Context, { path }: Operation): string {
  return dryRun ? `${path}?dry_run=true` : path;
}

/** The failing operation's status, its envelope inside `batch_partial_failure`, and its own log line. */
function failure(context: Context, operations: Operation[], { index, error }: PlanFailure, ms: number): never {
  const { requestId, caller } = context;
  const failed = error instanceof ApiError ? error : new ApiError(500, 'internal_error', 'Internal error');
  if (!(error instanceof ApiError)) logLine('err', `wrtapi-internal ${requestId}.${index}: ${String((error as Error)?.message ?? error)}`);
  const { headers, ...members } = failed.details;
  const event = eventOf(failed.status, operations[index].method !== 'GET');
  const { method, path } = operations[index];
  if (event) logLine(event[0], `${requestId}.${index} ${caller!.token.name} ${event[1]} ${failed.code} ${method} ${pathOf(context, operations[index])} ${failed.status} ${ms}ms`);
  // A failed restore leaves the router as the failed reload did: only then is anything changed.
  const reverted = failed.code !== 'reload_failed_unrecovered';
  const outcome = reverted ? 'nothing was changed' : 'the restore failed too, and the router needs manual recovery';
  throw new ApiError(failed.status, 'batch_partial_failure', `Operation ${index} (${method} ${path}) failed: ${failed.message}; ${outcome}`, {
    aborted_at_index: index,
    error: { code: failed.code, message: failed.message, request_id: `${requestId}.${index}`, ...members },
    reverted,
    // Of the operation's own headers only Retry-After (423, 429) holds for the batch; an Allow names the operation's path.
    headers: headers?.['Retry-After'] ? { 'Retry-After': headers['Retry-After'] } : undefined,
  });
}
