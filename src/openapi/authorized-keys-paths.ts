// The paths and schemas of system/authorized_keys in the OpenAPI document, made when the document
// is assembled (as a resource's are) rather than kept whole in the fixed part.
import { AUTHORIZED_KEY, AUTHORIZED_KEY_REQUEST } from './authorized-keys.js';
import { readable } from './members.js';
import type { Properties } from './objects.js';
import { headers, IDEMPOTENT, json, operation, PAGED, READ_ERRORS, ref, WRITE_ERRORS, type Operation } from './operations.js';

const WRITE =
  'Takes the global lock exclusively (423 while a configuration write runs), replaces the file atomically and keeps every other line as ' +
  'it was; no reload headers. 422 unless dropbear would accept the key: `type` one this router has, `key` of that type (RSA at least 1024 ' +
  'bits), known `options`, a line of at most 4200 bytes. No ETag, as the other non-configuration resources: an `If-Match` other than `*` answers 412.';

export function authorizedKeysDocument(): { paths: Record<string, Operation>; schemas: Properties } {
  const key = json(ref('schemas', 'AuthorizedKey'));
  const request = { required: true, content: json(ref('schemas', 'AuthorizedKeyRequest')) };
  const written = { description: 'The key as written.', headers: headers(), content: key };
  const named = (verb: string) => ({ operationId: `${verb}SystemAuthorizedKeys` });
  const tolerated = { description: 'Tolerated and ignored, so that a read can be sent back.' };
  return {
    paths: {
      '/system/authorized_keys': {
        description: 'The keys that log in as root over SSH (/etc/dropbear/authorized_keys), in file order.',
        get: operation('List system/authorized_keys', 'system', READ_ERRORS, {
          200: { description: 'A page of the keys.', headers: headers('Link', 'X-Next-Cursor', 'X-Skipped-Lines'), content: json({ type: 'array', items: ref('schemas', 'AuthorizedKey') }) },
        }, { ...named('list'), description: PAGED, parameters: [ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
        post: operation('Add a key as the file\'s last line', 'system', WRITE_ERRORS, { 200: { ...written, headers: headers('Idempotent-Replayed') } }, {
          ...named('create'),
          description: `${WRITE} 409 when the file holds the key.`,
          parameters: IDEMPOTENT,
          requestBody: request,
        }),
      },
      '/system/authorized_keys/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: AUTHORIZED_KEY.id }],
        get: operation('Read system/authorized_keys', 'system', READ_ERRORS, {
          200: { description: 'The key.', headers: headers('X-Skipped-Lines'), content: key },
        }, named('get')),
        put: operation('Replace the options and comment of a key', 'system', WRITE_ERRORS, { 200: written }, {
          ...named('replace'),
          description: `${WRITE} \`key\` must be this id's (422 \`conflict\`).`,
          requestBody: request,
        }),
        delete: operation('Remove every line of a key', 'system', WRITE_ERRORS, { 204: { description: 'Removed: no body, no reload headers.', headers: headers() } }, {
          ...named('delete'),
        }),
      },
    },
    schemas: {
      AuthorizedKey: {
        type: 'object',
        description: 'A key dropbear accepts for root; `comment` and `options` only when its line has them.',
        required: ['id', 'type', 'key', 'fingerprint'],
        properties: Object.fromEntries(Object.entries(AUTHORIZED_KEY).map(([name, schema]) => [name, readable(schema)])),
      },
      AuthorizedKeyRequest: { ...AUTHORIZED_KEY_REQUEST, properties: { ...(AUTHORIZED_KEY_REQUEST.properties as Properties), id: tolerated, fingerprint: tolerated } },
    },
  };
}
