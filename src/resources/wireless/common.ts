// What the wireless resources share, as OpenWrt 24.10 reads the `wireless` package: netifd
// (7901e66: config.c, wireless.c) keeps the options each driver script declares, converted by
// uci's blob.c (a BOOL takes only 1/true and 0/false, an INT32 is strtol(text, 0), an undeclared
// option is dropped), and wifi-scripts 24.10 (netifd-wireless.sh, hostapd.sh, mac80211.sh) write
// them into hostapd and wpa_supplicant files line by line.

import type { FieldError } from '../../http/errors.js';
import { conflict, given, optionText, outOfRange, required, utf8Length } from '../checks.js';
import { boolean, field, integer, UCI_BLOB_BOOLEAN } from '../codecs.js';
import type { Field, JsonObject, RuleContext } from '../model.js';

/** A BOOL whose default is false: a spelling blob.c drops (`yes`) is false too. */
/*#__NO_SIDE_EFFECTS__*/
export function off(description: string): Field {
  return field(boolean({ truthy: UCI_BLOB_BOOLEAN.truthy }), { description });
}

/** A BOOL whose default is true: a spelling blob.c drops (`no`) is true too. */
/*#__NO_SIDE_EFFECTS__*/
export function on(description: string): Field {
  return field(boolean({ ...UCI_BLOB_BOOLEAN, otherwise: true }), { description });
}

/** An INT32 option, read as strtol(text, 0) reads it. */
/*#__NO_SIDE_EFFECTS__*/
export function int(description: string, range: { minimum: number; maximum: number }): Field {
  return field(integer(range, { c: true }), { description });
}

/**
 * An encryption's base as hostapd.sh reads it (wireless_vif_parse_encryption): the `+cipher` suffix
 * dropped, and its `psk3*` spellings are `sae*`.
 */
export const baseOf = (encryption: string) => encryption.split('+')[0].replace(/^psk3/, 'sae');

/** The enterprise (802.1X) bases. */
const ENTERPRISE = /^wpa(2|3|-mixed|3-mixed|3-192)?$/;

/** ieee80211w's default by base (hostapd_set_bss_options): 2 for sae, owe, wpa3 and wpa3-192, 1 for sae-mixed and wpa3-mixed. */
const mfpDefault = (base: string) => (/^(sae|owe|wpa3|wpa3-192)$/.test(base) ? 2 : /^(sae|wpa3)-mixed$/.test(base) ? 1 : 0);

/**
 * What hostapd refuses of an access point on a radio (hostapd_config_check_bss_6g): on 6 GHz a
 * PSK or pre-RSN key management, TKIP, or ieee80211w other than 2; elsewhere TKIP alone turns an HT
 * mode off. The field it is about and why, or undefined.
 */
export function radioConflict(band: string | undefined, htmode: string | undefined, encryption: string, ieee80211w: number | undefined): [string, string] | undefined {
  const base = baseOf(encryption);
  const cipher = encryption.split('+').slice(1).join('+');
  if (band === '6g') {
    if (!/^(sae|owe|wpa2|wpa3(-mixed|-192)?)$/.test(base) || cipher.includes('tkip')) return ['encryption', '6 GHz takes sae, owe, wpa2, wpa3* without TKIP'];
    return (ieee80211w ?? mfpDefault(base)) !== 2 ? ['ieee80211w', '6 GHz requires ieee80211w 2'] : undefined;
  }
  return /^(HT|VHT|HE|EHT)/.test(htmode ?? '') && cipher === 'tkip' ? ['encryption', `hostapd turns ${htmode} off for TKIP alone`] : undefined;
}

// The helpers of wireless/interfaces' rules.

/** The sta's EAP fields (wpa_supplicant_add_network). */
const EAP = ['eap_type', 'auth', 'identity', 'anonymous_identity', 'password', 'ca_cert', 'client_cert', 'priv_key', 'priv_key_pwd', 'subject_match', 'altsubject_match', 'domain_match'];
/** Secrets a body omits that the section keeps. */
const SECRETS = ['key', 'auth_secret', 'dae_secret'];

