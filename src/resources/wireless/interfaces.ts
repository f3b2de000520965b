// Wireless networks: `wifi-iface` sections, as OpenWrt 24.10 reads them. netifd (7901e66 config.c
// config_init_wireless) sets one up on each radio `device` names: an option names one (its whole
// text, unsplit), a `list` several. `device` is therefore always an array, written as an option when
// it holds one radio, so the stock option and a list of radios round-trip byte for byte (a one-item
// list comes back as the option netifd reads the same). mac80211.sh sets up ap
// (hostapd.sh hostapd_set_bss_options), sta, adhoc and mesh (wpa_supplicant_add_network) and monitor.
// `encryption` is parsed by globs (netifd-wireless.sh wireless_vif_parse_encryption): its bases and
// `+cipher` suffixes are taken, `psk3` and `psk3-mixed` as the aliases of sae and sae-mixed they are
// there; other text the globs happen to match (`wpa2-psk`, `8021x`, `osen`) reads as stored and a
// PUT refuses it. WEP: the 24.10 hostapd and wpad builds leave CONFIG_WEP out (CONFIG_WPA_ENABLE_WEP
// defaults to n), so no write sets a wep* encryption or key1-key4; a stored one reads as stored, and
// a write keeping it unchanged keeps the WEP keys (write-only), so the section still round-trips.
// An enterprise ap's `key` is hostapd.sh's legacy RADIUS secret, used while `auth_secret` is unset.
// A phase 2 spelled `auth=...` reads as null and a PUT sending the null keeps it. Not modelled (a
// PUT removes them, a PATCH keeps them): the legacy server/port, dae_* (RFC 5176), dynamic_vlan and
// vlan_*, eap_server, the *2 options of an inner EAP-TLS, ca_cert_usesystem, domain_suffix_match,
// radius_*_req_attr, ppsk, r0kh/r1kh, reassociation_deadline, dtim_period, max_inactivity, uapsd,
// utf8_ssid, short_preamble, disassoc_low_ack, wnm_sleep_mode, proxy_arp, multicast_to_unicast_all,
// multi_ap, wds_bridge, bridge_isolate, the mesh_* tunables, FILS, WPS, Hotspot 2.0, and wifi-vlan
// and wifi-station sections. Nothing checks which wpad variant is installed: WPA-Enterprise needs a
// full one (the basic builds have no EAP or RADIUS), mesh one with 802.11s. A radio's change of band
// or htmode is checked against its access points (wireless/devices). The rules (wireless/common.ts)
// find a stored secret in the staged section; a merge PATCH of `key: null` reaches them as null.

import type { FieldError } from '../../http/errors.js';
import { IPV4, IPV6 } from '../addresses.js';
import { boolean, choice, field, list, text, UCI_BLOB_BOOLEAN } from '../codecs.js';
import { given, outOfRange, required, utf8Length } from '../checks.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { baseOf, bindingErrors, enterpriseErrors, int, keyErrors, MODES_OF, off, on, radioErrors, sectionErrors } from './common.js';

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
  return [...errors, ...sectionErrors(body, context, encryption), ...bindingErrors(body, context, encryption, mode), ...keyErrors(body, context, base, mode), ...enterpriseErrors(body, base, mode), ...radioErrors(body, context, encryption)];
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
    device: field(list(SECTION_NAME, { singleAsOption: true, whole: true }), { required: true, description: 'Radios, usually one.' }),
    network: field(list(SECTION_NAME, { singleAsOption: true }), { description: 'network/interfaces ids it joins.' }),
    mode: field(choice(['ap', 'sta', 'adhoc', 'mesh', 'monitor']), { required: true, description: 'sta: client; mesh: 802.11s.' }),
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
    ifname: field(text({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', maxLength: 15 }), { description: 'Default like `phy0-ap0`.' }),
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
  runtime: { object: 'network.wireless', method: 'status', items: ['*', 'interfaces'], key: 'section', fields: ['ifname'] },
  rules,
  checks: [
    modeCheck(),
    '`device` names a radio, several without `ifname`; `ifname` unique; `ssid`, `mesh_id` at most 32 bytes; ap, adhoc need `ssid`, sta it or `bssid`, mesh it or `mesh_id`.',
    '`key`: psk*, sae* need it (or an ap wifi-station keys): 8-63 bytes, psk* 64 hex digits, sta sae and mesh any; wpa* ap without `auth_secret` only; else none.',
    'wpa*: ap needs `auth_server`, sta `eap_type`; tls `client_cert`, `priv_key`, no `auth`, `password`, others none and no `priv_key_pwd`; sta fields need wpa*.',
    '`auth_server` for `auth_port`, `auth_secret`, `ownip`; `acct_server` for `acct_port`, `acct_secret`; `ieee80211r` for `mobility_domain`, `ft_over_ds`, `ft_psk_generate_local`; `macfilter` for `maclist`.',
    '`ieee80211r` not with none, psk, wpa, owe; `ieee80211w` not with none, psk, wpa. wep* only as stored; `key1`, `key2`, `key3`, `key4` never written.',
    '6 GHz ap: sae, owe, wpa2, wpa3*, no TKIP, `ieee80211w` 2; HT or later: not TKIP alone.',
  ],
};

export default definition;
