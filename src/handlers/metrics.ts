import { renderMetrics } from '../pipeline/metrics-totals.js';
import type { Context } from './context.js';
import { plainResponse } from '../http/response.js';

export async function GET({ ports }: Context) {
  return plainResponse(200, 'text/plain; version=0.0.4; charset=utf-8', await renderMetrics(ports));
}
