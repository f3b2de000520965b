// system/authorized_keys as the document, /schema and a write's body check state it: not a UCI
// resource, so its schema is written here once rather than generated from a definition.
import type { JsonSchema } from '../resources/model.js';
import type { Properties } from './objects.js';
import type { Say, Text } from './prose.js';

/**
 * The key types dropbear 2024.86 can be built to accept; which of them a router's build accepts is
 * told by the host keys its init script could generate (see handlers/ssh-keys.ts).
 */
export const KEY_TYPES = [
  'ssh-ed25519',
  'sk-ssh-ed25519@openssh.com',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ecdsa-sha2-nistp256@openssh.com',
];

/** The members of an entry: `id` and `fingerprint` are derived from the key, the rest is the line. */
export const AUTHORIZED_KEY: Properties = {
  id: { type: 'string', pattern: '^[0-9a-f]{16}$', readOnly: true },
  type: { type: 'string', enum: KEY_TYPES },
  key: { type: 'string', pattern: '^[A-Za-z0-9+/]+={0,2}$', maxLength: 4096 },
  comment: { type: 'string', pattern: '^[^\\u0000\\r\\n\\ud800-\\udfff]*$' },
  options: { type: 'string', pattern: '^[^\\u0000\\r\\n\\ud800-\\udfff]+$' },
  fingerprint: { type: 'string', readOnly: true },
};

/**
 * A write's body: `key`, the blob with `type` or the whole line; a read's `id` and `fingerprint` are
 * tolerated, so that it can be sent back.
 */
export const AUTHORIZED_KEY_REQUEST: JsonSchema = {
  type: 'object',
  required: ['key'],
  additionalProperties: false,
  properties: {
    type: AUTHORIZED_KEY.type,
    key: { type: 'string', pattern: '^([A-Za-z0-9+/]+={0,2}|[^\\u0000\\r\\n\\ud800-\\udfff]*[ \\t][^\\u0000\\r\\n\\ud800-\\udfff]*)(\\r?\\n)?$', maxLength: 4202 },
    comment: { ...AUTHORIZED_KEY.comment, type: ['string', 'null'] },
    options: { ...AUTHORIZED_KEY.options, type: ['string', 'null'] },
    id: {},
    fingerprint: {},
  },
};

const DESCRIPTIONS: Record<string, keyof Text> = { id: 'keyId', type: 'keyType', key: 'keyKey', comment: 'keyComment', options: 'keyOptions', fingerprint: 'keyFingerprint' };

/** The members with their descriptions, as the document and /schema state them; the request's `key` is the whole line's. */
export function describedKeys(properties: Properties, say: Say, request = false): Properties {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const key = request && name === 'key' ? 'keyLine' : DESCRIPTIONS[name];
      return [name, key ? { ...schema, description: say(key) } : schema];
    }),
  );
}
