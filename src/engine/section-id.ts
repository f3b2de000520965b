import type { FieldError } from '../http/errors.js';
import type { Json } from '../resources/model.js';
import { isValidName } from '../uci/index.js';

// libuci names an anonymous section `cfg`, a hex counter of its position and a hex hash: a named
// section of that form would be taken for one once a deletion renumbers the anonymous ones, and
// libuci then refuses the file or merges the two.
const ANONYMOUS_NAME = /^cfg[0-9a-f]{6,}$/;
/** The spec's limit on the id a create names; a wireguard interface's is 15, its kernel device's name. */
export const MAX_ID_LENGTH = 32;

/** The errors of the id a create names, curated or raw. */
export function sectionIdErrors(id: Json, max = MAX_ID_LENGTH): FieldError[] {
  if (typeof id !== 'string') return [{ field: 'id', code: 'invalid_type', message: 'id must be a string' }];
  if (!isValidName(id)) return [{ field: 'id', code: 'invalid_format', message: 'id may hold only A-Z, a-z, 0-9 and _' }];
  if (ANONYMOUS_NAME.test(id)) return [{ field: 'id', code: 'invalid_format', message: 'ids of the form cfg<hex> are the names of anonymous sections' }];
  if (id.length > max) return [{ field: 'id', code: 'out_of_range', message: `id is at most ${max} characters` }];
  return [];
}