/** The section's option before this write. */
const stored = (context: RuleContext, option: string) => context.read('wireless').sections.find((section) => section.name === context.id)?.options.get(option);

/** The radios the section will name: the body's one, or the `list device` of several its null keeps. */
function radiosOf(body: JsonObject, context: RuleContext): string[] {
  if (typeof body.device === 'string') return [body.device];
  const kept = body.device === undefined || body.device === null ? stored(context, 'device') : undefined;
  return Array.isArray(kept) ? kept : [];
}

/** Whether the section will hold a field: given, or a secret the body omits and the section keeps. */
const holds = (body: JsonObject, context: RuleContext, name: string) =>
  body[name] === undefined ? SECRETS.includes(name) && stored(context, name) !== undefined : given(body, name) && body[name] !== false;

export function keyErrors(body: JsonObject, context: RuleContext, base: string, mode: unknown): FieldError[] {
  const key = body.key;
  if (base.startsWith('wep')) return [];
  // hostapd.sh's legacy fallback: an enterprise ap's RADIUS secret; wpa_supplicant ignores it.
  if (ENTERPRISE.test(base)) return typeof key === 'string' && (mode !== 'ap' || holds(body, context, 'auth_secret')) ? [conflict('key', mode === 'ap' ? 'auth_secret replaces key' : `${base} uses no key`)] : [];
  if (!/^(psk|sae)/.test(base)) return typeof key === 'string' ? [conflict('key', `${base} uses no key`)] : [];
  if (typeof key !== 'string') {
    // hostapd_set_psk: an access point may take its keys from wifi-station sections instead.
    const stations = context.read('wireless').sections.some((section) => section.type === 'wifi-station');
    return (key === undefined && stored(context, 'key') !== undefined) || (mode === 'ap' && (stations || body.ppsk === true)) ? [] : [required('key', `${base} needs key`)];
  }
  const length = utf8Length(key);
  if ((mode === 'sta' && base === 'sae') || mode === 'mesh') return length ? [] : [outOfRange('key', 'empty SAE password')];
  if (base.startsWith('psk') && /^[0-9A-Fa-f]{64}$/.test(key)) return [];
  return length < 8 || length > 63 ? [outOfRange('key', 'key is 8-63 bytes or 64 hex digits')] : [];
}

/** RADIUS on an ap, EAP on a sta, as hostapd_set_bss_options and wpa_supplicant_add_network read them. */
export function enterpriseErrors(body: JsonObject, base: string, mode: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const wpa = ENTERPRISE.test(base);
  if (mode === 'ap' && wpa && !given(body, 'auth_server')) errors.push(required('auth_server', `${base} needs auth_server`));
  if (!wpa) for (const name of EAP) if (given(body, name)) errors.push(conflict(name, `${base} has no EAP`));
  if (mode !== 'sta' || !wpa) return errors;
  if (base === 'wpa3-mixed') errors.push(conflict('encryption', 'no wpa3-mixed sta'));
  const eap = body.eap_type;
  if (!eap) errors.push(required('eap_type', `${base} needs eap_type`));
  if (!eap) return errors;
  const tls = eap === 'tls';
  // tls reads its certificate and key (and writes them even when unset), the tunnels their phase 2 and password.
  for (const name of ['client_cert', 'priv_key', 'priv_key_pwd', 'auth', 'password']) if (tls !== name.includes('_') && given(body, name)) errors.push(conflict(name, `eap_type ${eap} ignores ${name}`));
  if (tls) for (const name of ['client_cert', 'priv_key']) if (!given(body, name)) errors.push(required(name, `tls needs ${name}`));
  return errors;
}

