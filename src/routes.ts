import { ApiError } from './http/errors.js';
import { RESOURCES } from './generated/resources.js';
import type { ResourceEntry } from './resources/model.js';
import type { Route } from './handlers/context.js';

const TOKENS = { target: { domain: 'wrtapi', sub: 'tokens' }, readsNeedRw: true } as const;

// Each route's code is loaded with import() only when the route is hit, so every route stays out of
// the entry chunk that each request parses.
const ROUTES: Route[] = [
  ...RESOURCES.flatMap(resourceRoutes),
  { template: '/healthz', methods: ['GET'], access: 'open', load: () => import('./handlers/healthz.js') },
  { template: '/openapi.json', methods: ['GET'], access: 'open', load: () => import('./handlers/openapi.js') },
  { template: '/schema', methods: ['GET'], access: 'open', load: () => import('./handlers/schema.js') },
  { template: '/schema/:package/:resource', methods: ['GET'], access: 'open', load: () => import('./handlers/schema.js') },
  { template: '/auth/whoami', methods: ['GET'], access: 'token', load: () => import('./handlers/whoami.js') },
  { template: '/metrics', methods: ['GET'], access: { target: { domain: 'wrtapi', sub: 'metrics' } }, load: () => import('./handlers/metrics.js') },
  { template: '/diagnostics', methods: ['GET'], access: { target: { domain: 'wrtapi', sub: 'diagnostics' } }, load: () => import('./handlers/diagnostics.js') },
  { template: '/tokens', methods: ['GET', 'POST'], access: TOKENS, load: () => import('./handlers/tokens.js') },
  { template: '/tokens/:name', methods: ['GET', 'DELETE'], access: TOKENS, load: () => import('./handlers/token.js') },
];

function resourceRoutes(resource: ResourceEntry): Route[] {
  const access = { target: resource.scope };
  const template = `/${resource.path}`;
  if (resource.kind === 'singleton') {
    return [{ template, methods: ['GET', 'PUT', 'PATCH'], access, resource, load: () => import('./handlers/resource-item.js') }];
  }
  return [
    { template, methods: ['GET', 'POST'], access, resource, load: () => import('./handlers/resource-collection.js') },
    { template: `${template}/:id`, methods: ['GET', 'PUT', 'PATCH', 'DELETE'], access, resource, load: () => import('./handlers/resource-item.js') },
    { template: `${template}/:id/adopt`, methods: ['POST'], access, resource, load: () => import('./handlers/resource-adopt.js') },
  ];
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
export function findRoute(method: string, segments: string[]): RouteMatch {
  for (const route of ROUTES) {
    const params = matchTemplate(route.template, segments);
    if (!params) continue;
    if (!route.methods.includes(method)) {
      throw new ApiError(405, 'method_not_allowed', `${method} is not supported on ${route.template}`, {
        headers: { Allow: route.methods.join(', ') },
      });
    }
    return { route, params };
  }
  throw new ApiError(404, 'not_found', `No resource at /${segments.join('/')}`);
}
