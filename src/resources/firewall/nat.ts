import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, FIREWALL4_BOOLEAN, firewall4Family, flagOrText, list, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import {
  ADDRESS,
  COUNTER,
  dateOrderCheck,
  dateOrderErrors,
  DEVICE,
  disabledZoneCheck,
  disabledZoneErrors,
  familyCheck,
  familyErrors,
  HOST,
  LABEL,
  LOG_PREFIX,
  MATCH_MARK_RATE_TIME,
  PORT,
  portProtocolCheck,
  portProtocolErrors,
  PROTOCOL,
  rangeCheck,
  rangeErrors,
  REWRITE_PORT,
  ZONE_REFERENCE,
} from './common.js';
import { conflict, given, required } from '../checks.js';

function targetErrors(body: JsonObject): FieldError[] {
  const target = valueAt(body, 'target') ?? 'MASQUERADE';
  if (target === 'SNAT') {
    return given(body, 'snat_ip') || given(body, 'snat_port') ? [] : [required('snat_ip', 'target SNAT needs snat_ip or snat_port')];
  }
  return ['snat_ip', 'snat_port'].filter((path) => given(body, path)).map((path) => conflict(path, `${path} applies only to target SNAT`));
}

const PORTS = ['match.src_port', 'match.dest_port', 'snat_port'];
const RANGES = [...PORTS, 'match.src_ip', 'match.dest_ip', 'snat_ip'];
const ADDRESSES = ['match.src_ip', 'match.dest_ip', 'snat_ip'];

export const rules: Rules = (body, context) => [
  ...targetErrors(body),
  ...portProtocolErrors(body, PORTS, { anyMeansTcpUdp: true }),
  ...rangeErrors(body, RANGES),
  ...dateOrderErrors(body, 'match'),
  ...familyErrors(body, 'match.family', ADDRESSES),
  ...disabledZoneErrors(body, context, ['match.src_zone']),
];

const definition: ResourceDefinition = {
  path: 'firewall/nat',
  package: 'firewall',
  type: 'nat',
  kind: 'collection',
  idPrefix: 'n_',
  reload: ['firewall'],
  description:
    'Source NAT rules, applied as traffic leaves through `match.src_zone`: SNAT to `snat_ip`/`snat_port`, MASQUERADE to the ' +
    'outgoing interface address, or ACCEPT to exempt the traffic from rewriting. An unset `match.family` means IPv4 only unless ' +
    'the addresses are IPv6; `any` covers both.',
  members: {
    name: field(text(LABEL), { description: 'Label in the ruleset comments and log prefixes; default the section id.' }),
    enabled: field(boolean(FIREWALL4_BOOLEAN), { description: 'A disabled rule is ignored by firewall4. Default true.' }),
    target: field(choice(['ACCEPT', 'SNAT', 'MASQUERADE'], { prefixes: true }), {
      description: 'SNAT (needs `snat_ip` or `snat_port`), MASQUERADE (default) or ACCEPT (no rewriting).',
    }),
    snat_ip: field(text(HOST), { description: 'SNAT: the address or range to rewrite the source to.' }),
    snat_port: field(text(REWRITE_PORT), { description: 'SNAT: the source port or range to rewrite to. Only with tcp and udp.' }),
    device: field(text(DEVICE), { description: 'Outgoing network device to match; `eth*` matches a prefix.' }),
    log: field(flagOrText(FIREWALL4_BOOLEAN, LOG_PREFIX), { description: 'Log matching packets: true logs with the prefix `<name>: `, a string is the prefix itself.' }),
    counter: COUNTER,
    match: {
      description: 'What the outgoing packet is matched on. Every field but `proto` is a single value.',
      fields: {
        src_zone: field(text(ZONE_REFERENCE), { option: 'src', description: 'The outbound zone the traffic leaves through; `*` or unset: any.' }),
        family: field(firewall4Family(), { description: 'Address family; unset means IPv4 only unless the addresses are IPv6.' }),
        proto: field(list(PROTOCOL), { description: 'Protocols: names, numbers 0-255, `all` (default) or `tcpudp`. With ports, `all` means tcp and udp.' }),
        src_ip: field(text(ADDRESS), { description: 'Source address: address, `addr/prefix`, `addr/mask` or range `a-b`; `!` negates.' }),
        src_port: field(text(PORT), { description: 'Source port or range; `!` negates. Only with tcp and udp.' }),
        dest_ip: field(text(ADDRESS), { description: 'Destination address, as `src_ip`.' }),
        dest_port: field(text(PORT), { description: 'Destination port or range; `!` negates. Only with tcp and udp.' }),
        ...MATCH_MARK_RATE_TIME,
      },
    },
  },
  references: [{ field: 'match.src_zone', package: 'firewall', type: 'zone', by: 'name', except: ['*'] }],
  rules,
  checks: [
    '`target` SNAT needs `snat_ip` or `snat_port`; `snat_ip` and `snat_port` only with SNAT.',
    `${portProtocolCheck(PORTS)} An unset or \`all\` protocol counts as tcp and udp.`,
    rangeCheck(RANGES),
    dateOrderCheck('match'),
    familyCheck('match.family', ADDRESSES),
    disabledZoneCheck(['match.src_zone']),
  ],
};

export default definition;
