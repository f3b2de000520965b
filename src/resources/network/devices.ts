// Network devices: netifd's `device` sections (config.c config_init_devices). `name` picks the
// netdev; `type` picks the device handler: bridge (bridge.c), 8021q and 8021ad (vlandev.c), macvlan
// (macvlan.c), veth (veth.c). Without `type` the section configures an existing device (a port, a
// DSA user port, a wifi or a tun/tap device another program creates) with the common settings of
// device.c device_init_settings. The fields are flat, as uapi's Terraform provider has them
// (internal/provider/network_device_resource.go); those of one type are refused under another.
// `tun` and `tap`, which the provider's 2.x type enum had, are not types: netifd registers no
// device type of those names (device_type_get finds none), so config_device_add takes such a
// section as settings for an existing device, as one without `type`, and creates nothing; a tun/tap
// device (OpenVPN's tun0) is configured by a section without `type`.
// Not offered: `broadcast_flood` and `stp_kernel` (netifd from 2026), which OpenWrt 24.10's netifd
// ignores. Not modelled, to keep the resource within its flash budget (the section holds them, and a
// PATCH keeps them): vrf, bonding, tunnel and extdev types; pse*, auth, auth_vlan, vlan (wifi extra
// VLANs), tags, ip6segmentrouting, conduit, the multicast flag, acceptlocal, sendredirects,
// arp_accept, the IGMP/MLD versions, the neighbour and DAD sysctls, the drop_* filters, pause and
// EEE, and the bridge's hash_max, robustness, last_member_interval and multicast_fast_leave.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, integerOrName, list, text } from '../codecs.js';
import { valueAt, type Field, type JsonObject, type ResourceDefinition, type Rules, type RuleContext } from '../model.js';
import {
  bridgePorts,
  DEVICE_NAME,
  INT32,
  items,
  MAC,
  NETIFD_BOOLEAN,
  NETIFD_FLAG,
  onlyWith,
  onlyWithCheck,
  others,
  ownersOf,
  C_INTEGER,
} from './common.js';
import { conflict, optionText, required, strings } from '../checks.js';

const flag = (description: string) => field(boolean(NETIFD_BOOLEAN), { description });
/** A BOOL whose netifd default is false: a value netifd drops reads false. */
const off = (description: string) => field(boolean(NETIFD_FLAG), { description });
const count = (description: string, range: { minimum: number; maximum: number } = INT32) => field(integer(range, C_INTEGER), { description });

// vlandev.c vlandev_qos_mapping_list_apply reads `%u:%u`; the kernel keeps only 3 bits of the 802.1p side.
const U32 = '(429496729[0-5]|42949672[0-8][0-9]|4294967[01][0-9]{2}|429496[0-6][0-9]{3}|42949[0-5][0-9]{4}|4294[0-8][0-9]{5}|429[0-3][0-9]{6}|42[0-8][0-9]{7}|4[01][0-9]{8}|[1-3][0-9]{9}|[1-9][0-9]{0,8}|0)';

/** Settings device_init_settings applies to a device of any type (dev_attrs). */
const COMMON: Record<string, Field> = {
  enabled: flag('A disabled device is kept down. Default true.'),
  mtu: count('MTU; netifd ignores values below 68, the kernel refuses values above the device\'s maximum. Default the device\'s.', { minimum: 68, maximum: 65535 }),
  mtu6: count('IPv6 MTU, at most `mtu`; netifd ignores values below 1280. Default `mtu`.', { minimum: 1280, maximum: 65535 }),
  macaddr: field(text(MAC), { description: 'MAC address `xx:xx:xx:xx:xx:xx` (unicast, not all zero). Default the device\'s or the board\'s.' }),
  txqueuelen: count('Transmit queue length in packets. Default the driver\'s.'),
  ipv6: flag('IPv6 on this device (addresses, autoconfiguration). Default the kernel\'s (on).'),
  promisc: flag('Promiscuous mode. Default the kernel\'s (off).'),
  rpfilter: field(choice(['strict', 'loose', '0', '1', '2']), { description: 'Reverse path filter: strict (1), loose (2) or 0 (off). Default the kernel\'s.' }),
  // Applied to this device as a member (port) of a bridge.
  learning: flag('As a bridge port: learn source MAC addresses. Default the kernel\'s (on).'),
  unicast_flood: flag('As a bridge port: flood unknown unicast to it. Default the kernel\'s (on).'),
  isolate: flag('As a bridge port: forward only to non-isolated ports. Default off.'),
  multicast_to_unicast: flag('As a bridge port: deliver multicast as unicast to each subscriber. Default the kernel\'s (off).'),
  multicast_router: count('As a bridge port: 0 never a multicast router port, 1 learn, 2 always. Default 1.', { minimum: 0, maximum: 2 }),
  // ethtool.
  speed: count('Link speed in Mbit/s (with `duplex`, and usually autoneg off). Default negotiated.', { minimum: 1, maximum: 2147483647 }),
  duplex: flag('Full duplex (true) or half (false). Default negotiated.'),
  autoneg: flag('Link autonegotiation. Default the driver\'s (on).'),
  gro: flag('Generic receive offload. Default the driver\'s or board.json\'s.'),
};

