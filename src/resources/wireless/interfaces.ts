// Wireless networks: `wifi-iface` sections, as OpenWrt 24.10 reads them. netifd (7901e66 config.c
// config_init_wireless) sets one up on each radio `device` names: an option names one (its whole
// text, unsplit), a `list` several. `device` is one radio, as uapi's provider sends it, written as
// an option; a `list device` of several reads null, and a write that sends the null back keeps it,
// so such a section still round-trips. `network` is netifd's list (a BLOBMSG array, which blob.c
// splits from an option), as one space-separated string. mac80211.sh sets up ap
// (hostapd.sh hostapd_set_bss_options), sta, adhoc and mesh (wpa_supplicant_add_network) and monitor,
// and skips a section with any other mode or none (netifd-wireless.sh for_each_interface): a create
// without `mode` writes `ap`, uapi 2.x's default. The legacy `wds` mode is broadcom-wl's only.
// `runtime` is netifd's `ifname` and, for an interface set up, rpcd's iwinfo `info` and `assoclist`
// of it.
// `encryption` is parsed by globs (netifd-wireless.sh wireless_vif_parse_encryption): its bases and
// `+cipher` suffixes are taken, `psk3` and `psk3-mixed` as the aliases of sae and sae-mixed they are
// there; other text the globs happen to match (`wpa2-psk`, `8021x`, `osen`) reads as stored and a
// PUT refuses it. WEP: the 24.10 hostapd and wpad builds leave CONFIG_WEP out (CONFIG_WPA_ENABLE_WEP
// defaults to n), so no write sets a wep* encryption or key1-key4; a stored one reads as stored, and
// a write keeping it unchanged keeps the WEP keys (write-only), so the section still round-trips.
// An enterprise ap's `key` is hostapd.sh's legacy RADIUS secret, used while `auth_secret` is unset.
// A phase 2 spelled `auth=...` reads as null and a PUT sending the null keeps it. netifd itself
// (wireless.c vif_policy) reads bridge_isolate, isolate, proxy_arp (ap only) and multicast_to_unicast
// (unset: the bridge's default) on every mode. The mesh_* tunables go to the kernel (common.uc
// wdev_set_mesh_params, int() of each; kernel nl80211 meshconf ranges), mesh_power_mode as its
// number. multi_ap_backhaul_ssid/key are read only inside the WPS block, so go with WPS. Not
// modelled (a PUT removes them, a PATCH keeps them): the legacy server/port, vlan_file,
// vlan_no_bridge, eap_server and its server options, the *2 options of an inner EAP-TLS,
// ca_cert_usesystem, domain_suffix_match, radius_*_req_attr, radius_client_addr, request_cui,
// r1_key_holder, tdls_prohibit, auth_cache, eapol_version, wep_rekey, wpa_psk_file, macfile,
// ieee80211w_mgmt_cipher/max_timeout/retry_timeout, sae_require_mfp, sae_pwe, owe_transition_*,
// rrm_*, rnr, mbo, time_advertisement/time_zone, ftm_responder and its lci/civic/stationary_ap,
// vendor_elements, iapp_interface, airtime_*, per_sta_vif, ocv, apup, default_disabled,
// hostapd_bss_options, bssid_blacklist/whitelist, basic_rate, supported_rates, mcast_rate,
// max_listen_int, powersave, vif_txpower, tags, FILS, WPS (and multi_ap_backhaul_*), Hotspot 2.0
// and interworking (iw_*, hs20*, osu_*), and wifi-vlan and wifi-station sections (their own
// section types). Nothing checks which wpad variant is installed: WPA-Enterprise, ppsk and dae_*
// need a full one (the basic builds have no EAP or RADIUS), mesh one with 802.11s. A radio's change
// of band or htmode is checked against its access points (wireless/devices). The rules
// (wireless/common.ts) find a stored secret in the staged section; a merge PATCH of `key: null`
// reaches them as null.

import type { FieldError } from '../../http/errors.js';
import { IPV4, IPV6 } from '../addresses.js';
import { boolean, choice, field, list, text, UCI_BLOB_BOOLEAN, words } from '../codecs.js';
import { given, outOfRange, required, utf8Length } from '../checks.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { baseOf, bindingErrors, enterpriseErrors, int, keyErrors, MODES_OF, off, on, radioErrors, sectionErrors, securityErrors } from './common.js';

