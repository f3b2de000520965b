// The first `system` section of /etc/config/snmpd as /etc/init.d/snmpd snmpd_system_add reads it
// (openwrt/packages 24.10 net/net-snmp/files/snmpd.init), for net-snmp 5.9.4's system_mib: each
// option set becomes one directive, the rest of its line the value. The script runs for every
// `system` section, and a later one overrides the same directive, so the first must be the only one.
// Without sysName it writes the system host name. A value of 256 bytes or more snmpd refuses.
// Quirk: the script reads `sysService` and writes a `sysService` directive, which snmpd does not know
// (its directive is sysServices, system_mib.c) and ignores: snmpd answers its default, 72, whatever
// `sys_services` holds. uapi's provider writes it, so it is writable all the same, as the option the
// script reads.

import type { FieldError } from '../../http/errors.js';
import { field, integer, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { conflict, outOfRange } from '../checks.js';
import { sectionsOf } from './common.js';

/** A line's rest: no control character, no leading blank (snmpd skips it); `""` stands for empty. */
const VALUE = { pattern: '^[^\\s\\x00-\\x1f\\x7f][^\\x00-\\x1f\\x7f]*$', maxLength: 255 };
const TEXTS = ['sys_location', 'sys_contact', 'sys_name', 'sys_descr'];

function utf8Length(value: string): number {
  let bytes = 0;
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function lengthErrors(body: JsonObject): FieldError[] {
  return TEXTS.flatMap((name) => {
    const value = valueAt(body, name);
    return typeof value === 'string' && utf8Length(value) > 255 ? [outOfRange(name, `${name} is longer than the 255 bytes snmpd takes`)] : [];
  });
}

export const rules: Rules = (body, context) => {
  const count = sectionsOf(context, 'system').length;
  return [...lengthErrors(body), ...(count > 1 ? [conflict('sys_location', `snmpd has ${count} system sections; the later ones override this one`)] : [])];
};

const definition: ResourceDefinition = {
  path: 'snmpd/system',
  package: 'snmpd',
  type: 'system',
  kind: 'singleton',
  reload: ['snmpd'],
  daemonPackage: 'snmpd',
  description: 'The system group snmpd answers (sysLocation, sysContact, ...); a value set here is read-only over SNMP.',
  members: {
    sys_location: field(text(VALUE), { option: 'sysLocation', description: 'sysLocation. Default Unknown.' }),
    sys_contact: field(text(VALUE), { option: 'sysContact', description: 'sysContact. Default root@localhost.' }),
    sys_name: field(text(VALUE), { option: 'sysName', description: 'sysName. Default the system host name.' }),
    sys_descr: field(text(VALUE), { option: 'sysDescr', description: 'sysDescr. Default the kernel\'s uname.' }),
    sys_object_id: field(text({ pattern: '^\\.?(0|[1-9][0-9]{0,9})(\\.(0|[1-9][0-9]{0,9})){1,127}$' }), {
      option: 'sysObjectID',
      description: 'sysObjectID, a numeric OID. Default net-snmp\'s.',
    }),
    sys_services: field(integer({ minimum: 0, maximum: 127 }), {
      option: 'sysService',
      description: 'sysServices, the `sysService` option. The init script passes it on under a name snmpd 5.9 ignores: snmpd answers 72.',
    }),
  },
  rules,
  checks: [
    '`sys_location`, `sys_contact`, `sys_name` and `sys_descr` are at most 255 bytes in UTF-8.',
    'The first `system` section is the only one (`sys_location` names the conflict).',
  ],
};

export default definition;
