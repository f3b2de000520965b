import * as std from 'std';
import { routerPorts } from './ports.js';
import { handleRequest } from '../../src/main.js';

// Exiting at once skips qjs tearing down every object of the runtime, a cost each request would
// pay after its answer is already out.
handleRequest(routerPorts()).then(() => std.exit(0));
