// `group` sections as /etc/init.d/snmpd snmpd_group_add reads them (openwrt/packages 24.10
// net/net-snmp/files/snmpd.init): `group <group> <version> <secname>`, skipped unless all three are
// set. snmpd (vacm_parse_group) takes the models v1, v2c and usm (the only security module OpenWrt
// builds); `any` it calls bad, and such a group never matches a request. For v1 and v2c the security
// name is one a com2sec or com2sec6 section gives; for usm it is an SNMPv3 user name.
// The script has no defaults: what a create leaves out is stock, the read-only security name `ro`
// of the shipped public communities, and v2c, the community model of the three groups each of the
// shipped security names has (v1, v2c, usm).

import { choice, field, text } from '../codecs.js';
import { valueAt, type ResourceDefinition, type Rules } from '../model.js';
import { conflict, optionText } from '../checks.js';
import { NAME, sectionsOf } from './common.js';

/** A v1/v2c group whose secname no com2sec maps matches no request. */
export const rules: Rules = (body, context) => {
  const secname = valueAt(body, 'secname');
  if (valueAt(body, 'version') === 'usm' || typeof secname !== 'string') return [];
  const mapped = sectionsOf(context, 'com2sec', 'com2sec6').some((section) => optionText(section.options.get('secname')) === secname);
  return mapped ? [] : [conflict('secname', `no snmpd/com2secs maps a community to ${secname}`)];
};

const definition: ResourceDefinition = {
  path: 'snmpd/groups',
  package: 'snmpd',
  type: 'group',
  kind: 'collection',
  idPrefix: 'g_',
  reload: ['snmpd'],
  daemonPackage: 'snmpd',
  description: 'Puts a security name, for one security model, into a group that snmpd/accesses grant views to.',
  members: {
    group: field(text(NAME), { required: true, description: 'Group name.' }),
    version: field(choice(['v1', 'v2c', 'usm']), { default: 'v2c', description: 'Security model: v1, v2c (communities) or usm (SNMPv3 users).' }),
    secname: field(text(NAME), { default: 'ro', description: 'Security name: an snmpd/com2secs `secname` for v1 and v2c, an SNMPv3 user for usm.' }),
  },
  // A com2sec still named by a group is not removed; a usm group's secname names no com2sec.
  references: [{ field: 'secname', package: 'snmpd', type: 'com2sec', by: 'secname', guardOnly: true }],
  rules,
  checks: ['With `version` v1 or v2c, `secname` is the `secname` of an snmpd/com2secs entry.'],
};

export default definition;
