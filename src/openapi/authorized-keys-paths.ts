// The paths and schemas of system/authorized_keys in the OpenAPI document, made when the document
// is assembled (as a resource's are) rather than kept whole in the fixed part.
import { AUTHORIZED_KEY, AUTHORIZED_KEY_REQUEST, describedKeys } from './authorized-keys.js';
import { readable } from './members.js';
import type { Properties } from './objects.js';
import { headers, IDEMPOTENT, json, operation, READ_ERRORS, ref, WRITE_ERRORS, type Operation } from './operations.js';
import type { Say } from './prose.js';

export function authorizedKeysDocument(say: Say): { paths: Record<string, Operation>; schemas: Properties } {
  const key = json(ref('schemas', 'AuthorizedKey'));
  const request = { required: true, content: json(ref('schemas', 'AuthorizedKeyRequest')) };
  // A response's description is required: '' without wrtapi-doc.
  const written = { description: say('keysWritten') ?? '', headers: headers(), content: key };
  const named = (verb: string) => ({ operationId: `${verb}SystemAuthorizedKeys` });
  const tolerated = { description: say('keysTolerated') };
  const members = describedKeys(AUTHORIZED_KEY, say);
  return {
    paths: {
      '/system/authorized_keys': {
        description: say('keysPath'),
        get: operation(say('keysList'), 'system', READ_ERRORS, {
          200: { description: say('keysPage') ?? '', headers: headers('Link', 'X-Next-Cursor', 'X-Skipped-Lines'), content: json({ type: 'array', items: ref('schemas', 'AuthorizedKey') }) },
        }, { ...named('list'), description: say('paged'), parameters: [ref('parameters', 'Cursor'), ref('parameters', 'Limit')] }),
        post: operation(say('keysAdd'), 'system', WRITE_ERRORS, { 200: { ...written, headers: headers('Idempotent-Replayed') } }, {
          ...named('create'),
          description: say('keysHeld', say('keysWrite')),
          parameters: IDEMPOTENT,
          requestBody: request,
        }),
      },
      '/system/authorized_keys/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: members.id }],
        get: operation(say('keysRead'), 'system', READ_ERRORS, {
          200: { description: say('keysOne') ?? '', headers: headers('X-Skipped-Lines'), content: key },
        }, named('get')),
        put: operation(say('keysReplace'), 'system', WRITE_ERRORS, { 200: written }, {
          ...named('replace'),
          description: say('keysSameKey', say('keysWrite')),
          requestBody: request,
        }),
        delete: operation(say('keysRemove'), 'system', WRITE_ERRORS, { 204: { description: say('keysRemoved') ?? '', headers: headers() } }, {
          ...named('delete'),
        }),
      },
    },
    schemas: {
      AuthorizedKey: {
        type: 'object',
        description: say('keysSchema'),
        required: ['id', 'type', 'key', 'fingerprint'],
        properties: Object.fromEntries(Object.entries(members).map(([name, schema]) => [name, readable(schema)])),
      },
      AuthorizedKeyRequest: { ...AUTHORIZED_KEY_REQUEST, properties: { ...describedKeys(AUTHORIZED_KEY_REQUEST.properties as Properties, say, true), id: tolerated, fingerprint: tolerated } },
    },
  };
}
