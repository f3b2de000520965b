// What a package name, a feed name and a feed URL may be, checked before any process starts: the
// same pattern sources are the OpenAPI document's (build/generators/openapi-packages.ts).
import type { FieldError } from '../http/errors.js';

/**
 * A package name as opkg and apk name packages (`libstdcpp6`, `luci-app-mwan3`, `kmod-nf-nat6`):
 * never an option (`-x`), a glob (`opkg remove` matches its argument with fnmatch), a path, a version
 * constraint (apk's `x>1`), nor a name opkg or apk would open as a package file (`x.ipk`, `x.apk`).
 */
export const PACKAGE_NAME = '^(?!.*\\.(?:ipk|opk|deb|apk)$)[A-Za-z0-9][A-Za-z0-9+._-]{0,127}$';

/**
 * A feed name: an opkg `src/gz` name, which is also the file name of its list in opkg's lists
 * directory, so never `.` or `..`.
 */
export const FEED_NAME = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';

/**
 * An http(s) or file URL of a feed, with nothing a feed line could split on or a repository file
 * could expand: no whitespace, quote, `#`, `$` (apk's variables), `?` or backslash. opkg appends
 * `/Packages.gz`, apk `/<arch>/APKINDEX.tar.gz` unless the URL names a `.adb` index.
 */
export const FEED_URL = '^(?:https?://[A-Za-z0-9._~%+:@\\[\\]-]+(?:/[A-Za-z0-9._~%+,;=:@/-]*)?|file:///[A-Za-z0-9._~%+,;=:@/-]*)$';
export const FEED_URL_MAX = 1024;

/** The field errors of a JSON body holding exactly the named string fields, each matching its pattern. */
export function bodyProblems(body: Record<string, unknown>, fields: Record<string, string>, maxLength = FEED_URL_MAX): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of Object.keys(body)) {
    if (!(field in fields)) errors.push({ field, code: 'unknown_field', message: `${field} is not a known field` });
  }
  for (const [field, pattern] of Object.entries(fields)) {
    const problem = valueProblem(field, body[field], pattern, maxLength);
    if (problem) errors.push(problem);
  }
  return errors;
}

/** Why a value is not a string matching the pattern (undefined when it is). */
export function valueProblem(field: string, value: unknown, pattern: string, maxLength = FEED_URL_MAX): FieldError | undefined {
  if (value === undefined || value === null) return { field, code: 'required', message: `${field} is required` };
  if (typeof value !== 'string') return { field, code: 'invalid_type', message: `${field} must be string` };
  if (value.length > maxLength) return { field, code: 'out_of_range', message: `${field} must be at most ${maxLength} characters` };
  if (!new RegExp(pattern).test(value)) return { field, code: 'invalid_format', message: `${field} must match ${pattern}` };
  return undefined;
}
