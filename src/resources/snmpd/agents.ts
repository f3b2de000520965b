// `agent` sections as /etc/init.d/snmpd snmpd_agent_add reads them (openwrt/packages 24.10
// net/net-snmp/files/snmpd.init): one `agentaddress` line each, which snmpd appends to the endpoints
// it listens on. OpenWrt builds net-snmp with the UDP, UDPIPv6 and Unix transports only (no TCP).
// snmpd exits at start when it cannot open one endpoint: a malformed or repeated one stops it all.
// The script reads `agentaddress` with config_get, and snmpd splits the line at commas only
// (snmpd_set_agent_address, init_master_agent): a UCI list would reach it joined by spaces, as one
// endpoint it cannot open. So the endpoints, an array as uapi's provider sends them, are one option
// joined by commas.

import type { FieldError } from '../../http/errors.js';
import { field, list } from '../codecs.js';
import { IPV4, IPV6, SERVICE_PORT } from '../addresses.js';
import { valueAt, type ResourceDefinition, type Rules } from '../model.js';
import { conflict, optionText } from '../checks.js';
import { HOSTNAME, sectionsOf } from './common.js';

/** `[Uu][Dd][Pp]`: net-snmp looks transports up case-insensitively. */
/*#__NO_SIDE_EFFECTS__*/
function ci(word: string): string {
  return word.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}
// net-snmp binds any port for port 0 (snmpIPBaseDomain.h netsnmp_ep_str).
const HOST_PORT = `((${HOSTNAME}|${IPV4})(:${SERVICE_PORT})?|${SERVICE_PORT})`;
const BRACKETED = `\\[${IPV6}\\](:${SERVICE_PORT})?`;
/** udp (the default transport) `[host][:port]`, udp6 `[addr]:port`, unix `/path`. */
const ENDPOINT =
  `((${ci('udp')}:)?${HOST_PORT}|(${ci('udp')}:)?${BRACKETED}|${ci('udp')}(6|${ci('v6')}|${ci('ipv6')}):(${BRACKETED}|${HOST_PORT})|${ci('unix')}:/[^,\\s]+)`;
const AGENT_ADDRESS = { pattern: `^${ENDPOINT}$`, maxLength: 255 };

/** The endpoints of one `agentaddress` option, as snmpd compares them. */
const endpoints = (value: string | undefined) => (value ?? '').toLowerCase().split(',').filter(Boolean);

/**
 * Transports net-snmp has but OpenWrt's build lacks. snmpd reads `tcp:161` as the host `tcp` over
 * udp, which it cannot resolve.
 */
const ABSENT = /^(tcp|tcp6|tcpv6|tcpipv6|dtlsudp|tlstcp|ssh|ipx|aal5pvc|callback):/;

function endpointErrors(address: unknown, others: string[]): FieldError[] {
  if (!Array.isArray(address)) return [];
  const seen = new Set<string>();
  for (const endpoint of endpoints(address.join(','))) {
    if (ABSENT.test(endpoint)) return [conflict('agentaddress', `${endpoint}: OpenWrt's snmpd has udp, udp6 and unix transports only`)];
    if (seen.has(endpoint) || others.includes(endpoint)) return [conflict('agentaddress', `${endpoint} is listed twice; snmpd would fail to open it and exit`)];
    seen.add(endpoint);
  }
  return [];
}

export const rules: Rules = (body, context) => {
  const others = sectionsOf(context, 'agent').filter((section) => section.name !== context.id).flatMap((section) => endpoints(optionText(section.options.get('agentaddress'))));
  return endpointErrors(valueAt(body, 'agentaddress'), others);
};

const definition: ResourceDefinition = {
  path: 'snmpd/agents',
  package: 'snmpd',
  type: 'agent',
  kind: 'collection',
  idPrefix: 'a_',
  reload: ['snmpd'],
  daemonPackage: 'snmpd',
  description: 'Endpoints snmpd listens on; without any agent, UDP port 161.',
  members: {
    agentaddress: field(list(AGENT_ADDRESS, { joined: ',' }), {
      description: 'Endpoints: `[udp:]host:port`, `udp6:[addr]:port`, a bare port, or `unix:/path`; written as one comma-separated option. Stock `UDP:161`, `UDP6:161`. None: the agent adds nothing.',
    }),
  },
  rules,
  checks: ['`agentaddress` names no transport but udp, udp6 and unix, and no endpoint of it repeats one of this or another agent.'],
};

export default definition;
