// The further `ubus call`s of a runtime source, one per section read and call (iwinfo about a
// wireless interface): apart from runtime.ts, so that a read whose source has none never compiles them.
import { callBus } from '../platform/bus.js';
import type { Ports } from '../platform/ports.js';
import { valueAt, type ItemCall, type Json, type JsonObject } from '../resources/model.js';

/** What one call adds to a runtime; nothing when it lacks what the call asks with, or the call fails. */
function itemCall(ports: Ports, { object, method, message, fields }: ItemCall, runtime: JsonObject): JsonObject {
  const sent: JsonObject = {};
  for (const name in message) if ((sent[name] = runtime[message[name]] ?? null) === null) return {};
  const { answer } = callBus(ports, object, method, sent);
  const found: JsonObject = {};
  for (const name in fields) {
    const value = valueAt(answer as Json, fields[name]);
    if (value !== undefined) found[name] = value;
  }
  return found;
}

/** Adds to the runtime of each section read (`ids`) what the calls answer about it. */
export function askEach(ports: Ports, each: ItemCall[], ids: string[], byId: Map<string, Json>): void {
  for (const id of new Set(ids)) {
    const runtime = byId.get(id);
    if (runtime === null || typeof runtime !== 'object' || Array.isArray(runtime)) continue;
    for (const call of each) Object.assign(runtime, itemCall(ports, call, runtime));
  }
}
