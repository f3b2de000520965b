// Read-only views: state a daemon keeps in a file (dnsmasq's leases, odhcpd's), parsed line by line
// with the definition's parser as a read asks for them. The file is named by a UCI option of the
// definition's package and section type, or a default; a missing file is an empty view, and a line
// the parser calls malformed is skipped and counted, never an error.
import { readPackage } from '../config/store.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject, ResourceModule } from '../resources/model.js';
import { viewSourcePath } from '../resources/views.js';

/** A view's items, parsed one line at a time as they are asked for: a page of a long file parses only its lines. */
export interface ViewItems {
  /** The next item, undefined past the last. */
  next(): JsonObject | undefined;
  /** Malformed lines skipped so far. */
  skipped(): number;
}

/** The file a view reads: undefined when nothing is configured to write one. */
export async function viewFile(ports: Ports, module: ResourceModule): Promise<string | undefined> {
  const { mapping } = module;
  return viewSourcePath(await readPackage(ports, mapping.package), mapping.type, mapping.source!);
}

export async function openView(ports: Ports, module: ResourceModule): Promise<ViewItems> {
  const path = await viewFile(ports, module);
  const text = (path === undefined ? undefined : ports.readFile(path)) ?? '';
  const parse = text ? await module.parser!() : undefined;
  const now = Math.floor(ports.now() / 1000);
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
        const found = parse!(line, now);
        if (found === null) skipped++;
        else pending = found;
      }
      return pending.shift();
    },
    skipped: () => skipped,
  };
}
