// The fixed document's operations as `operation()`'s arguments and its responses' headers by name,
// expanded at request time (src/openapi/document.ts, operations.ts): the parameters, error responses
// and header references every operation repeats cost no bytes on flash.
import { operation, type Operation } from '../../src/openapi/operations.js';

export const deferred = (...args: Parameters<typeof operation>): Operation => args as unknown as Operation;

/** A response's headers by name, which `operation()` turns into references. */
export const named = (...names: string[]) => ['X-Request-Id', ...names] as unknown as Record<string, unknown>;
