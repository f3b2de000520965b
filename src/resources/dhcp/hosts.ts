// `host` sections as dnsmasq.init dhcp_host_add and
// odhcpd config.c set_lease_from_blobmsg read them (OpenWrt 24.10). In the stock setup odhcpd is
// enabled with maindhcp 0: dnsmasq serves DHCPv4 from these sections (and ignores duid and hostid),
// odhcpd serves DHCPv6 from them (and ignores enable, tag, broadcast, dns and instance).

import type { FieldError } from '../../http/errors.js';
import { boolean, field, list, SHELL_BOOLEAN, text } from '../codecs.js';
import { IPV4 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import {
  DHCP_OPTION,
  DUID,
  HOST_NAME,
  HOSTID,
  INSTANCE,
  LEASETIME,
  MAC,
  shellFlag,
  siblings,
  TAG,
} from './common.js';
import { conflict, given, optionText, required } from '../checks.js';

const IPV4_PATTERN = new RegExp(`^${IPV4}$`);

/**
 * dnsmasq reads each comma-separated --dhcp-host field by its shape: digits with an optional unit
 * are a lease time, a dotted quad an address, `infinite`/`ignore` keywords. A name of that shape is
 * not applied as a name.
 */
function nameErrors(body: JsonObject): FieldError[] {
  const name = valueAt(body, 'name');
  if (typeof name !== 'string') return [];
  if (/^[0-9]+[smhdwSMHDW]?$/.test(name) || IPV4_PATTERN.test(name) || name === 'infinite' || name === 'ignore') {
    return [conflict('name', `dnsmasq would read the name ${name} as a lease time, an address or a keyword`)];
  }
  return [];
}

/** dnsmasq_start skips a host with nothing to identify the client, or nothing to give it. */
function identityErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (!given(body, 'macs') && !given(body, 'duid') && !given(body, 'name')) {
    errors.push(required('macs', 'a host needs macs, duid or name to match a client'));
  }
  if (!given(body, 'ip') && !given(body, 'name') && !given(body, 'hostid')) {
    errors.push(required('ip', 'a host needs ip, name or hostid; dnsmasq ignores it otherwise'));
  }
  return errors;
}

function dependencyErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (valueAt(body, 'dns') === true && (!given(body, 'ip') || !given(body, 'name') || valueAt(body, 'ip') === 'ignore')) {
    errors.push(conflict('dns', 'dns adds a hosts entry only with an ip address and a name'));
  }
  if (given(body, 'dhcp_option') && !given(body, 'networkid')) {
    errors.push(required('networkid', 'dhcp_option of a host applies only to its networkid tag'));
  }
  if (valueAt(body, 'force') === true && !given(body, 'dhcp_option')) {
    errors.push(conflict('force', 'force applies only to dhcp_option'));
  }
  return errors;
}

/**
 * dnsmasq refuses to start when two --dhcp-host lines of one instance give the same address
 * ("duplicate dhcp-host IP address"). A host without `instance` goes to every instance.
 */
function duplicateIpErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const ip = valueAt(body, 'ip');
  if (typeof ip !== 'string' || ip === 'ignore' || valueAt(body, 'enabled') === false) return [];
  const instance = valueAt(body, 'instance');
  const clash = siblings(context, 'dhcp', 'host').find((host) => {
    if (optionText(host.options.get('ip')) !== ip || !shellFlag(host, 'enable', true)) return false;
    const other = optionText(host.options.get('instance'));
    return typeof instance !== 'string' || other === undefined || other === instance;
  });
  return clash ? [conflict('ip', `host ${clash.name} already has ip ${ip}; dnsmasq would refuse to start`)] : [];
}

export const rules: Rules = (body, context) => [
  ...identityErrors(body),
  ...nameErrors(body),
  ...dependencyErrors(body),
  ...duplicateIpErrors(body, context),
];

