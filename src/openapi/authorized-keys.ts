// system/authorized_keys as the document, /schema and a write's body check state it: not a UCI
// resource, so its schema is written here once rather than generated from a definition.
import type { JsonSchema } from '../resources/model.js';
import type { Properties } from './objects.js';

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
  id: { type: 'string', pattern: '^[0-9a-f]{16}$', readOnly: true, description: 'First 16 hex digits of the SHA-256 of the key blob.' },
  type: { type: 'string', enum: KEY_TYPES, description: 'Key type: one this router\'s dropbear has a host key of (ECDSA is off in stock builds).' },
  key: { type: 'string', pattern: '^[A-Za-z0-9+/]+={0,2}$', maxLength: 4096, description: 'Base64 key blob of type `type`, as ssh-keygen writes it.' },
  comment: { type: 'string', pattern: '^[^\\u0000\\r\\n\\ud800-\\udfff]*$', description: 'Text after the key, verbatim.' },
  options: {
    type: 'string',
    pattern: '^[^\\u0000\\r\\n\\ud800-\\udfff]+$',
    description:
      'Options before the key, verbatim: comma-separated no-port-forwarding, no-agent-forwarding, no-X11-forwarding, no-pty, restrict, ' +
      'command="...", permitopen="host:port", no-touch-required, verify-required.',
  },
  fingerprint: { type: 'string', readOnly: true, description: 'As ssh-keygen -l shows it: `SHA256:` and the base64 SHA-256 of the key blob.' },
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
    key: {
      type: 'string',
      pattern: '^([A-Za-z0-9+/]+={0,2}|[^\\u0000\\r\\n\\ud800-\\udfff]*[ \\t][^\\u0000\\r\\n\\ud800-\\udfff]*)(\\r?\\n)?$',
      maxLength: 4202,
      description: 'A base64 blob of type `type`, or the whole line `<type> <base64> [comment]`, its parts then those members.',
    },
    comment: { ...AUTHORIZED_KEY.comment, type: ['string', 'null'] },
    options: { ...AUTHORIZED_KEY.options, type: ['string', 'null'] },
    id: {},
    fingerprint: {},
  },
};
