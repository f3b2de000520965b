import { exit } from 'std';
import { routerPorts } from './ports.js';
import { handleRequest } from '../../src/main.js';

/**
 * One request, called by the launcher: the entry runs nothing when loaded, so the other programs
 * import from it what they share with it, and a request loads that code with the entry rather than
 * as modules of their own (about 15K instructions each). Exiting at once skips qjs tearing down every
 * object of the runtime, a cost each request would pay after its answer is already out.
 */
export const serve = (): Promise<void> => handleRequest(routerPorts()).then(() => exit(0));