export function radioErrors(body: JsonObject, context: RuleContext, encryption: string): FieldError[] {
  if (body.mode !== 'ap') return [];
  return radiosOf(body, context).flatMap((name) => {
    const radio = context.read('wireless').sections.find((section) => section.type === 'wifi-device' && section.name === name);
    const found = radio && radioConflict(optionText(radio.options.get('band')), optionText(radio.options.get('htmode')), encryption, given(body, 'ieee80211w') ? (body.ieee80211w as number) : undefined);
    return found ? [conflict(...found)] : [];
  });
}

/** The modes whose setup reads a field (mac80211_prepare_vif, hostapd_set_bss_options, wpa_supplicant_add_network). */
export const MODES_OF: Record<string, string> = {};
for (const [modes, names] of [
  ['sta adhoc', 'bssid'],
  ['ap sta', 'wds ieee80211r ieee80211w multi_ap'],
  ['mesh', 'mesh_id mesh_fwding mesh_retry_timeout mesh_confirm_timeout mesh_holding_timeout mesh_max_peer_links mesh_max_retries mesh_ttl mesh_element_ttl mesh_auto_open_plinks mesh_hwmp_max_preq_retries mesh_path_refresh_time mesh_min_discovery_timeout mesh_hwmp_active_path_timeout mesh_hwmp_preq_min_interval mesh_hwmp_net_diameter_traversal_time mesh_hwmp_rootmode mesh_hwmp_rann_interval mesh_gate_announcements mesh_sync_offset_max_neighor mesh_rssi_threshold mesh_hwmp_active_path_to_root_timeout mesh_hwmp_root_interval mesh_hwmp_confirmation_interval mesh_awake_window mesh_plink_timeout mesh_nolearn mesh_power_mode'],
  ['ap', 'hidden isolate wmm maxassoc macfilter maclist ieee80211k bss_transition mobility_domain ft_over_ds ft_psk_generate_local auth_server auth_port auth_secret acct_server acct_port acct_secret acct_interval nasid ownip proxy_arp dtim_period max_inactivity skip_inactivity_poll short_preamble disassoc_low_ack uapsd utf8_ssid wnm_sleep_mode wnm_sleep_mode_no_keys multicast_to_unicast_all bss_load_update_period chan_util_avg_period rsn_preauth wpa_group_rekey wpa_pair_rekey wpa_master_rekey wpa_strict_rekey wpa_disable_eapol_key_retries eap_reauth_period dae_client dae_port dae_secret dynamic_vlan vlan_naming vlan_tagged_interface vlan_bridge wds_bridge start_disabled ppsk reassociation_deadline r0kh r1kh r0_key_lifetime pmk_r1_push'],
  ['sta', EAP.join(' ')],
]) for (const name of names.split(' ')) MODES_OF[name] = modes;
/** A field the script reads only with another (append_auth_server, append_acct_server, the DAE, VLAN, WNM, WDS and 802.11r lines). */
const NEEDS = 'mobility_domain:ieee80211r ft_over_ds:ieee80211r ft_psk_generate_local:ieee80211r reassociation_deadline:ieee80211r r0kh:ieee80211r r1kh:ieee80211r r0_key_lifetime:ieee80211r pmk_r1_push:ieee80211r maclist:macfilter auth_port:auth_server auth_secret:auth_server ownip:auth_server ppsk:auth_server acct_port:acct_server acct_secret:acct_server dae_port:dae_client dae_secret:dae_client dae_client:dae_secret vlan_naming:dynamic_vlan vlan_tagged_interface:dynamic_vlan vlan_bridge:dynamic_vlan wnm_sleep_mode_no_keys:wnm_sleep_mode wds_bridge:wds';

/** The encryptions a mode sets up as named: monitor none, mesh turns any other into SAE, IBSS RSN is WPA2-PSK. */
const ENCRYPTIONS_OF: Record<string, string> = { monitor: 'none', mesh: 'none sae', adhoc: 'none psk2' };

