// Read-only views: state a daemon keeps in a file (dnsmasq's leases, odhcpd's), parsed line by line
// with the definition's parser as a read asks for them. The file is named by a UCI option of the
// definition's package and section type, or a default; a missing file is an empty view, and a line
// the parser calls malformed is skipped and counted, never an error.
import { readPackage } from '../config/store.js';
import type { Ports } from '../platform/ports.js';
import type { Json, JsonObject, ResourceMapping, ResourceModule } from '../resources/model.js';
import { viewSourcePath } from '../resources/views.js';

/** A view's items, parsed one line at a time as they are asked for: a page of a long file parses only its lines. */
export interface ViewItems {
  /** The next item, without the view's countdown; undefined past the last. */
  next(): JsonObject | undefined;
  /** Malformed lines skipped so far. */
  skipped(): number;
}

/** A view's file as read now: its text ('' when there is none), and its items parsed from the start. */
export interface ViewFile {
  text: string;
  items(): ViewItems;
}

export async function openView(ports: Ports, module: ResourceModule): Promise<ViewFile> {
  const { mapping } = module;
  const path = viewSourcePath(await readPackage(ports, mapping.package), mapping.type, mapping.source!);
  const text = (path === undefined ? undefined : ports.readFile(path)) ?? '';
  const parse = text ? await module.parser!() : undefined;
  const items = (): ViewItems => {
    let at = 0;
    let skipped = 0;
    let pending: JsonObject[] = [];
    return {
      next() {
        while (!pending.length && at < text.length) {
          const end = text.indexOf('\n', at);
          const line = text.slice(at, end < 0 ? text.length : end);
          at = end < 0 ? text.length : end + 1;
          if (line === '') continue;
          const found = parse!(line);
          if (found === null) skipped++;
          else pending = found;
        }
        return pending.shift();
      },
      skipped: () => skipped,
    };
  };
  return { text, items };
}

/**
 * Writes an item's JSON text as JSON.stringify writes the item holding the view's countdown (last)
 * as of `now`, epoch seconds, from its text without it and its `until`: what a page keeps holds no clock.
 */
export function countdownWriter(mapping: ResourceMapping, now: number): (clockless: string, until: Json | undefined) => string {
  const { countdown } = mapping;
  if (!countdown) return (clockless) => clockless;
  const member = `,${JSON.stringify(countdown.member)}:`;
  return (clockless, until) => `${clockless.slice(0, -1)}${member}${typeof until === 'number' ? Math.max(0, until - now) : null}}`;
}
