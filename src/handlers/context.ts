// What the route table promises a handler, and what a handler gives back: routes.ts builds the
// table from these, and every handler takes a Context.

import type { Caller } from '../auth/gate.js';
import type { RouteAccess } from '../auth/scopes.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject, ResourceEntry } from '../resources/model.js';
import type { WritePlan, Written } from '../engine/transaction.js';
import type { Confirming } from '../config/armed.js';

export interface Context {
  ports: Ports;
  request: Request;
  requestId: string;
  /** Values of the route template's `:name` segments. */
  params: Record<string, string>;
  /** The authenticated caller; absent on open routes. */
  caller?: Caller;
  route: Route;
  /**
   * Within a batch: runs the operation's transaction plan as part of the batch's one transaction;
   * in a dry run, as a transaction that stops once staged.
   */
  run?: Runner;
  /** The request is a dry run (`?dry_run=true`): the batch reads it; other writes get a dry `run`. */
  dryRun?: boolean;
  /** `?confirm_within` or `?confirm_id`: the write arms a change awaiting confirmation, or joins it. */
  confirm?: Confirming;
  /** The route of another path, for a batch's operations. */
  findRoute(method: string, segments: string[]): Promise<{ route: Route; params: Record<string, string> }>;
}

/** Runs a write's plan: alone as its own transaction, or as one operation of a batch's. */
export type Runner = (plan: WritePlan<JsonObject>) => Promise<Written<JsonObject>>;

export type Handler = (context: Context) => Response | Promise<Response>;

/** A route module exports one handler per verb it serves, named after the verb. */
export type RouteModule = Partial<Record<string, Handler>>;

export interface Route {
  /** The path template, also the `path` label of metrics, e.g. `/firewall/rules/:id`. */
  template: string;
  methods: string[];
  /** `open`: served without a token (the TLS rule still applies); `token`: any valid token, no scope check. */
  access: RouteAccess;
  load: () => Promise<RouteModule>;
  /** The curated resource a route of the generic engine serves. */
  resource?: ResourceEntry;
  /** Its writes take `?dry_run=true`. */
  dryRuns?: true;
}
