// Wireless networks: `wifi-iface` sections. netifd (config.c config_init_wireless) creates one on
// the radio `device` names unless `disabled`; mac80211.sh sets up ap (hostapd), sta, adhoc and mesh
// (wpa_supplicant) and monitor. Personal security only: OpenWrt builds hostapd without WEP, and
// WPA-Enterprise (wpa*, with RADIUS and EAP options) is not modelled, so such an `encryption` reads
// as stored and a PUT refuses it. Not modelled either (a PUT removes them, a PATCH keeps
// them): ppsk, nasid, r0kh/r1kh, reassociation_deadline, dtim_period, max_inactivity, uapsd,
// utf8_ssid, short_preamble, disassoc_low_ack, wnm_sleep_mode, proxy_arp, multicast_to_unicast_all,
// multi_ap, wds_bridge, bridge_isolate, the mesh_* tunables, WPS, Hotspot 2.0, and wifi-vlan and
// wifi-station sections. A `list device` (one interface on several radios) reads as null and must
// name one radio on a PUT. Nothing checks which wpad variant is installed: mesh needs one with
// 802.11s, which the default wpad-basic-mbedtls lacks. A radio's change of band or htmode is checked
// against its access points (wireless/devices). The rules find a
// stored key in the staged section; a merge PATCH of `key: null` reaches them as null.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, list, text, UCI_BLOB_BOOLEAN } from '../codecs.js';
import { conflict, given, optionText, outOfRange, required } from '../checks.js';
import type { JsonObject, ResourceDefinition, RuleContext, Rules } from '../model.js';
import { int, off, on, radioConflict } from './common.js';

