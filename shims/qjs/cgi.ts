import * as std from 'std';
import { routerPorts } from './ports.js';
import { handleRequest } from '../../src/main.js';

/**
 * One request, called by the launcher. The entry runs nothing when loaded, so the other programs
 * can import what they share with it from it: every request then loads that code with the entry,
 * not as modules of their own (about 15K instructions each).
 */
// Exiting at once skips qjs tearing down every object of the runtime, a cost each request would
// pay after its answer is already out.
export const serve = (): Promise<void> => handleRequest(routerPorts()).then(() => std.exit(0));
