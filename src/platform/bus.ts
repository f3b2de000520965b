import type { Ports, RunResult } from './ports.js';

/** One `ubus call` of this request, for the DEBUG event lines. */
export interface BusCall {
  object: string;
  method: string;
  code: number;
  ms: number;
}

// A process serves one request, so this is the request's trace.
const calls: BusCall[] = [];

/** The bus calls this request made, in order. */
export function busCalls(): readonly BusCall[] {
  return calls;
}

/**
 * `ubus call <object> <method> [message]`, its answer parsed; `answer` is undefined when the call
 * failed or printed something other than JSON. Only the object and method are traced: a message
 * may carry a secret.
 */
export function callBus(ports: Ports, object: string, method: string, message?: unknown): RunResult & { answer?: unknown } {
  const started = ports.now();
  const result = ports.run(['/bin/ubus', 'call', object, method, ...(message === undefined ? [] : [JSON.stringify(message)])]);
  calls.push({ object, method, code: result.code, ms: ports.now() - started });
  let answer: unknown;
  try {
    if (result.code === 0) answer = JSON.parse(result.stdout);
  } catch {
    // A garbled answer is treated like a failed call.
  }
  return { ...result, answer };
}
