// The `usteer` section as /etc/init.d/usteer reads it (openwrt/usteer 7d2b17c9, 2022-08-18, the
// package of OpenWrt 24.10) and hands it to usteerd with `ubus call usteer set_config`: the options
// become JSON members of the types usteerd's config policy takes (ubus.c __config_items). A number
// beyond int32 becomes a 64-bit blob that usteerd ignores, and a negative one in an unsigned member
// wraps: those are refused. `enabled` and `network` are read from the last `usteer` section, the
// others from each section in turn, the last one winning: with two sections the first one's values
// are not applied, so a write is refused then. `probe_steering` in the shipped comments is not
// passed on by the script.

import { boolean, field, integer, list, SHELL_BOOLEAN, text, words } from '../codecs.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { conflict } from '../checks.js';

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });
const u32 = (description: string) => field(integer({ minimum: 0, maximum: 2147483647 }), { description });
const i32 = (description: string) => field(integer({ minimum: -2147483648, maximum: 2147483647 }), { description });
const ms = (what: string, fallback: number) => u32(`${what} (ms). Default ${fallback}.`);
const snr = (what: string, fallback = 0) => i32(`${what}: SNR, or signal in dBm when negative; 0 off. Default ${fallback}.`);
const EVENTS = [
  'probe_req_accept', 'probe_req_deny', 'auth_req_accept', 'auth_req_deny', 'assoc_req_accept', 'assoc_req_deny', 'load_kick_trigger',
  'load_kick_reset', 'load_kick_min_clients', 'load_kick_no_client', 'load_kick_client', 'signal_kick',
];

export const rules: Rules = (_body, context) => {
  const count = context.read('usteer').sections.filter((section) => section.type === 'usteer').length;
  return count > 1 ? [conflict('enabled', `usteer has ${count} usteer sections; usteer applies the last one, this resource is the first`)] : [];
};

const definition: ResourceDefinition = {
  path: 'usteer/config',
  package: 'usteer',
  type: 'usteer',
  kind: 'singleton',
  reload: ['usteer'],
  daemonPackage: 'usteer',
  description: 'The band-steering and roaming daemon usteer (the `usteer` section; there must be only one).',
  members: {
    enabled: field(boolean({ truthy: ['1'], falsy: ['0'] }), { description: 'Run usteerd. Default true.' }),
    // `uci get` gives a list joined by spaces, and the script loops over its words.
    network: field(words({ pattern: '^[A-Za-z0-9_]+$', maxLength: 32 }), {
      description: 'Network interfaces to exchange state with other APs on, separated by spaces. Stock lan.',
    }),
    local_mode: flag('No exchange with other APs. Default false.'),
    ipv6: flag('Exchange over IPv6. Default false.'),
    syslog: flag('Log to syslog. Default true.'),
    // MSG_FATAL to MSG_DEBUG_ALL (utils.h); a higher level logs as 5 does.
    debug_level: field(integer({ minimum: 0, maximum: 5 }), { description: 'Log level, 0 fatal to 5 all. Stock 2, default 0.' }),
    event_log_types: field(list({ enum: EVENTS }, { listOnly: true }), { description: 'Events to log.' }),
    ssid_list: field(list({ maxLength: 32 }, { listOnly: true }), { description: 'SSIDs to steer on. Default all.' }),
    node_up_script: field(text({ pattern: '^[^\\x00-\\x1f\\x7f]+$' }), { description: 'Shell command run with the interface name when a node comes up.' }),
    max_neighbor_reports: u32('Neighbour reports per node. Default 8.'),
    sta_block_timeout: ms('Longest block of a station by policy', 30000),
    local_sta_timeout: ms('How long an unconnected station is tracked', 120000),
    local_sta_update: ms('Station update interval', 1000),
    measurement_report_timeout: ms('How long a measurement report is kept', 120000),
    max_retry_band: u32('Times in a row a station may be blocked. Default 5.'),
    seen_policy_timeout: ms('Idle time after which a station is not considered', 30000),
    load_balancing_threshold: u32('Station count difference between APs for load balancing; 0 off. Default 0.'),
    band_steering_threshold: u32('Station count difference between bands for band steering. Default 5.'),
    remote_update_interval: ms('Interval of updates to other APs', 1000),
    remote_node_timeout: u32('Update intervals after which a silent AP is dropped. Default 10.'),
    assoc_steering: flag('Reject association requests to steer. Default false.'),
    min_connect_snr: snr('Minimum to connect'),
    min_snr: snr('Minimum to stay connected'),
    min_snr_kick_delay: ms('Delay before kicking a station below `min_snr`', 5000),
    steer_reject_timeout: ms('No steering after a refused transition', 60000),
    roam_process_timeout: ms('Time after a disassociation within which a reassociation is a roam', 5000),
    roam_scan_snr: snr('Below it, ask the station to scan'),
    roam_scan_tries: u32('Scan requests per station. Default 3.'),
    roam_scan_timeout: ms('Wait after the last scan request before scanning again; 0 kicks instead', 0),
    roam_scan_interval: ms('Interval between scan requests', 10000),
    roam_trigger_snr: snr('Below it, force roaming'),
    roam_trigger_interval: ms('Interval between roaming triggers', 60000),
    roam_kick_delay: ms('Kick after an unanswered roam request', 10000),
    signal_diff_threshold: u32('Signal difference between APs for steering; 0 off. Default 0.'),
    initial_connect_delay: ms('Delay before answering probe requests', 0),
    load_kick_enabled: flag('Kick stations on high channel load. Default false.'),
    // Compared with the channel load in percent (policy.c usteer_local_node_load_kick): above 100 never kicks.
    load_kick_threshold: field(integer({ minimum: 0, maximum: 100 }), { description: 'Channel load in % for load kicks; 0 off. Default 75.' }),
    load_kick_delay: ms('Time above the threshold before kicking', 10000),
    load_kick_min_clients: u32('Stations needed for load kicks. Default 10.'),
    // hostapd's del_client sends it as a 16-bit 802.11 reason code; 0 is reserved.
    load_kick_reason_code: field(integer({ minimum: 1, maximum: 65535 }), { description: '802.11 reason code of a load kick. Default 5.' }),
    band_steering_interval: ms('Interval of steering to a higher band; 0 off', 120000),
    band_steering_min_snr: snr('Minimum kept over the interval for band steering', -60),
    link_measurement_interval: ms('Interval of link measurement requests; 0 off', 30000),
  },
  rules,
  checks: ['The `usteer` section must be the only one (else refused on `enabled`).'],
};

export default definition;
