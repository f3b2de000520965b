// Read-only views: state a daemon keeps in a file (dnsmasq's leases, odhcpd's), parsed line by line
// with the definition's parser. The file is named by a UCI option of the definition's package and
// section type, or a default; a missing file is an empty view, and a line the parser calls malformed
// is skipped and counted, never an error.
import { readPackage } from '../config/store.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject, ResourceModule } from '../resources/model.js';

export interface ViewRead {
  items: JsonObject[];
  /** Malformed lines skipped. */
  skipped: number;
}

/** The file a view reads: undefined when nothing is configured to write one. */
export async function viewFile(ports: Ports, module: ResourceModule): Promise<string | undefined> {
  const { mapping } = module;
  const section = (await readPackage(ports, mapping.package)).sections.find((candidate) => candidate.type === mapping.type);
  if (!section) return undefined;
  const value = section.options.get(mapping.source!.option);
  return typeof value === 'string' && value !== '' ? value : mapping.source!.default;
}

export async function readView(ports: Ports, module: ResourceModule): Promise<ViewRead> {
  const path = await viewFile(ports, module);
  const text = path === undefined ? undefined : ports.readFile(path);
  const items: JsonObject[] = [];
  let skipped = 0;
  if (text === undefined) return { items, skipped };
  const parse = await module.parser!();
  const now = Math.floor(ports.now() / 1000);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const found = parse(line, now);
    if (found === null) skipped++;
    else for (const item of found) items.push(item);
  }
  return { items, skipped };
}
