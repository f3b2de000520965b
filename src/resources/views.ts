// Where a read-only view's file is: a module of its own, so that only the views and what counts
// their lines load it.
import type { UciPackage } from '../uci/index.js';
import type { ViewSource } from './model.js';

/** The file `source` names in the first section of `type`, else its default; undefined when no such section is there to have the daemon write one. */
export function viewSourcePath(pkg: UciPackage, type: string, source: ViewSource): string | undefined {
  const section = pkg.sections.find((candidate) => candidate.type === type);
  if (!section) return undefined;
  const value = section.options.get(source.option);
  return typeof value === 'string' && value !== '' ? value : source.default;
}