/** The fields of the bridge, 8021q/8021ad, macvlan and veth handlers. */
const TYPED: Record<string, Field> = {
  ports: field(list(DEVICE_NAME), { description: 'Member devices (bridge ports). bridge-vlan ports join the bridge as well.' }),
  bridge_empty: off('Bring the bridge up even without ports. Default false.'),
  vlan_filtering: flag('Filter by VLAN (the bridge-vlan sections). netifd turns it on while a bridge-vlan names the bridge. Default false.'),
  stp: off('Spanning tree, run by ustpd (RSTP by default). Default false.'),
  stp_proto: field(choice(['rstp', 'stp', 'mstp']), { description: 'Spanning tree protocol ustpd runs. Default rstp.' }),
  priority: count('Bridge priority for STP root election; lower wins. Default 32767.', { minimum: 0, maximum: 65535 }),
  forward_delay: count('STP forward delay, seconds (2-30 with STP). Default 8.', { minimum: 0, maximum: 30 }),
  hello_time: count('STP hello time, seconds. Default 1.', { minimum: 1, maximum: 10 }),
  max_age: count('STP maximum message age, seconds. Default 10.', { minimum: 6, maximum: 40 }),
  ageing_time: count('MAC address ageing time, seconds. Default the kernel\'s (300).', { minimum: 0, maximum: 1000000 }),
  igmp_snooping: off('IGMP/MLD snooping; also switches `multicast_querier` on unless that is given. Default false.'),
  multicast_querier: flag('Act as IGMP/MLD querier. Default `igmp_snooping`.'),
  query_interval: count('IGMP/MLD query interval, centiseconds; the kernel raises values below 100. Default 12500.', { minimum: 100, maximum: 2147483647 }),
  query_response_interval: count('Maximum response time in queries, centiseconds, below `query_interval`. Default 1000.', { minimum: 1, maximum: 2147483647 }),
  // vlandev.c vlandev_get_vid: strtoul(…, 10), else an alias of the parent's bridge-vlans.
  vid: field(integerOrName({ minimum: 0, maximum: 4094 }, { pattern: '^[A-Za-z0-9_-]*[A-Za-z_-][A-Za-z0-9_-]*$' }), {
    description: 'VLAN id 0-4094 (0 priority tags), or a bridge-vlan alias of the parent. Default 1.',
  }),
  ingress_qos_mapping: field(list({ pattern: `^[0-7]:${U32}$` }), { description: '`pcp:priority` pairs, 802.1p priority (0-7) of received frames to skb priority.' }),
  egress_qos_mapping: field(list({ pattern: `^${U32}:[0-7]$` }), { description: '`priority:pcp` pairs, skb priority to 802.1p priority (0-7) of sent frames.' }),
  mode: field(choice(['private', 'vepa', 'bridge', 'passthru']), { description: 'How macvlans of one parent reach each other. Default vepa (the kernel\'s).' }),
  peer_name: field(text(DEVICE_NAME), { description: 'Name of the other end. Default chosen by the kernel (vethN).' }),
  peer_macaddr: field(text(MAC), { description: 'MAC address of the other end.' }),
};

// The fields that apply to some types only.
const OWNERS = ownersOf([
  ['bridge', 'ports bridge_empty vlan_filtering stp stp_proto priority forward_delay hello_time max_age ageing_time igmp_snooping multicast_querier query_interval query_response_interval'],
  ['8021q', 'ifname vid ingress_qos_mapping egress_qos_mapping'],
  ['8021ad', 'ifname vid ingress_qos_mapping egress_qos_mapping'],
  ['macvlan', 'ifname mode'],
  ['veth', 'peer_name peer_macaddr'],
]);