const LINE = { pattern: '^[^\\x00-\\x1f\\x7f]+$' };
/** A UCI section name, as `device` and `network` name wifi-device and interface sections. */
const SECTION_NAME = { pattern: '^[A-Za-z0-9_]+$' };
/** hostapd's hwaddr_aton: six colon-separated two-digit hex bytes. */
const MAC = { pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$' };

/** The modes whose setup reads a field (mac80211_prepare_vif, hostapd_set_bss_options, wpa_supplicant_add_network). */
const MODES_OF: Record<string, string> = {
  bssid: 'sta adhoc',
  wds: 'ap sta',
  ieee80211r: 'ap sta',
  ieee80211w: 'ap sta',
  mesh_id: 'mesh',
  mesh_fwding: 'mesh',
};
for (const name of ['hidden', 'isolate', 'wmm', 'maxassoc', 'macfilter', 'maclist', 'ieee80211k', 'bss_transition', 'mobility_domain', 'ft_over_ds', 'ft_psk_generate_local']) MODES_OF[name] = 'ap';

/*#__NO_SIDE_EFFECTS__*/
function modeCheck(): string {
  const groups: Record<string, string[]> = {};
  for (const name in MODES_OF) (groups[MODES_OF[name]] ??= []).push(`\`${name}\``);
  const fields = Object.entries(groups).map(([modes, names]) => `${modes.replace(' ', ' or ')}: ${names.join(', ')}`);
  return `Only with \`mode\` ${fields.join('; ')}. \`encryption\` with monitor is none, mesh none or sae, adhoc none or psk2.`;
}

/** The encryptions a mode sets up as named: monitor none, mesh turns any other into SAE, IBSS RSN is WPA2-PSK. */
const ENCRYPTIONS_OF: Record<string, string> = { monitor: 'none', mesh: 'none sae', adhoc: 'none psk2' };

/** UTF-8 bytes: hostapd and the shell's `${#key}` count bytes. */
function bytes(value: string): number {
  let count = 0;
  for (const character of value) {
    const code = character.codePointAt(0)!;
    count += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return count;
}

/** Whether the section held the option before this write. */
const stored = (context: RuleContext, option: string) => context.read('wireless').sections.find((section) => section.name === context.id)?.options.has(option);

function keyErrors(body: JsonObject, context: RuleContext, base: string, mode: unknown): FieldError[] {
  const key = body.key;
  if (!/^(psk|sae)/.test(base)) return typeof key === 'string' ? [conflict('key', `encryption ${base} uses no key`)] : [];
  if (typeof key !== 'string') {
    // hostapd_set_psk: an access point may take its keys from wifi-station sections instead.
    const stations = context.read('wireless').sections.some((section) => section.type === 'wifi-station');
    return (key === undefined && stored(context, 'key')) || (mode === 'ap' && stations) ? [] : [required('key', `${base} needs key`)];
  }
  const length = bytes(key);
  if ((mode === 'sta' && base === 'sae') || mode === 'mesh') return length ? [] : [outOfRange('key', 'the SAE password is empty')];
  if (base.startsWith('psk') && /^[0-9A-Fa-f]{64}$/.test(key)) return [];
  return length < 8 || length > 63 ? [outOfRange('key', 'the passphrase is 8-63 bytes, or 64 hex digits for psk*')] : [];
}

function radioErrors(body: JsonObject, context: RuleContext, encryption: string): FieldError[] {
  const radio = context.read('wireless').sections.find((section) => section.type === 'wifi-device' && section.name === body.device);
  if (!radio || body.mode !== 'ap') return [];
  const found = radioConflict(optionText(radio.options.get('band')), optionText(radio.options.get('htmode')), encryption, given(body, 'ieee80211w') ? (body.ieee80211w as number) : undefined);
  return found ? [conflict(...found)] : [];
}

export const rules: Rules = (body, context) => {
  const mode = body.mode;
  const errors: FieldError[] = [];
  for (const name in MODES_OF) {
    if (given(body, name) && body[name] !== false && !MODES_OF[name].split(' ').includes(mode as string)) {
      errors.push(conflict(name, `${name} applies only to mode ${MODES_OF[name]}`));
    }
  }
  const encryption = typeof body.encryption === 'string' ? body.encryption : 'none';
  const [base] = encryption.split('+');
  const allowed = ENCRYPTIONS_OF[mode as string];
  if (allowed && !allowed.split(' ').includes(mode === 'mesh' ? encryption : base)) errors.push(conflict('encryption', `mode ${mode} does not set up ${encryption}`));
  for (const name of ['ssid', 'mesh_id']) {
    const value = body[name];
    if (typeof value === 'string' && bytes(value) > 32) errors.push(outOfRange(name, `${name} is at most 32 bytes`));
  }
  if ((mode === 'ap' || mode === 'adhoc') && !given(body, 'ssid')) errors.push(required('ssid', `mode ${mode} needs ssid`));
  if (mode === 'sta' && !given(body, 'ssid') && !given(body, 'bssid')) errors.push(required('ssid', 'sta needs ssid or bssid'));
  if (mode === 'mesh' && !given(body, 'ssid') && !given(body, 'mesh_id')) errors.push(required('mesh_id', 'mesh needs mesh_id or ssid'));
  const ifname = body.ifname;
  const others = context.read('wireless').sections.filter((section) => section.type === 'wifi-iface' && section.name !== context.id);
  if (typeof ifname === 'string' && others.some((section) => section.options.get('ifname') === ifname)) {
    errors.push(conflict('ifname', `another wifi-iface is named ${ifname}`));
  }
  if (body.ieee80211r === true && !/^(psk2|psk-mixed|sae)/.test(base)) errors.push(conflict('ieee80211r', `fast transition needs psk2, psk-mixed, sae or sae-mixed`));
  for (const [name, switched] of [['mobility_domain', 'ieee80211r'], ['ft_over_ds', 'ieee80211r'], ['ft_psk_generate_local', 'ieee80211r'], ['maclist', 'macfilter']]) {
    if (given(body, name) && !body[switched]) errors.push(conflict(name, `${name} applies only with ${switched}`));
  }
  if (given(body, 'ieee80211w') && /^(none|psk)$/.test(base)) errors.push(conflict('ieee80211w', `${base} has no frame protection`));
  return [...errors, ...keyErrors(body, context, base, mode), ...radioErrors(body, context, encryption)];
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
    device: field(text(SECTION_NAME), { required: true, description: 'The radio (wireless/devices id).' }),
    network: field(list(SECTION_NAME, { singleAsOption: true }), { description: 'Network interfaces (network/interfaces ids) it joins.' }),
    mode: field(choice(['ap', 'sta', 'adhoc', 'mesh', 'monitor']), { required: true, description: '`ap`, `sta` (client), `adhoc`, `mesh` (802.11s) or `monitor`.' }),
    ssid: field(text(LINE), { description: 'Network name.' }),
    bssid: field(text(MAC), { description: 'sta: only this access point; adhoc: the cell.' }),
    encryption: field(text({ pattern: '^(none|(owe|psk|psk2|psk-mixed|sae|sae-mixed)(\\+(ccmp|aes|tkip|tkip\\+ccmp|tkip\\+aes|ccmp\\+tkip|aes\\+tkip|ccmp256|gcmp|gcmp256))?)$' }), {
      description: 'none (default), owe, psk, psk2, psk-mixed, sae or sae-mixed, optionally `+cipher` (`+ccmp`, `+tkip+ccmp`, ...).',
    }),
    key: field(text(LINE), { secret: true, description: 'Passphrase. Write-only.' }),
    hidden: off('Do not broadcast the SSID. Default false.'),
    isolate: off('Clients cannot reach each other. Default false.'),
    wmm: on('WMM, which 802.11n and later need. Default true.'),
    maxassoc: int('Most clients; 0: 2007. Default 2007.', { minimum: 0, maximum: 2007 }),
    macaddr: field(text({ pattern: '^(random|[0-9A-Fa-f][02468ACEace](:[0-9A-Fa-f]{2}){5})$' }), { description: 'Unicast MAC address or `random`. Default: derived.' }),
    ifname: field(text({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', maxLength: 15 }), { description: 'Device name. Default `<phy>-<mode><n>` (`phy0-ap0`).' }),
    wds: off('4-address mode (WDS). Default false.'),
    mesh_id: field(text(LINE), { description: 'Mesh ID. Default `ssid`.' }),
    mesh_fwding: on('Forward for other mesh nodes. Default true.'),
    ieee80211r: off('802.11r fast transition. Default false.'),
    mobility_domain: field(text({ pattern: '^[0-9A-Fa-f]{4}$' }), { description: '802.11r: 4 hex digits. Default: from the SSID.' }),
    ft_over_ds: off('802.11r: over the DS, not the air. Default false.'),
    ft_psk_generate_local: field(boolean(UCI_BLOB_BOOLEAN), { description: '802.11r: derive the keys locally. Default true with psk*.' }),
    ieee80211w: int('Frame protection: 0 off, 1 optional, 2 required. Default 2 for sae and owe, 1 for sae-mixed, else 0.', { minimum: 0, maximum: 2 }),
    ieee80211k: off('802.11k radio reports. Default false.'),
    bss_transition: off('802.11v BSS transition. Default false.'),
    macfilter: field(choice(['allow', 'deny']), { description: 'Allow only, or deny, `maclist`. Default: no filter.' }),
    maclist: field(list(MAC), { description: 'The addresses `macfilter` applies to.' }),
    disabled: off('Leave the interface out. Default false.'),
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
    '`ssid` and `mesh_id` are at most 32 bytes; ap and adhoc need `ssid`, sta `ssid` or `bssid`, mesh `mesh_id` or `ssid`; `ifname` is no other wifi-iface\'s.',
    '`key` only with psk* and sae*, which need it (an ap may have wifi-station keys instead): 8-63 bytes or, for psk*, 64 hex digits; any length for sta sae and mesh.',
    '`ieee80211r` needs psk2, psk-mixed, sae or sae-mixed, and `mobility_domain`, `ft_over_ds`, `ft_psk_generate_local` need it; `ieee80211w` not with none or psk; `maclist` needs `macfilter`.',
    'On a 6 GHz radio an ap\'s `encryption` is sae or owe without TKIP, its `ieee80211w` 2 if given; on an HT or later radio not TKIP alone.',
  ],
};

export default definition;
