// `access` sections as /etc/init.d/snmpd snmpd_access_add reads them (openwrt/packages 24.10
// net/net-snmp/files/snmpd.init): `access <group> <context> <version> <level> <prefix> <read>
// <write> <notify>`, skipped unless every option is set (an empty context shifts the words: snmpd
// then refuses the line). `context none` is written as `""`, the default context. snmpd's
// vacm_parse_access takes the words as below, levels and models case-insensitively; `read`, `write`
// and `notify` name views (`view` sections, not served here), `none` by convention none at all.
// The script has no defaults of its own: what a create leaves out is the stock public_access's word
// (/etc/config/snmpd as net-snmp ships it: `none any noauth exact all none none`).

import { choice, field, text } from '../codecs.js';
import type { ResourceDefinition } from '../model.js';
import { NAME } from './common.js';

const view = (what: string, stock: string) => field(text(NAME), { default: stock, description: `View ${what}; \`none\`: none.` });

const definition: ResourceDefinition = {
  path: 'snmpd/accesses',
  package: 'snmpd',
  type: 'access',
  kind: 'collection',
  idPrefix: 'a_',
  reload: ['snmpd'],
  daemonPackage: 'snmpd',
  description: 'Grants a group of snmpd/groups the views it may read, write and be notified of.',
  members: {
    group: field(text(NAME), { required: true, description: 'The `group` of snmpd/groups entries this grants to.' }),
    context: field(text(NAME), { default: 'none', description: 'SNMPv3 context; `none` is the default context.' }),
    version: field(choice(['any', 'v1', 'v2c', 'usm']), { default: 'any', description: 'Security model the grant applies to.' }),
    level: field(choice(['noauth', 'auth', 'priv', 'noauthnopriv', 'authnopriv', 'authpriv']), {
      default: 'noauth',
      description: 'Least security level: noauth (as communities give), auth or priv.',
    }),
    prefix: field(choice(['exact', 'prefix']), { default: 'exact', description: 'Whether `context` matches exactly or as a prefix.' }),
    read: view('readable', 'all'),
    write: view('writable', 'none'),
    notify: view('sent in notifications', 'none'),
  },
  references: [{ field: 'group', package: 'snmpd', type: 'group', by: 'group' }],
};

export default definition;