const LINE = { pattern: '^[^\\x00-\\x1f\\x7f]+$' };
/** A UCI section name, as `device` and `network` name wifi-device and interface sections. */
const SECTION_NAME = { pattern: '^[A-Za-z0-9_]+$' };
/** hostapd's hwaddr_aton: six colon-separated two-digit hex bytes. */
const MAC = { pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$' };
/** hostapd_parse_ip_addr: an IPv4 or IPv6 address, no name. */
const IP = { pattern: `^(${IPV4}|${IPV6})$` };
/** A list item the script splits on blanks. */
const WORD = { pattern: '^[^\\s]+$' };
const PORT = { minimum: 1, maximum: 65535 };
const IFNAME = { pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', maxLength: 15 };
const INT = { minimum: 0, maximum: 2147483647 };
const U16 = { minimum: 1, maximum: 65535 };
/** hostapd's add_r0kh/add_r1kh, commas for its blanks: MAC, R0KH-ID (1-48 bytes) or R1KH-ID, a 128- or 256-bit hex key. */
/*#__NO_SIDE_EFFECTS__*/
function KH(id: string) {
  return { pattern: `^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5},${id},([0-9A-Fa-f]{32}){1,2}$` };
}

/*#__NO_SIDE_EFFECTS__*/
function modeCheck(): string {
  const groups: Record<string, string[]> = {};
  for (const name in MODES_OF) (groups[MODES_OF[name]] ??= []).push(`\`${name}\``);
  return `Per \`mode\`: ${Object.entries(groups).map(([modes, names]) => `${modes.replace(' ', ', ')} ${names.join(', ')}`).join('; ')}. \`encryption\`: monitor none, mesh none or sae, adhoc none or psk2, sta not wpa3-mixed.`;
}

export const rules: Rules = (body, context) => {
  const mode = body.mode;
  const errors: FieldError[] = [];
  const encryption = typeof body.encryption === 'string' ? body.encryption : 'none';
  const base = baseOf(encryption);
  for (const name of ['ssid', 'mesh_id']) {
    const value = body[name];
    if (typeof value === 'string' && utf8Length(value) > 32) errors.push(outOfRange(name, `${name} is at most 32 bytes`));
  }
  if ((mode === 'ap' || mode === 'adhoc') && !given(body, 'ssid')) errors.push(required('ssid', `mode ${mode} needs ssid`));
  if (mode === 'sta' && !given(body, 'ssid') && !given(body, 'bssid')) errors.push(required('ssid', 'sta needs ssid or bssid'));
  if (mode === 'mesh' && !given(body, 'ssid') && !given(body, 'mesh_id')) errors.push(required('mesh_id', 'mesh needs mesh_id or ssid'));
  return [...errors, ...sectionErrors(body, context, encryption), ...bindingErrors(body, context, encryption, mode), ...keyErrors(body, context, base, mode), ...enterpriseErrors(body, base, mode), ...securityErrors(body, base, mode), ...radioErrors(body, context, encryption)];
};

const definition: ResourceDefinition = {
  path: 'wireless/interfaces',
  package: 'wireless',
  type: 'wifi-iface',
  kind: 'collection',
  idPrefix: 'w_',
  reload: ['network'],
  description: 'Wireless networks (`wifi-iface`); the first boot writes an open `OpenWrt` on lan per radio.',
  members: {
    device: field(text(SECTION_NAME), { description: 'The radio. Required; null for a `list device` of several, which a write of null keeps.' }),
    network: field(words(SECTION_NAME), { description: 'network/interfaces ids it joins, space-separated.' }),
    mode: field(choice(['ap', 'sta', 'adhoc', 'mesh', 'monitor']), { default: 'ap', description: 'sta: client; mesh: 802.11s.' }),
    ssid: field(text(LINE), { description: 'Network name.' }),
    bssid: field(text(MAC), { description: 'sta: the AP; adhoc: the cell.' }),
    encryption: field(text({ pattern: '^(none|wep(-open|-shared|-mixed)?|(owe|psk(2|3|-mixed|3-mixed)?|sae(-mixed)?|wpa(2|3|-mixed|3-mixed|3-192)?)(\\+(ccmp|aes|tkip|tkip\\+ccmp|tkip\\+aes|ccmp\\+tkip|aes\\+tkip|ccmp256|gcmp|gcmp256))?)$' }), {
      description: 'Default none; owe, psk*, sae*, enterprise wpa*; optional `+cipher`.',
    }),
    key: field(text(LINE), { secret: true, description: 'Passphrase (wpa* ap: RADIUS secret).' }),
    hidden: off('Hide the SSID.'),
    isolate: off('Isolate clients.'),
    wmm: on('WMM (802.11n needs it). Default true.'),
    maxassoc: int('Most clients; 0: 2007. Default 2007.', { minimum: 0, maximum: 2007 }),
    macaddr: field(text({ pattern: '^(random|[0-9A-Fa-f][02468ACEace](:[0-9A-Fa-f]{2}){5})$' }), { description: 'Or `random`. Default: derived.' }),
    ifname: field(text(IFNAME), { description: 'Default like `phy0-ap0`.' }),
    wds: off('4-address mode.'),
    mesh_id: field(text(LINE), { description: 'Mesh ID. Default `ssid`.' }),
    mesh_fwding: on('Forward for others. Default true.'),
    ieee80211r: off('802.11r.'),
    mobility_domain: field(text({ pattern: '^[0-9A-Fa-f]{4}$' }), { description: 'Default: from the SSID.' }),
    ft_over_ds: off('Over the DS.'),
    ft_psk_generate_local: field(boolean(UCI_BLOB_BOOLEAN), { description: 'Default true with psk*.' }),
    ieee80211w: int('0 off, 1 optional, 2 required. Default 2 for sae, owe, wpa3*, 1 for their -mixed.', { minimum: 0, maximum: 2 }),
    ieee80211k: off('802.11k.'),
    bss_transition: off('802.11v.'),
    macfilter: field(choice(['allow', 'deny']), { description: 'For `maclist`. Default: none.' }),
    maclist: field(list(MAC), { description: 'MAC addresses.' }),
    disabled: off('Leave it out.'),
    auth_server: field(list(IP, { singleAsOption: true }), { description: 'RADIUS servers.' }),
    auth_port: int('Default 1812.', PORT),
    auth_secret: field(text(LINE), { secret: true }),
    acct_server: field(list(IP, { singleAsOption: true }), { description: 'RADIUS accounting.' }),
    acct_port: int('Default 1813.', PORT),
    acct_secret: field(text(LINE), { secret: true }),
    acct_interval: int('Interim interval, s.', { minimum: 1, maximum: 2147483647 }),
    nasid: field(text(LINE), {}),
    ownip: field(text(IP), { description: 'NAS-IP-Address.' }),
    eap_type: field(choice(['tls', 'peap', 'ttls', 'fast']), { description: 'EAP method.' }),
    auth: field(choice(['PAP', 'CHAP', 'MSCHAP', 'MSCHAPV2', 'EAP-GTC', 'EAP-MD5', 'EAP-MSCHAPV2']), { description: 'Phase 2; PAP, CHAP, MSCHAP for ttls. Default MSCHAPV2.' }),
    identity: field(text(LINE), {}),
    anonymous_identity: field(text(LINE), { description: 'Outer identity.' }),
    password: field(text(LINE), { secret: true }),
    ca_cert: field(text(LINE), { description: 'CA file.' }),
    client_cert: field(text(LINE), { description: 'Certificate file.' }),
    priv_key: field(text(LINE), { description: 'Key file.' }),
    priv_key_pwd: field(text(LINE), { secret: true, description: 'Key password.' }),
    subject_match: field(text(LINE), { description: 'Subject substring.' }),
    altsubject_match: field(list(WORD), { description: 'altSubjectName, any.' }),
    domain_match: field(list(WORD), { description: 'Domain, any.' }),
    dtim_period: int('Beacons per DTIM. Default 2.', { minimum: 1, maximum: 255 }),
    max_inactivity: int('Idle seconds before a client is polled; 0: 300.', INT),
    skip_inactivity_poll: off('Drop idle clients unpolled.'),
    short_preamble: on('Short preamble. Default true.'),
    disassoc_low_ack: on('Drop clients that stop acknowledging. Default true.'),
    uapsd: on('U-APSD power save. Default true.'),
    utf8_ssid: on('SSID flagged UTF-8. Default true.'),
    wnm_sleep_mode: off('WNM sleep mode.'),
    wnm_sleep_mode_no_keys: off('No key updates in WNM sleep.'),
    proxy_arp: off('Answer ARP and ND for clients.'),
    multicast_to_unicast_all: off('Send multicast as unicast.'),
    multicast_to_unicast: field(boolean(UCI_BLOB_BOOLEAN), { description: 'Bridge port multicast to unicast. Default: the bridge\'s.' }),
    bridge_isolate: off('Isolate the bridge port.'),
    bss_load_update_period: int('BSS Load period, beacons. Default 60.', { minimum: 0, maximum: 100 }),
    chan_util_avg_period: int('Channel load average, beacons. Default 600.', INT),
    rsn_preauth: off('RSN preauthentication on the bridge.'),
    wpa_group_rekey: int('GTK rekey, s. Default 600.', INT),
    wpa_pair_rekey: int('PTK rekey, s; 0 never. Default 0.', INT),
    wpa_master_rekey: int('GMK rekey, s. Default 86400.', INT),
    wpa_strict_rekey: off('New GTK when a client leaves.'),
    wpa_disable_eapol_key_retries: off('No EAPOL-Key retries (KRACK).'),
    eap_reauth_period: int('EAP reauthentication, s; 0 never. Default 3600.', INT),
    dae_client: field(text(IP), { description: 'RFC 5176 DAE client.' }),
    dae_port: int('Default 3799.', PORT),
    dae_secret: field(text(LINE), { secret: true }),
    dynamic_vlan: int('RADIUS VLANs: 0 off, 1 optional, 2 required.', { minimum: 0, maximum: 2 }),
    vlan_naming: int('0: vlanN, 1: ifname.N. Default 1.', { minimum: 0, maximum: 1 }),
    vlan_tagged_interface: field(text(IFNAME), { description: 'Tagged VLAN uplink.' }),
    vlan_bridge: field(text(IFNAME), { description: 'Per-VLAN bridge name prefix.' }),
    multi_ap: int('EasyMesh: 1 backhaul, 2 fronthaul, 3 both (sta: 1). Default 0.', { minimum: 0, maximum: 3 }),
    wds_bridge: field(text(IFNAME), { description: 'Bridge of the 4-address clients.' }),
    start_disabled: int('1: not started until told. Default 0.', { minimum: 0, maximum: 1 }),
    ppsk: off('Per-client keys from RADIUS.'),
    reassociation_deadline: int('TUs. Default 1000.', INT),
    r0kh: field(list(KH('[^,\\s]{1,48}')), { description: 'MAC,NAS-ID,key. Default: from the key.' }),
    r1kh: field(list(KH('[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}')), { description: 'MAC,R1KH-ID,key. Default: from the key.' }),
    r0_key_lifetime: int('Minutes. Default 10000.', { minimum: 0, maximum: 35791394 }),
    pmk_r1_push: off('Push PMK-R1s.'),
    mesh_retry_timeout: int('Peer link retry, TUs. Default 100.', { minimum: 1, maximum: 255 }),
    mesh_confirm_timeout: int('Peer link confirm, TUs. Default 100.', { minimum: 1, maximum: 255 }),
    mesh_holding_timeout: int('Peer link holding, TUs. Default 100.', { minimum: 1, maximum: 255 }),
    mesh_max_peer_links: int('Default 255.', { minimum: 0, maximum: 255 }),
    mesh_max_retries: int('Peer link open retries. Default 3.', { minimum: 0, maximum: 16 }),
    mesh_ttl: int('Default 31.', { minimum: 1, maximum: 255 }),
    mesh_element_ttl: int('Default 31.', { minimum: 1, maximum: 255 }),
    mesh_auto_open_plinks: on('Open peer links. Default true.'),
    mesh_hwmp_max_preq_retries: int('Default 4.', { minimum: 0, maximum: 255 }),
    mesh_path_refresh_time: int('ms. Default 1000.', INT),
    mesh_min_discovery_timeout: int('ms. Default 100.', U16),
    mesh_hwmp_active_path_timeout: int('TUs. Default 5000.', INT),
    mesh_hwmp_preq_min_interval: int('TUs. Default 10.', U16),
    mesh_hwmp_net_diameter_traversal_time: int('TUs. Default 50.', U16),
    mesh_hwmp_rootmode: int('0 not root, 2-4 root modes. Default 0.', { minimum: 0, maximum: 4 }),
    mesh_hwmp_rann_interval: int('TUs. Default 5000.', U16),
    mesh_gate_announcements: int('1: announce a gate. Default 0.', { minimum: 0, maximum: 1 }),
    mesh_sync_offset_max_neighor: int('The script\'s spelling. Default 50.', { minimum: 1, maximum: 255 }),
    mesh_rssi_threshold: int('dBm to peer; 0 any. Default 0.', { minimum: -255, maximum: 0 }),
    mesh_hwmp_active_path_to_root_timeout: int('TUs. Default 6000.', INT),
    mesh_hwmp_root_interval: int('TUs. Default 5000.', U16),
    mesh_hwmp_confirmation_interval: int('TUs. Default 2000.', U16),
    mesh_awake_window: int('TUs. Default 10.', { minimum: 0, maximum: 65535 }),
    mesh_plink_timeout: int('Idle peer timeout, s. Default 1800.', INT),
    mesh_nolearn: off('No multi-hop path learning.'),
    mesh_power_mode: int('1 active, 2 light, 3 deep sleep. Default 1.', { minimum: 1, maximum: 3 }),
    key1: field(text(LINE), { secret: true }),
    key2: field(text(LINE), { secret: true }),
    key3: field(text(LINE), { secret: true }),
    key4: field(text(LINE), { secret: true }),
  },
  references: [
    { field: 'device', package: 'wireless', type: 'wifi-device' },
    { field: 'network', package: 'network', type: 'interface' },
  ],
  // Not the status's `config`, `vlans` or `stations`: netifd echoes the options there, keys included.
  runtime: {
    object: 'network.wireless',
    method: 'status',
    items: ['*', 'interfaces'],
    key: 'section',
    fields: ['ifname'],
    each: [
      { object: 'iwinfo', method: 'info', message: { device: 'ifname' }, fields: { bssid: 'bssid', channel: 'channel', frequency: 'frequency', signal: 'signal', noise: 'noise', txpower_actual: 'txpower' } },
      { object: 'iwinfo', method: 'assoclist', message: { device: 'ifname' }, fields: { assoclist_count: 'results.length' } },
    ],
  },
  rules,
  checks: [
    modeCheck(),
    '`device` names a radio (a kept `list device` several, without `ifname`); `ifname` unique; `ssid`, `mesh_id` at most 32 bytes; ap, adhoc need `ssid`, sta it or `bssid`, mesh it or `mesh_id`.',
    '`key`: psk*, sae* need it (or an ap wifi-station keys): 8-63 bytes, psk* 64 hex digits, sta sae and mesh any; wpa* ap without `auth_secret` only; else none.',
    'wpa*: ap needs `auth_server`, sta `eap_type`; tls `client_cert`, `priv_key`, no `auth`, `password`, others none and no `priv_key_pwd`; sta fields need wpa*.',
    '`auth_server` for `auth_port`, `auth_secret`, `ownip`, `ppsk`; `acct_server` for `acct_port`, `acct_secret`; `ieee80211r` for `mobility_domain`, `ft_over_ds`, `ft_psk_generate_local`, `reassociation_deadline`, `r0kh`, `r1kh`, `r0_key_lifetime`, `pmk_r1_push`; `macfilter` for `maclist`; `dynamic_vlan` for `vlan_naming`, `vlan_tagged_interface`, `vlan_bridge`; `dae_client`, `dae_secret` together, `dae_port` with them; `wnm_sleep_mode` for `wnm_sleep_mode_no_keys`; `wds` for `wds_bridge`.',
    '`ieee80211r` not with none, psk, wpa, owe; `ieee80211w`, `rsn_preauth` not with none, psk, wpa. wep* only as stored; `key1`, `key2`, `key3`, `key4` never written.',
    '`wpa_group_rekey`, `wpa_pair_rekey`, `wpa_master_rekey`, `wpa_strict_rekey`, `wpa_disable_eapol_key_retries` not with none; `eap_reauth_period`, `dae_client`, `dae_port`, `dae_secret` wpa* only; `ppsk` psk*, sae* only (no `key` needed); `dynamic_vlan` psk*, sae*, wpa* or `macfilter` allow; `r0kh`, `r1kh`, `r0_key_lifetime`, `pmk_r1_push` not with `ft_psk_generate_local` (psk* default); sta `multi_ap` 0 or 1.',
    '6 GHz ap: sae, owe, wpa2, wpa3*, no TKIP, `ieee80211w` 2; HT or later: not TKIP alone.',
  ],
};

export default definition;
