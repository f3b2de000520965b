// The route table, as data: imported by the build only (build/generators/mappings.ts), never by the bundle.
import type { RouteAccess, ScopedAccess } from './auth/scopes.js';

/** A route that is not a curated resource's: `handler` names its module under `src/handlers/`. */
export interface FixedRoute {
  /** The path template, also the `path` label of metrics. */
  template: string;
  methods: string[];
  access: RouteAccess;
  handler: string;
  /** Its writes take `?dry_run=true`. */
  dryRuns?: true;
}

const TOKENS: ScopedAccess = { target: { domain: 'wrtapi', sub: 'tokens' }, readsNeedRw: true };
// The pipeline checks the raw tree; the handlers the curated tree of each section's type.
const RAW: ScopedAccess = { target: { domain: 'raw', sub: ':package' } };
const INSTALLED: ScopedAccess = { target: { domain: 'packages', sub: 'installed' } };
const FEEDS: ScopedAccess = { target: { domain: 'packages', sub: 'feeds' } };
const AUTHORIZED_KEYS: ScopedAccess = { target: { domain: 'system', sub: 'authorized_keys' } };

/**
 * Every route besides the curated resources'. The build writes each into the table of its path's
 * first segment (`generated/tables/<segment>.ts`, beside the resources of the domain of that name),
 * and a request loads only its own segment's: the entry never compiles this list.
 */
export const FIXED_ROUTES: FixedRoute[] = [
  { template: '/healthz', methods: ['GET'], access: 'open', handler: 'healthz' },
  { template: '/openapi.json', methods: ['GET'], access: 'open', handler: 'openapi' },
  { template: '/schema', methods: ['GET'], access: 'open', handler: 'schema' },
  { template: '/schema/:package/:resource', methods: ['GET'], access: 'open', handler: 'schema' },
  { template: '/auth/whoami', methods: ['GET'], access: 'token', handler: 'whoami' },
  { template: '/metrics', methods: ['GET'], access: { target: { domain: 'wrtapi', sub: 'metrics' } }, handler: 'metrics' },
  { template: '/diagnostics', methods: ['GET'], access: { target: { domain: 'wrtapi', sub: 'diagnostics' } }, handler: 'diagnostics' },
  { template: '/tokens', methods: ['GET', 'POST'], access: TOKENS, handler: 'tokens' },
  { template: '/tokens/:name', methods: ['GET', 'DELETE'], access: TOKENS, handler: 'token' },
  { template: '/raw/:package', methods: ['GET', 'POST'], access: RAW, handler: 'raw-collection', dryRuns: true },
  { template: '/raw/:package/:id', methods: ['GET', 'PUT', 'PATCH', 'DELETE'], access: RAW, handler: 'raw-item', dryRuns: true },
  { template: '/batch', methods: ['POST'], access: 'token', handler: 'batch', dryRuns: true },
  // Each verb asks the write scope of every package the change touched (handlers/confirm.ts).
  { template: '/confirm/:id', methods: ['GET', 'POST', 'DELETE'], access: 'token', handler: 'confirm' },
  { template: '/system/password', methods: ['POST'], access: { target: { domain: 'system', sub: 'password' } }, handler: 'password' },
  { template: '/system/authorized_keys', methods: ['GET', 'POST'], access: AUTHORIZED_KEYS, handler: 'authorized-keys' },
  { template: '/system/authorized_keys/:id', methods: ['GET', 'PUT', 'DELETE'], access: AUTHORIZED_KEYS, handler: 'authorized-keys' },
  { template: '/packages/installed', methods: ['GET', 'POST'], access: INSTALLED, handler: 'packages' },
  { template: '/packages/installed/:name', methods: ['GET', 'DELETE'], access: INSTALLED, handler: 'packages' },
  { template: '/packages/feeds', methods: ['GET', 'POST'], access: FEEDS, handler: 'packages' },
  { template: '/packages/feeds/:name', methods: ['GET', 'PUT', 'DELETE'], access: FEEDS, handler: 'packages' },
];
