// `node node-runner.js -m <program.js>`, as `qjs -m <program.js>`: runs a QuickJS program on Node itself, with the std and os the
// wasm engine gives its VM (qjs-host.ts). QuickJS reports no coverage; V8 does, so under
// NODE_V8_COVERAGE this shows which functions and blocks of the bundle a request runs
// (build/never-run.ts).
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { osHost, osSource, stdHost, stdSource } from './qjs-host.js';

const moduleUrl = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;
const hooks = `const modules = ${JSON.stringify({ std: moduleUrl(stdSource), os: moduleUrl(osSource) })};
export async function resolve(specifier, context, next) {
  return Object.hasOwn(modules, specifier) ? { url: modules[specifier], shortCircuit: true } : next(specifier, context);
}`;
register(moduleUrl(hooks));
Object.assign(globalThis, { __wrtapiStd: stdHost, __wrtapiOs: osHost });
await import(pathToFileURL(resolve(process.argv[process.argv.indexOf('-m') + 1])).href);
