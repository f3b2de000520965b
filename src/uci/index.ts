import type { UciPackage } from './model.js';
import { parseCanonical } from './read.js';

export {
  addSection,
  copySection,
  findSection,
  isValidName,
  isValidType,
  isWritableType,
  removeSection,
  renameSection,
  type UciPackage,
  type UciSection,
  type UciValue,
} from './model.js';
export { packPackage, unpackPackage, type PackedPackage } from './packed.js';
export { anonymousName, parseCanonical, UciSyntaxError } from './read.js';
export { serializeUci } from './serialize.js';

/**
 * A package's text read as libuci reads it; throws UciSyntaxError where libuci would refuse it.
 * Only a file not in `uci commit`'s form (shipped by a package, edited by hand) loads the tokenizer.
 */
export async function readUci(text: string): Promise<UciPackage> {
  return parseCanonical(text) ?? (await import('./parse.js')).parseUci(text);
}
