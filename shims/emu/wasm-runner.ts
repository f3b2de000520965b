// The `wasm` engine's process: `node wasm-runner.js <program.js> [args...]` runs one QuickJS program
// (Bellard 2025-09-13 compiled to WebAssembly) the way `qjs -m <program.js> [args...]` would: the
// process environment, stdin and stdout are the program's, `scriptArgs`, `print` and `console.log` are
// globals, and the modules `std` and `os` provide the subset declared in shims/qjs/quickjs.d.ts with the
// return values and errno conventions of quickjs-libc.c, backed by the real filesystem and processes.
import { readFileSync } from 'node:fs';
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSHandle } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { errnoOf, osHost, osSource, stdHost, stdSource, writeAll } from './qjs-host.js';

const helpersSource = `(() => {
  const write = globalThis.__wrtapiStd.write;
  globalThis.print = function print(...values) { write(1, values.map(String).join(' ') + '\\n'); };
  globalThis.console = { log: globalThis.print };
})();`;

/** A string holding NUL, which newString would cut there (it goes through a C string): joined in the VM. */
function withNul(context: QuickJSContext, value: string): QuickJSHandle {
  const parts = toHandle(context, value.split('\0'));
  const join = context.unwrapResult(context.evalCode('(parts) => parts.join("\\0")'));
  const joined = context.unwrapResult(context.callFunction(join, context.undefined, parts));
  join.dispose();
  parts.dispose();
  return joined;
}

function toHandle(context: QuickJSContext, value: unknown): QuickJSHandle {
  if (value === undefined) return context.undefined;
  if (value === null) return context.null;
  if (typeof value === 'boolean') return value ? context.true : context.false;
  if (typeof value === 'number') return context.newNumber(value);
  if (typeof value === 'string') return value.includes('\0') ? withNul(context, value) : context.newString(value);
  const object = Array.isArray(value) ? context.newArray() : context.newObject();
  for (const [key, item] of Object.entries(value as object)) {
    const handle = toHandle(context, item);
    context.setProp(object, Array.isArray(value) ? Number(key) : key, handle);
    handle.dispose();
  }
  return object;
}

// For the kill tests: with WRTAPI_EMU_KILL_AT=N the program is SIGKILLed as it starts its Nth file
// or process operation, as uhttpd kills a program whose client hung up, at a chosen instant.
const killAt = Number(process.env.WRTAPI_EMU_KILL_AT ?? 0);
let operations = 0;

function killable<T extends Record<string, (...args: any[]) => unknown>>(host: T, names: string[]): T {
  if (!killAt) return host;
  const wrapped: Record<string, (...args: any[]) => unknown> = { ...host };
  for (const name of names) {
    wrapped[name] = (...args) => {
      if (++operations === killAt) process.kill(process.pid, 'SIGKILL');
      return host[name](...args);
    };
  }
  return wrapped as T;
}

function defineHost(context: QuickJSContext, name: string, functions: Record<string, (...args: any[]) => unknown>) {
  const object = context.newObject();
  for (const [key, implementation] of Object.entries(functions)) {
    const handle = context.newFunction(key, (...args) => toHandle(context, implementation(...args.map((arg) => context.dump(arg)))));
    context.setProp(object, key, handle);
    handle.dispose();
  }
  context.setProp(context.global, name, object);
  object.dispose();
}

/** An uncaught exception as qjs reports it: the value as a string, then its stack. */
function reportAndExit(context: QuickJSContext, error: QuickJSHandle): never {
  const value = context.dump(error);
  const text =
    value && typeof value === 'object' && 'message' in value
      ? `${value.name}: ${value.message}\n${value.stack ?? ''}`
      : `${String(value)}\n`;
  writeAll(2, text);
  process.exit(1);
}

const [program, ...args] = process.argv.slice(2);
const quickjs = await newQuickJSWASMModuleFromVariant(variant);
const runtime = quickjs.newRuntime();
const context = runtime.newContext();
runtime.setModuleLoader((name) => {
  if (name === 'std') return stdSource;
  if (name === 'os') return osSource;
  try {
    return readFileSync(name, 'utf8');
  } catch {
    return { error: new ReferenceError(`could not load module filename '${name}'`) };
  }
});
defineHost(context, '__wrtapiStd', killable(stdHost, ['open', 'write', 'close']));
defineHost(context, '__wrtapiOs', killable(osHost, ['open', 'close', 'remove', 'rename', 'mkdir', 'symlink', 'exec']));
const scriptArgs = toHandle(context, [program, ...args]);
context.setProp(context.global, 'scriptArgs', scriptArgs);
scriptArgs.dispose();
context.unwrapResult(context.evalCode(helpersSource, '<helpers>', { type: 'global' })).dispose();

let source: string;
try {
  source = readFileSync(program, 'utf8');
} catch (error) {
  // qjs reports an unreadable program with perror().
  writeAll(2, `${program}: ${stdHost.strerror(errnoOf(error))}\n`);
  process.exit(1);
}
const evaluation = context.evalCode(source, program, { type: 'module' });
if (evaluation.error) reportAndExit(context, evaluation.error);
// There is no event loop: the program's pending work is its promise jobs (dynamic imports included).
while (runtime.hasPendingJob()) {
  const jobs = runtime.executePendingJobs();
  if (jobs.error) reportAndExit(context, jobs.error);
}
const state = context.getPromiseState(evaluation.value);
if (state.type === 'rejected') reportAndExit(context, state.error);
process.exit(0);
