// `timeserver` sections as /etc/init.d/sysntpd (busybox, OpenWrt 24.10) reads them:
// validate_ntp_section ntp, i.e. the section NAMED `ntp` only, so that is the one id the collection
// takes (and a create without one names). validate_data checks it as a whole: one invalid scalar (or an invalid last `server` item)
// and sysntpd prints "validation failed" and starts no ntpd at all; an invalid earlier `server` item
// is silently dropped.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, list, SHELL_BOOLEAN, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { INTERFACE_NAME } from '../dhcp/common.js';
import { conflict, given } from '../checks.js';
import { VALIDATE_HOST } from './system.js';

/** network_get_device, falling back to the literal name: an interface section or a device name. */
const INTERFACE_OR_DEVICE = { pattern: '^[A-Za-z0-9_.-]{1,15}$' };

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });

function serverErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (given(body, 'interface') && valueAt(body, 'enable_server') !== true) {
    errors.push(conflict('interface', 'interface applies only with enable_server'));
  }
  if (given(body, 'dhcp_interfaces') && valueAt(body, 'use_dhcp') === false) {
    errors.push(conflict('dhcp_interfaces', 'dhcp_interfaces applies only with use_dhcp'));
  }
  return errors;
}

export const rules: Rules = (body) => serverErrors(body);

const definition: ResourceDefinition = {
  path: 'system/timeservers',
  package: 'system',
  type: 'timeserver',
  kind: 'collection',
  ids: ['ntp'],
  reload: ['sysntpd'],
  description:
    'NTP client and server (busybox ntpd). Only the section with id `ntp` is used; the router syncs its clock from `server` ' +
    'and the servers its DHCP upstreams announce.',
  members: {
    enabled: flag('Run ntpd. Default true.'),
    server: field(list(VALIDATE_HOST), {
      description: 'NTP servers to sync from, host names or addresses. Stock 0-3.openwrt.pool.ntp.org.',
    }),
    use_dhcp: flag('Also sync from the NTP servers DHCP upstreams announce. Default true.'),
    dhcp_interfaces: field(list(INTERFACE_NAME), {
      option: 'dhcp_interface',
      description: 'With `use_dhcp`, take announced servers from these interfaces only. Default: every interface.',
    }),
    enable_server: flag('Also serve time to the network. Default false.'),
    interface: field(text(INTERFACE_OR_DEVICE), {
      description: 'With `enable_server`, serve on this interface (network interface or device name) only. Default: all.',
    }),
  },
  rules,
  checks: [
    '`interface` only with `enable_server`; `dhcp_interfaces` only with `use_dhcp`.',
  ],
};

export default definition;
