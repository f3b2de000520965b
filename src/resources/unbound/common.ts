// What the unbound domain's resources share: the name shapes unbound's UCI scripts take, and the
// line check of unbound-uci-ext's generator (generator.sh is_valid_line), which drops an empty line,
// one with a newline and one past 256 bytes (busybox ash counts bytes) with a log line only.

import type { FieldError } from '../../http/errors.js';
import { outOfRange, strings, utf8Length } from '../checks.js';
import type { JsonObject } from '../model.js';

/** A network interface section name (uciname), as network_get_device looks it up. */
export const INTERFACE_NAME = { pattern: '^[A-Za-z0-9_]+$', maxLength: 32 };

/** A domain name of letters, digits, `_` and `-` labels, optionally ending in `.` as unbound takes it. */
const LABEL = '[A-Za-z0-9_-]{1,63}';
export const DOMAIN_NAME = `${LABEL}(\\.${LABEL})*`;

/** One line of unbound configuration as the generator passes it through: not empty, no newline. */
export const LINE = { pattern: '^[^\\x00\\n]+$', maxLength: 256 };

/** The generator's 256-byte limit, which the schema's 256 characters do not hold for non-ASCII text. */
export function lineErrors(body: JsonObject, paths: string[]): FieldError[] {
  return paths.flatMap((path) =>
    strings(body, path)
      .filter(([, line]) => utf8Length(line) > 256)
      .map(([at]) => outOfRange(at, `${at} is longer than the 256 bytes unbound-uci-ext passes on`)),
  );
}
