// The prose the code of src/openapi places in the document and the /schema answers, by where it
// goes (src/openapi/prose.ts): wrtapi-doc installs it; the bundle never holds it.
import type { Text } from '../../src/openapi/prose.js';

const KEYS_WRITE =
  'Takes the global lock exclusively (423 while a configuration write runs), replaces the file atomically and keeps every other line as ' +
  'it was; no reload headers. 422 unless dropbear would accept the key: `type` one this router has, `key` of that type (RSA at least 1024 ' +
  'bits), known `options`, a line of at most 4200 bytes. No ETag, as the other non-configuration resources: an `If-Match` other than `*` answers 412.';

export const TEXT: Text = {
  sectionId: 'Section name. On create, optional: [A-Za-z0-9_], at most 32 characters; generated when absent. Never of the anonymous form `cfg<hex>`.',
  fixedIds: 'Section name: one of %s, the only ones the daemon reads; on create, optional: the first free one when absent.',
  viewId: 'Derived from the item\'s own data, stable while the item lasts: the field descriptions say how.',
  managed: 'False for an anonymous section, which must be adopted before a write to a collection.',
  runtime: 'Live state computed by the server, on the reads of resources that have it; not configuration, not covered by the ETag, ignored in a request. null when the router\'s bus does not answer.',
  presence: 'Whether `%s` is set; its value is never returned.',
  read: 'Read %s',
  replace: 'Replace %s',
  update: 'Update %s: RFC 7396 merge patch, or RFC 6902 JSON Patch',
  list: 'List %s',
  create: 'Create in %s',
  delete: 'Delete from %s',
  adopt: 'Adopt an anonymous section of %s: it gets a generated id and becomes managed',
  written: 'The resource as written.',
  readOne: 'The resource.',
  notModified: 'If-None-Match matched: no body.',
  page: 'A page of the collection.',
  deleted: 'Deleted: no body.',
  viewPage: 'A page of the items.',
  viewItem: 'The item.',
  patchBodies:
    'A merge patch is checked against the Patch schema. A JSON Patch is applied to the resource as read, and the result is checked ' +
    'against the Request schema; an operation whose `path` or `from` names nothing answers 422 `conflict` on it, a failed `test` 412.',
  paged: 'A `cursor` that names no current item answers 400 `invalid_cursor`.',
  viewOnly: 'Read-only: any other verb answers 405 `method_not_allowed` with `Allow: GET`. `X-Skipped-Lines` counts the malformed lines of the file the read skipped, which reads only as far as its answer needs.',
  keysPath: 'The keys that log in as root over SSH (/etc/dropbear/authorized_keys), in file order.',
  keysList: 'List system/authorized_keys',
  keysPage: 'A page of the keys.',
  keysAdd: 'Add a key as the file\'s last line',
  keysWrite: KEYS_WRITE,
  keysHeld: '%s 409 when the file holds the key.',
  keysRead: 'Read system/authorized_keys',
  keysOne: 'The key.',
  keysReplace: 'Replace the options and comment of a key',
  keysSameKey: '%s `key` must be this id\'s (422 `conflict`).',
  keysRemove: 'Remove every line of a key',
  keysRemoved: 'Removed: no body, no reload headers.',
  keysWritten: 'The key as written.',
  keysTolerated: 'Tolerated and ignored, so that a read can be sent back.',
  keysSchema: 'A key dropbear accepts for root; `comment` and `options` only when its line has them.',
  keyId: 'First 16 hex digits of the SHA-256 of the key blob.',
  keyType: 'Key type: one this router\'s dropbear has a host key of (ECDSA is off in stock builds).',
  keyKey: 'Base64 key blob of type `type`, as ssh-keygen writes it.',
  keyComment: 'Text after the key, verbatim.',
  keyOptions:
    'Options before the key, verbatim: comma-separated no-port-forwarding, no-agent-forwarding, no-X11-forwarding, no-pty, restrict, ' +
    'command="...", permitopen="host:port", no-touch-required, verify-required.',
  keyFingerprint: 'As ssh-keygen -l shows it: `SHA256:` and the base64 SHA-256 of the key blob.',
  keyLine: 'A base64 blob of type `type`, or the whole line `<type> <base64> [comment]`, its parts then those members.',
};
