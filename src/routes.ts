import { ApiError } from './http/errors.js';
import type { ResourceEntry } from './resources/model.js';
import type { Route } from './handlers/context.js';

const TOKENS = { target: { domain: 'wrtapi', sub: 'tokens' }, readsNeedRw: true } as const;
const RAW = { target: (params: Record<string, string>) => ({ domain: 'raw', sub: params.package }) };
const INSTALLED = { target: { domain: 'packages', sub: 'installed' } } as const;
const FEEDS = { target: { domain: 'packages', sub: 'feeds' } } as const;
const AUTHORIZED_KEYS = { target: { domain: 'system', sub: 'authorized_keys' } } as const;

// Each route's code is loaded with import() only when the route is hit, so every route stays out of
// the entry chunk that each request parses. The curated resources' routes are not listed: the
// table of the path's domain is loaded, and their route made, only for a path no fixed route matches.
const FIXED_ROUTES: Route[] = [
  { template: '/healthz', methods: ['GET'], access: 'open', load: () => import('./handlers/healthz.js') },
  { template: '/openapi.json', methods: ['GET'], access: 'open', load: () => import('./handlers/openapi.js') },
  { template: '/schema', methods: ['GET'], access: 'open', load: () => import('./handlers/schema.js') },
  { template: '/schema/:package/:resource', methods: ['GET'], access: 'open', load: () => import('./handlers/schema.js') },
  { template: '/auth/whoami', methods: ['GET'], access: 'token', load: () => import('./handlers/whoami.js') },
  { template: '/metrics', methods: ['GET'], access: { target: { domain: 'wrtapi', sub: 'metrics' } }, load: () => import('./handlers/metrics.js') },
  { template: '/diagnostics', methods: ['GET'], access: { target: { domain: 'wrtapi', sub: 'diagnostics' } }, load: () => import('./handlers/diagnostics.js') },
  { template: '/tokens', methods: ['GET', 'POST'], access: TOKENS, load: () => import('./handlers/tokens.js') },
  { template: '/tokens/:name', methods: ['GET', 'DELETE'], access: TOKENS, load: () => import('./handlers/token.js') },
  // The pipeline checks the raw tree; the handlers the curated tree of each section's type.
  { template: '/raw/:package', methods: ['GET', 'POST'], access: RAW, load: () => import('./handlers/raw-collection.js') },
  { template: '/raw/:package/:id', methods: ['GET', 'PUT', 'PATCH', 'DELETE'], access: RAW, load: () => import('./handlers/raw-item.js') },
  { template: '/batch', methods: ['POST'], access: 'token', load: () => import('./handlers/batch.js') },
  { template: '/system/password', methods: ['POST'], access: { target: { domain: 'system', sub: 'password' } }, load: () => import('./handlers/password.js') },
  { template: '/system/authorized_keys', methods: ['GET', 'POST'], access: AUTHORIZED_KEYS, load: () => import('./handlers/authorized-keys.js') },
  { template: '/system/authorized_keys/:id', methods: ['GET', 'PUT', 'DELETE'], access: AUTHORIZED_KEYS, load: () => import('./handlers/authorized-keys.js') },
  { template: '/packages/installed', methods: ['GET', 'POST'], access: INSTALLED, load: () => import('./handlers/packages.js') },
  { template: '/packages/installed/:name', methods: ['GET', 'DELETE'], access: INSTALLED, load: () => import('./handlers/packages.js') },
  { template: '/packages/feeds', methods: ['GET', 'POST'], access: FEEDS, load: () => import('./handlers/packages.js') },
  { template: '/packages/feeds/:name', methods: ['GET', 'PUT', 'DELETE'], access: FEEDS, load: () => import('./handlers/packages.js') },
];

/** The route of a curated resource for the segments after its path: none past its item and adopt routes. */
function resourceRoute(resource: ResourceEntry, rest: string[]): RouteMatch | undefined {
  const access = { target: resource.scope };
  const template = `/${resource.path}`;
  // A view is read-only: every other verb answers 405 with `Allow: GET`; it has no adopt route.
  if (resource.kind === 'view') {
    if (rest.length > 1) return undefined;
    const load = () => import('./handlers/resource-view.js');
    return rest.length
      ? { route: { template: `${template}/:id`, methods: ['GET'], access, resource, load }, params: { id: rest[0] } }
      : { route: { template, methods: ['GET'], access, resource, load }, params: {} };
  }
  if (resource.kind === 'singleton') {
    if (rest.length) return undefined;
    return { route: { template, methods: ['GET', 'PUT', 'PATCH'], access, resource, load: () => import('./handlers/resource-item.js') }, params: {} };
  }
  if (!rest.length) return { route: { template, methods: ['GET', 'POST'], access, resource, load: () => import('./handlers/resource-collection.js') }, params: {} };
  const params = { id: rest[0] };
  if (rest.length === 1) {
    return { route: { template: `${template}/:id`, methods: ['GET', 'PUT', 'PATCH', 'DELETE'], access, resource, load: () => import('./handlers/resource-item.js') }, params };
  }
  if (rest.length === 2 && rest[1] === 'adopt') {
    return { route: { template: `${template}/:id/adopt`, methods: ['POST'], access, resource, load: () => import('./handlers/resource-adopt.js') }, params };
  }
  return undefined;
}

// A domain's table is found by its name, so no index of the domains is parsed per request and a new
// domain costs the others nothing; the bundle keeps each table at this path (rollup.config.ts).
const DOMAIN = /^[a-z0-9_]+$/;

async function domainResources(domain: string): Promise<ResourceEntry[]> {
  if (!DOMAIN.test(domain)) return [];
  try {
    return ((await import(`./generated/tables/${domain}.js`)) as { RESOURCES: ResourceEntry[] }).RESOURCES;
  } catch (error) {
    // No such domain: QuickJS cannot load the file, Node finds no module.
    if (/could not load module|ERR_MODULE_NOT_FOUND|Cannot find module/.test(`${(error as { code?: string }).code} ${(error as Error).message}`)) return [];
    throw error;
  }
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
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

/** The route for a request: `404 not_found` for an unknown path, `405` for a verb it does not serve. */
export async function findRoute(method: string, segments: string[]): Promise<RouteMatch> {
  let match: RouteMatch | undefined;
  for (const route of FIXED_ROUTES) {
    const params = matchTemplate(route.template, segments);
    if (params) match = { route, params };
    if (match) break;
  }
  if (!match && segments.length) {
    const resources = await domainResources(segments[0]);
    // `<domain>/<sub>` before `<domain>`: a singleton domain (`system`) has collections below it.
    for (const length of [2, 1]) {
      const resource = resources.find((entry) => entry.path === segments.slice(0, length).join('/'));
      match = resource && resourceRoute(resource, segments.slice(length));
      if (match) break;
    }
  }
  if (!match) throw new ApiError(404, 'not_found', `No resource at /${segments.join('/')}`);
  if (!match.route.methods.includes(method)) {
    throw new ApiError(405, 'method_not_allowed', `${method} is not supported on ${match.route.template}`, {
      headers: { Allow: match.route.methods.join(', ') },
    });
  }
  return match;
}