/** What a field is read with: its modes, the field it needs, the bases 802.11r and 802.11w work with. */
export function bindingErrors(body: JsonObject, context: RuleContext, encryption: string, mode: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const base = baseOf(encryption);
  for (const name in MODES_OF) {
    if (given(body, name) && body[name] !== false && !MODES_OF[name].split(' ').includes(mode as string)) errors.push(conflict(name, `${name} is for mode ${MODES_OF[name]}`));
  }
  const allowed = ENCRYPTIONS_OF[mode as string];
  if (allowed && !allowed.split(' ').includes(mode === 'mesh' ? encryption : base)) errors.push(conflict('encryption', `mode ${mode} does not set up ${encryption}`));
  if (body.ieee80211r === true && !/^(psk2|psk-mixed|sae|wpa2|wpa-mixed|wpa3)/.test(base)) errors.push(conflict('ieee80211r', `${base} has no fast transition`));
  for (const [name, switched] of NEEDS.split(' ').map((pair) => pair.split(':'))) {
    if (given(body, name) && !holds(body, context, switched)) errors.push(conflict(name, `${name} needs ${switched}`));
  }
  for (const name of ['ieee80211w', 'rsn_preauth']) if (given(body, name) && body[name] !== false && /^(none|psk|wpa)$/.test(base)) errors.push(conflict(name, `${base} is not RSN`));
  return errors;
}

/** The options hostapd_set_bss_options reads by key management: WPA's with any, RADIUS DAE and reauthentication with 802.1X, PPSK with a PSK, VLANs where a client can be given one. */
export function securityErrors(body: JsonObject, base: string, mode: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const set = (name: string) => given(body, name) && body[name] !== false;
  for (const name of ['wpa_group_rekey', 'wpa_pair_rekey', 'wpa_master_rekey', 'wpa_strict_rekey', 'wpa_disable_eapol_key_retries']) if (set(name) && base === 'none') errors.push(conflict(name, `${name} needs WPA`));
  for (const name of ['eap_reauth_period', 'dae_client', 'dae_port', 'dae_secret']) if (set(name) && !ENTERPRISE.test(base)) errors.push(conflict(name, `${name} needs wpa*`));
  if (set('ppsk') && !/^(psk|sae)/.test(base)) errors.push(conflict('ppsk', 'ppsk needs psk* or sae*'));
  if (set('dynamic_vlan') && !/^(psk|sae|wpa)/.test(base) && body.macfilter !== 'allow') errors.push(conflict('dynamic_vlan', `${base} gives no VLAN`));
  // ft_psk_generate_local (psk*'s default) derives the keys itself and reads no key holders.
  const local = body.ft_psk_generate_local ?? base.startsWith('psk');
  for (const name of ['r0kh', 'r1kh', 'r0_key_lifetime', 'pmk_r1_push']) if (set(name) && local) errors.push(conflict(name, `ft_psk_generate_local ignores ${name}`));
  if (mode === 'sta' && (body.multi_ap as number) > 1) errors.push(conflict('multi_ap', 'sta multi_ap is 0 or 1'));
  return errors;
}

/** The radios, the interface name, and WEP, which no 24.10 build applies: a stored one may stay as it is, nothing may set one. */
export function sectionErrors(body: JsonObject, context: RuleContext, encryption: string): FieldError[] {
  const errors: FieldError[] = [];
  const wep = 'built without WEP';
  if (baseOf(encryption).startsWith('wep') && encryption !== stored(context, 'encryption')) errors.push(conflict('encryption', wep));
  for (const name of ['key1', 'key2', 'key3', 'key4']) if (given(body, name)) errors.push(conflict(name, wep));
  const devices = radiosOf(body, context);
  if (!devices.length && (body.device ?? null) === null) errors.push(required('device', 'no radio'));
  const ifname = body.ifname;
  const others = context.read('wireless').sections.filter((section) => section.type === 'wifi-iface' && section.name !== context.id);
  if (typeof ifname === 'string' && (devices.length > 1 || others.some((section) => section.options.get('ifname') === ifname))) {
    errors.push(conflict('ifname', 'ifname is taken'));
  }
  return errors;
}
