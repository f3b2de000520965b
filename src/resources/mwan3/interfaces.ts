// `interface` sections of the mwan3 package as mwan3 2.11.16 (openwrt/packages openwrt-24.10,
// net/mwan3/files) reads them: etc/init.d/mwan3 start_tracker, etc/hotplug.d/iface/15-mwan3,
// lib/mwan3/mwan3.sh and usr/sbin/mwan3track (config_get with its defaults, config_get_bool).
// The section NAME is the netifd interface mwan3 balances over (network/interfaces id); for family
// ipv6 mwan3 uses `<name>_6` instead while netifd has it (a DHCPv6 sub-interface). It also names the
// chain mwan3_iface_in_<name>, which iptables holds to 28 characters. The mark id of an interface is
// its place among these sections, which `globals` mmx_mask must number.
// In 2.11.16 mwan3track hands nping `--ipv4`/`--ipv6` where the mode belongs: the `nping-*` suffix
// is not applied (fixed in 2.12).

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, list, SHELL_BOOLEAN } from '../codecs.js';
import { IPV4, IPV6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { conflict, strings } from '../checks.js';
import { familyErrors, idLengthErrors, interfaceCount, interfaceRoom, maskOf } from './common.js';

const HOST = `([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const POSITIVE = { minimum: 1, maximum: 2147483647 };
const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });

/** The section name is the netifd interface; a new one takes a mark id the mask must have room for. */
function idErrors(context: RuleContext): FieldError[] {
  const { id } = context;
  // An id that names no network interface is the reference's error alone.
  if (id === undefined || !context.read('network').sections.some((section) => section.type === 'interface' && section.name === id)) return [];
  const errors = idLengthErrors(id, 13, `mwan3 names the chain mwan3_iface_in_${id} after it`);
  const model = context.read('mwan3');
  const place = model.sections.filter((section) => section.type === 'interface').findIndex((section) => section.name === id);
  const room = interfaceRoom(maskOf(model)) ?? 0;
  if ((place < 0 ? interfaceCount(model) + 1 : place + 1) > room) errors.push(conflict('id', `globals mmx_mask leaves room for ${room} interfaces`));
  return errors;
}

function trackErrors(body: JsonObject): FieldError[] {
  const errors = familyErrors(body, valueAt(body, 'family') ?? 'ipv4', ['track_ip']);
  const reliability = valueAt(body, 'reliability');
  const hosts = strings(body, 'track_ip').length;
  if (hosts && typeof reliability === 'number' && reliability > hosts) {
    errors.push(conflict('reliability', `reliability ${reliability} needs as many track_ip hosts; the interface would never be online`));
  }
  if (valueAt(body, 'track_method') === 'arping' && valueAt(body, 'family') === 'ipv6') errors.push(conflict('track_method', 'arping probes IPv4 only'));
  return errors;
}

export const rules: Rules = (body, context) => [...idErrors(context), ...trackErrors(body)];

const definition: ResourceDefinition = {
  path: 'mwan3/interfaces',
  package: 'mwan3',
  type: 'interface',
  kind: 'collection',
  reload: ['mwan3'],
  daemonPackage: 'mwan3',
  description: 'WAN interfaces mwan3 balances over, each named by its network/interfaces id, and how their reachability is tracked.',
  // mwan3 balances over the netifd interface of the section's name: removing that interface is refused too.
  references: [{ field: 'id', package: 'network', type: 'interface' }],
  members: {
    enabled: flag('mwan3 uses and tracks the interface. Default false.'),
    initial_state: field(choice(['online', 'offline']), { description: 'State until the first probes answer. Default online.' }),
    family: field(choice(['ipv4', 'ipv6']), { description: 'Address family. Default ipv4.' }),
    track_ip: field(list({ pattern: `^(${IPV4}|${IPV6}|${HOST})$`, maxLength: 253 }, { listOnly: true }), {
      description: 'Hosts probed to tell whether the interface is online; none: not tracked.',
    }),
    track_method: field(choice(['ping', 'arping', 'httping', 'nping-tcp', 'nping-udp', 'nping-icmp', 'nping-arp']), {
      description: 'Probe tool; arping, httping and nping must be installed, else ping is used. Default ping.',
    }),
    httping_ssl: field(boolean(SHELL_BOOLEAN), {
      when: { field: 'track_method', values: ['httping'] },
      description: 'Probe over HTTPS. Default false.',
    }),
    reliability: field(integer({ minimum: 0, maximum: 2147483647 }), {
      description: 'Hosts that must answer for a probe round to succeed; 0 never probes. Default 1.',
    }),
    // Terraform reserves `count`: uapi's provider names it probe_count.
    probe_count: field(integer(POSITIVE), { option: 'count', description: 'Probes per host and round. Default 1.' }),
    size: field(integer({ minimum: 0, maximum: 65507 }), { description: 'ping payload bytes. Default 56.' }),
    max_ttl: field(integer({ minimum: 1, maximum: 255 }), { description: 'ping TTL. Default 60.' }),
    timeout: field(integer({ minimum: 1, maximum: 2147 }), { description: 'Seconds to wait for an answer. Default 4.' }),
    interval: field(integer(POSITIVE), { description: 'Seconds between probe rounds. Default 10.' }),
    failure_interval: field(integer(POSITIVE), { description: 'Seconds between rounds while failing. Default `interval`.' }),
    recovery_interval: field(integer(POSITIVE), { description: 'Seconds between rounds while recovering. Default `interval`.' }),
    keep_failure_interval: flag('Keep `failure_interval` while offline. Default false.'),
    down: field(integer(POSITIVE), { description: 'Failed rounds that make the interface offline. Default 5.' }),
    up: field(integer(POSITIVE), { description: 'Successful rounds that make it online again. Default 5.' }),
    check_quality: flag('ping and httping also judge latency and loss. Default false.'),
    failure_latency: field(integer(POSITIVE), { description: 'With `check_quality`: ms at which a probe fails. Default 1000.' }),
    recovery_latency: field(integer({ minimum: 0, maximum: 2147483647 }), { description: 'With `check_quality`: ms a probe must stay under to succeed. Default 500.' }),
    failure_loss: field(integer({ minimum: 1, maximum: 100 }), { description: 'With `check_quality`: loss % at which a probe fails. Default 40.' }),
    recovery_loss: field(integer({ minimum: 0, maximum: 100 }), { description: 'With `check_quality`: loss % a probe must stay under to succeed. Default 10.' }),
    flush_conntrack: field(list({ enum: ['ifup', 'ifdown', 'connected', 'disconnected'] }, { listOnly: true }), {
      description: 'Events on which the whole conntrack table is flushed.',
    }),
  },
  rules,
  checks: [
    'The `id` names a network/interfaces section and has at most 13 characters; `globals` mmx_mask numbers the interfaces up to this one.',
    '`track_ip` addresses are of `family`; `reliability` at most the number of `track_ip`; `track_method` arping only for ipv4.',
  ],
};

export default definition;