function typeErrors(body: JsonObject): FieldError[] {
  const type = valueAt(body, 'type');
  // netifd reads a bridge's ifname as its ports (the spelling before `ports`), not as a parent.
  const errors = onlyWith(body, 'type', OWNERS).map((error) =>
    error.field === 'ifname' && type === 'bridge' ? conflict('ifname', 'a bridge\'s ifname is the legacy spelling of its ports; give them in ports') : error,
  );
  if ((type === '8021q' || type === '8021ad' || type === 'macvlan') && typeof valueAt(body, 'ifname') !== 'string') {
    errors.push(required('ifname', `a ${type} device needs its parent device in ifname`));
  }
  const mtu = valueAt(body, 'mtu');
  const mtu6 = valueAt(body, 'mtu6');
  if (typeof mtu === 'number' && typeof mtu6 === 'number' && mtu6 > mtu) errors.push(conflict('mtu6', 'mtu6 above mtu; the kernel refuses it'));
  const query = valueAt(body, 'query_interval');
  const response = valueAt(body, 'query_response_interval');
  if (typeof response === 'number' && response >= (typeof query === 'number' ? query : 12500)) errors.push(conflict('query_response_interval', 'must be below query_interval'));
  const delay = valueAt(body, 'forward_delay');
  if (valueAt(body, 'stp') === true && typeof delay === 'number' && delay < 2) errors.push(conflict('forward_delay', 'with STP the kernel takes 2-30 seconds'));
  for (const path of ['macaddr', 'peer_macaddr']) {
    const mac = valueAt(body, path);
    if (typeof mac === 'string' && mac.split(':').every((byte) => Number.parseInt(byte, 16) === 0)) errors.push(conflict(path, 'the all-zero MAC address is refused by the kernel'));
  }
  return errors;
}

/**
 * A `vid` alias must resolve among the bridge-vlan aliases of the parent: netifd before 625425e
 * (2026-07-16) silently used VLAN 1 for an unknown alias, later ones keep the device down.
 */
function aliasErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const vid = valueAt(body, 'vid');
  const parent = valueAt(body, 'ifname');
  if (typeof vid !== 'string' || /^[0-9]+$/.test(vid)) return [];
  const known = context
    .read('network')
    .sections.some((section) => section.type === 'bridge-vlan' && section.options.get('device') === parent && items(section.options.get('alias')).includes(vid));
  return known ? [] : [conflict('vid', `${vid} is not an alias of a bridge-vlan of ${String(parent)}`)];
}

/**
 * Two sections naming one device: netifd applies one and loses the other. A port joins one bridge;
 * the ports of another bridge's bridge-vlans are its members too (bridge.c bridge_config_init).
 */
function siblingErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const name = valueAt(body, 'name');
  const errors: FieldError[] = [];
  const devices = others(context, 'device');
  if (typeof name === 'string' && devices.some((section) => section.options.get('name') === name)) {
    errors.push(conflict('name', `another device section already configures ${name}`));
  }
  const owner = new Map<string, string>();
  for (const section of devices) {
    if (section.options.get('type') !== 'bridge') continue;
    for (const port of bridgePorts(section)) owner.set(port, optionText(section.options.get('name')) ?? section.name);
  }
  for (const section of others(context, 'bridge-vlan')) {
    const bridge = optionText(section.options.get('device'));
    if (bridge === undefined || bridge === name) continue;
    for (const spec of items(section.options.get('ports'))) owner.set(spec.split(':')[0], bridge);
  }
  for (const [where, port] of strings(body, 'ports')) {
    if (port === name) errors.push(conflict(where, 'a bridge cannot be its own port'));
    else if (owner.has(port)) errors.push(conflict(where, `${port} is already a port of bridge ${owner.get(port)}`));
  }
  return errors;
}

export const rules: Rules = (body, context) => [
  ...typeErrors(body),
  ...aliasErrors(body, context),
  ...siblingErrors(body, context),
];

const definition: ResourceDefinition = {
  path: 'network/devices',
  package: 'network',
  type: 'device',
  kind: 'collection',
  idPrefix: 'd_',
  reload: ['network'],
  mgmtPath: { device: 'name' },
  description:
    'Network devices: bridges, VLAN devices (802.1Q, 802.1ad), macvlans and veth pairs netifd creates, and settings (MTU, MAC ' +
    'address, sysctls, ethtool, bridge-port options) for existing devices such as switch ports or tun/tap devices.',
  members: {
    name: field(text(DEVICE_NAME), { required: true, description: 'The device name (at most 15 characters): br-lan, eth0.10, lan1, tun0, ...' }),
    type: field(choice(['bridge', '8021q', '8021ad', 'macvlan', 'veth']), {
      description: 'The device netifd creates: bridge, 8021q or 8021ad (a VLAN on `ifname`), macvlan, veth. Omitted: settings for an existing device.',
    }),
    ifname: field(text(DEVICE_NAME), { description: '8021q, 8021ad, macvlan: the parent device. Required for these types.' }),
    ...COMMON,
    ...TYPED,
  },
  rules,
  checks: [
    onlyWithCheck('type', OWNERS),
    'A 8021q, 8021ad or macvlan device needs `ifname`.',
    '`mtu6` is at most `mtu`; `query_response_interval` is below `query_interval` (default 12500); with `stp`, `forward_delay` is at least 2.',
    '`macaddr` and `peer_macaddr` are not all zero.',
    'A `vid` that is not a number is an `alias` of a bridge-vlan of the parent `ifname`.',
    '`name` is configured by one device section only; a port in `ports` is not the bridge itself nor in another bridge (its ports or bridge-vlans).',
  ],
};

export default definition;
