import type { ResourceEntry } from '../resources/model.js';
import type { Route } from './context.js';

/** The route of the curated resource a path names, with its parameters; none past its item and adopt routes. */
export function resourceRoute(resources: ResourceEntry[], segments: string[]): { route: Route; params: Record<string, string> } | undefined {
  // `<domain>/<sub>` before `<domain>`: a singleton domain (`system`) has collections below it.
  for (const length of [2, 1]) {
    const resource = resources.find((entry) => entry.path === segments.slice(0, length).join('/'));
    const match = resource && routeOf(resource, segments.slice(length));
    if (match) return match;
  }
  return undefined;
}

function routeOf(resource: ResourceEntry, rest: string[]): { route: Route; params: Record<string, string> } | undefined {
  const access = { target: resource.scope };
  const template = `/${resource.path}`;
  const dryRuns = true;
  // A view is read-only: every other verb answers 405 with `Allow: GET`; it has no adopt route.
  if (resource.kind === 'view') {
    if (rest.length > 1) return undefined;
    const load = () => import('./resource-view.js');
    return rest.length
      ? { route: { template: `${template}/:id`, methods: ['GET'], access, resource, load }, params: { id: rest[0] } }
      : { route: { template, methods: ['GET'], access, resource, load }, params: {} };
  }
  if (resource.kind === 'singleton') {
    if (rest.length) return undefined;
    return { route: { template, methods: ['GET', 'PUT', 'PATCH'], access, resource, dryRuns, load: () => import('./resource-item.js') }, params: {} };
  }
  if (!rest.length) return { route: { template, methods: ['GET', 'POST'], access, resource, dryRuns, load: () => import('./resource-collection.js') }, params: {} };
  const params = { id: rest[0] };
  if (rest.length === 1) {
    return { route: { template: `${template}/:id`, methods: ['GET', 'PUT', 'PATCH', 'DELETE'], access, resource, dryRuns, load: () => import('./resource-item.js') }, params };
  }
  if (rest.length === 2 && rest[1] === 'adopt') {
    return { route: { template: `${template}/:id/adopt`, methods: ['POST'], access, resource, dryRuns, load: () => import('./resource-adopt.js') }, params };
  }
  return undefined;
}
