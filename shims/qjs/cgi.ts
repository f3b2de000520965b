import * as std from 'std';
import { routerPorts, type NativeModule } from './ports.js';
import { handleRequest } from '../../src/main.js';

/** Answers the request uhttpd started this process for, with wrtapi-bytecode's module when it loaded. */
export function serve(native?: NativeModule): void {
  // Exiting at once skips qjs tearing down every object of the runtime, a cost each request would
  // pay after its answer is already out.
  handleRequest(routerPorts(native)).then(() => std.exit(0));
}
