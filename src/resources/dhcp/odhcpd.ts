// The `odhcpd` section as odhcpd config.c set_config reads it (odhcpd 2024-05-08, a2988231, OpenWrt
// 24.10) through libuci's uci_to_blob, and as dnsmasq.init reads `maindhcp` (config_get odhcpd
// maindhcp: the section NAMED odhcpd only).
//
// odhcpd applies every `odhcpd` section in file order (the last one wins); dnsmasq reads only the one
// named `odhcpd`. The stock section is named `odhcpd` and is the only one; a missing section is
// created with the type's name (stagedSection), which is what dnsmasq.init looks for.
//
// odhcpd keeps these globals across a reload (SIGHUP): removing `leasefile`, `leasetrigger` or
// `hostsfile`, or `maindhcp`/`legacy`/`loglevel`, takes effect at its next restart only; writing a
// value takes effect at once.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, integer, text, UCI_BLOB_BOOLEAN } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { PATH } from './common.js';
import { conflict } from '../checks.js';

/**
 * dnsmasq.init tests `[ "$maindhcp" -gt 0 ]`: only a number works there, while odhcpd takes `1`,
 * `0`, `true` and `false`. `true` would make both serve DHCPv4.
 */
const MAINDHCP = { truthy: ['1'], falsy: ['0'] };

function sectionErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const sections = context.read('dhcp').sections.filter((section) => section.type === 'odhcpd');
  const errors: FieldError[] = [];
  if (sections.length > 1) {
    errors.push(conflict('maindhcp', `dhcp has ${sections.length} odhcpd sections; odhcpd applies the last one, this resource is the first`));
  }
  if (sections.length && sections[0].name !== 'odhcpd' && valueAt(body, 'maindhcp') !== undefined) {
    errors.push(conflict('maindhcp', `dnsmasq reads maindhcp from the section named odhcpd, not from ${sections[0].name}`));
  }
  return errors;
}

export const rules: Rules = (body, context) => sectionErrors(body, context);

const definition: ResourceDefinition = {
  path: 'dhcp/odhcpd',
  package: 'dhcp',
  type: 'odhcpd',
  kind: 'singleton',
  // maindhcp decides at dnsmasq's start whether dnsmasq serves DHCPv4: dnsmasq must reload too
  // (the API spec names odhcpd only; see REPORT.md).
  reload: ['odhcpd', 'dnsmasq'],
  description: 'Global odhcpd settings: whether odhcpd or dnsmasq serves DHCPv4, the lease state file and its trigger, logging.',
  members: {
    maindhcp: field(boolean(MAINDHCP), {
      description: 'odhcpd serves DHCPv4 on the dhcp/servers with `dhcpv4` server, and dnsmasq none. Stock false (dnsmasq serves DHCPv4).',
    }),
    leasefile: field(text(PATH), {
      description: 'State file of odhcpd\'s leases, the source of dhcp/leases6 (also read by dnsmasq as a hosts file). Stock /tmp/hosts/odhcpd; unset: none written.',
    }),
    leasetrigger: field(text(PATH), {
      description: 'Program run after the lease state changed. Stock /usr/sbin/odhcpd-update (makes dnsmasq reread the names).',
    }),
    hostsfile: field(text(PATH), { description: 'A hosts file odhcpd writes with the names of its leases. Default: none.' }),
    loglevel: field(integer({ minimum: 0, maximum: 7 }), {
      description: 'Syslog level odhcpd logs up to: 0 emergencies only to 7 debug. Stock and default 4 (warnings).',
    }),
    legacy: field(boolean(UCI_BLOB_BOOLEAN), {
      description: 'With `maindhcp`, serve DHCPv4 on every dhcp/servers with `start` set even without `dhcpv4` server. Default false.',
    }),
  },
  rules,
  checks: [
    'The first `odhcpd` section must be the only one, and named `odhcpd` when `maindhcp` is written.',
  ],
};

export default definition;
