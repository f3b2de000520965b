// `cert` sections as /etc/init.d/uhttpd generate_keys (OpenWrt 24.10.2) reads them: when an instance
// with `listen_https` starts without a non-empty cert and key file, every cert section in turn
// generates them with px5g (px5g-mbedtls, preferred) or openssl, so the last section's values win.
// The values build `-subj /C=../ST=../L=../O=../CN=..`, which px5g-mbedtls turns into a
// comma-separated subject: none of `/ , ; =` inside a value.

import { choice, field, integer, text } from '../codecs.js';
import type { ResourceDefinition } from '../model.js';

const SUBJECT = { pattern: '^[^/,;=\\x00-\\x1f\\x7f]+$', maxLength: 64 };

const definition: ResourceDefinition = {
  path: 'uhttpd/certs',
  package: 'uhttpd',
  type: 'cert',
  kind: 'collection',
  idPrefix: 'x_',
  reload: ['uhttpd'],
  description: 'Parameters of the self-signed certificate uhttpd generates when its certificate or key is missing; the last section applies.',
  members: {
    days: field(integer({ minimum: 1, maximum: 49710 }), { description: 'Validity in days. Default 397.' }),
    key_type: field(choice(['rsa', 'ec']), { description: 'Key type. Default rsa.' }),
    bits: field(integer({ minimum: 1024, maximum: 16384 }), { description: 'RSA key size. Default 2048.' }),
    ec_curve: field(text({ pattern: '^[A-Za-z0-9_-]+$', maxLength: 32 }), { description: 'EC curve: P-256 or P-384 work with every generator. Default P-256.' }),
    country: field(text({ pattern: '^[A-Za-z]{2}$' }), { description: 'Subject country code. Default ZZ.' }),
    state: field(text(SUBJECT), { description: 'Subject state. Default Somewhere.' }),
    location: field(text(SUBJECT), { description: 'Subject locality. Default Unknown.' }),
    organization: field(text(SUBJECT), { description: 'Subject organization. Default OpenWrt and a random suffix.' }),
    commonname: field(text(SUBJECT), { description: 'Subject common name and DNS subject alternative name. Default OpenWrt.' }),
  },
};

export default definition;