const definition: ResourceDefinition = {
  path: 'dhcp/hosts',
  package: 'dhcp',
  type: 'host',
  kind: 'collection',
  idPrefix: 'h_',
  // dnsmasq serves DHCPv4 from hosts, odhcpd DHCPv6: both must reread (odhcpd also reloads itself
  // on the procd config trigger, but the engine cannot rely on it).
  reload: ['dnsmasq', 'odhcpd'],
  description:
    'Static leases: a fixed address, name and lease time for clients matched by MAC address, DUID or the name they send. dnsmasq ' +
    'serves them over DHCPv4, odhcpd over DHCPv6 (`duid`, `hostid`).',
  members: {
    name: field(text(HOST_NAME), {
      description:
        'Host name given to the client and, with `dns`, published in DNS. Without `macs` and `duid`, dnsmasq matches clients sending ' +
        'this name instead. Labels of letters, digits, inner `-` and `_`.',
    }),
    macs: field(list(MAC, { singleAsOption: true }), {
      option: 'mac',
      description:
        'MAC addresses of the client (all of them get the same lease, e.g. a laptop docked and undocked); `*` matches any byte for ' +
        'dnsmasq. odhcpd matches DHCPv6 clients by `duid` first, then by MAC, but only by a single MAC: one is written as a plain option, which both daemons read.',
    }),
    ip: field(text({ pattern: `^(${IPV4}|ignore)$` }), {
      description: 'IPv4 address to give the client, or `ignore` to never answer it. Unique among enabled hosts of a dnsmasq instance.',
    }),
    leasetime: field(text(LEASETIME), {
      description: 'Lease time of this host: seconds or a number with unit s, m, h, d or w, or `infinite`. Default: the pool\'s (12h).',
    }),
    duid: field(text(DUID), {
      description: 'DHCPv6 DUID of the client (hex, 2 to 130 bytes), matched by odhcpd before any MAC.',
    }),
    hostid: field(text(HOSTID), {
      description:
        'Interface identifier (hex, up to 64 bits) of the client\'s static DHCPv6 address in every served prefix. Default: the last ' +
        'octet of `ip` in decimal, read as hex (.100 gives ::100, .42 gives ::42).',
    }),
    tag: field(list(TAG, { acceptsString: true }), {
      description: 'dnsmasq tags set for this client, to select dhcp options elsewhere. A space-separated string is accepted on write.',
    }),
    match_tags: field(list(TAG), {
      option: 'match_tag',
      description: 'The host applies only to clients that carry all these dnsmasq tags.',
    }),
    networkid: field(text(TAG), { description: 'A further dnsmasq tag set for this client; `dhcp_option` is sent to it.' }),
    dhcp_option: field(list(DHCP_OPTION), {
      description: 'DHCP options for this client (dnsmasq syntax, e.g. `option:router,192.168.1.2`); needs `networkid`.',
    }),
    force: field(boolean(SHELL_BOOLEAN), { description: 'Send `dhcp_option` even when the client did not ask for it. Default false.' }),
    broadcast: field(boolean(SHELL_BOOLEAN), { description: 'Answer this client by broadcast (for clients that cannot take unicast). Default false.' }),
    dns: field(boolean(SHELL_BOOLEAN), { description: 'Publish `name` (with the local domain) for `ip` in dnsmasq\'s DNS. Default false.' }),
    enabled: field(boolean(SHELL_BOOLEAN), {
      option: 'enable',
      description: 'A disabled host is skipped by dnsmasq. odhcpd does not read it and still applies `duid` and `hostid`. Default true.',
    }),
    instance: field(text(INSTANCE), {
      description: 'The dnsmasq instance (dhcp/dnsmasq section) this host belongs to. Default: every instance.',
    }),
  },
  references: [{ field: 'instance', package: 'dhcp', type: 'dnsmasq' }],
  rules,
  checks: [
    'At least one of `macs`, `duid` and `name`, and at least one of `ip`, `name` and `hostid`.',
    '`name` must not look like a lease time, an IPv4 address, `infinite` or `ignore`.',
    '`dns` needs `ip` and `name`; `dhcp_option` needs `networkid`; `force` needs `dhcp_option`.',
    '`ip` must not be the `ip` of another enabled host of the same dnsmasq instance.',
  ],
};

export default definition;
