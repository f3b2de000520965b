// Radios: `wifi-device` sections. netifd (config.c config_parse_wireless_device) keeps one only if
// `type` names a driver script, and runs mac80211.sh with the options drv_mac80211_init_device_config
// and hostapd_common_add_device_config declare. Without `band` the scripts take it from the legacy
// `hwmode` or else from the channel (netifd-wireless.sh _wdev_prepare_channel: above 14 5g, else,
// auto included, 2g); with it they ignore `hwmode`, which is therefore not offered. `channel` is a
// number or auto (`auto`, `0` or unset); any other text fails the setup (INVALID_CHANNEL). The PHY is
// found by `phy`, `path` or `macaddr` (find_phy); a radio naming none, as uapi's provider creates
// one, is kept but never set up ("Could not find PHY"). Not modelled (a PUT removes them, a PATCH
// keeps them): macaddr (a PUT then needs `path` or `phy`), hwmode, channels, country_ie, doth,
// require_mode, basic_rate, supported_rates, beacon_int, distance, frag, rts, ht_coex,
// acs_exclude_dfs, background_radar, log_level, macaddr_base, ifname_prefix, the HT/VHT/HE
// capability overrides, hostapd_options and the other rarely set options. An htmode alias (`NONE`)
// reads as null and is kept as it is by a PUT that sends the null back. `type` is mac80211 only:
// broadcom-wl's legacy script (/lib/wifi/broadcom.sh, run by `wifi reload_legacy`) reads other
// options (hwmode, no band, no PHY path) than the ones modelled here.

import type { FieldError } from '../../http/errors.js';
import { choice, field, integerOrName, text } from '../codecs.js';
import { conflict, optionText } from '../checks.js';
import type { JsonObject, ResourceDefinition, RuleContext, Rules } from '../model.js';
import { int, off, radioConflict } from './common.js';

const HTMODES = ['NOHT', 'HT20', 'HT40', 'HT40+', 'HT40-', 'VHT20', 'VHT40', 'VHT80', 'VHT160', 'HE20', 'HE40', 'HE80', 'HE160', 'EHT20', 'EHT40', 'EHT80', 'EHT160', 'EHT320'];

/**
 * The modes mac80211_hostapd_setup_base applies as named on a band: on 2g it never enables VHT and
 * caps HE and EHT at 40 MHz; on 5g it takes the HT40 side from the channel and has no HT for
 * EHT320; 6 GHz runs HE or EHT only. 60g takes any.
 */
const HTMODES_OF: Record<string, string> = {
  '2g': 'NOHT HT20 HT40 HT40+ HT40- HE20 HE40 EHT20 EHT40',
  '5g': 'NOHT HT20 HT40 VHT20 VHT40 VHT80 VHT160 HE20 HE40 HE80 HE160 EHT20 EHT40 EHT80 EHT160',
  '6g': 'HE20 HE40 HE80 HE160 EHT20 EHT40 EHT80 EHT160 EHT320',
};

/** Channel numbers of a band as wifi-detect.uc's freq_to_channel gives them. */
function inBand(channel: number, band: string): boolean {
  if (band === '2g') return channel <= 14;
  if (band === '5g') return channel <= 196;
  if (band === '6g') return channel === 2 || (channel <= 233 && channel % 4 === 1);
  return channel <= 6;
}

/** The radio's access points that hostapd would refuse on its new band or htmode. */
function accessPointErrors(body: JsonObject, context: RuleContext, band: string | undefined): FieldError[] {
  const htmode = typeof body.htmode === 'string' ? body.htmode : undefined;
  return context.read('wireless').sections.flatMap((section) => {
    const option = (name: string) => optionText(section.options.get(name));
    // netifd sets an interface up on each radio of a `list device`, and on the one an option names;
    // mac80211.sh skips one without a mode.
    if (section.type !== 'wifi-iface' || ![section.options.get('device') ?? []].flat().includes(context.id!) || option('mode') !== 'ap') return [];
    const ieee80211w = option('ieee80211w');
    const found = radioConflict(band, htmode, option('encryption') ?? 'none', ieee80211w === undefined ? undefined : parseInt(ieee80211w, 10));
    return found ? [conflict(band === '6g' ? 'band' : 'htmode', `wifi-iface ${section.name} (${option('encryption') ?? 'none'}): ${found[1]}`)] : [];
  });
}

/**
 * The band the scripts set the radio up on: `band`, else the channel's (`hwmode`, which a PATCH keeps
 * and a PUT removes, takes precedence there: with one stored and no `band`, undefined).
 */
function bandOf(body: JsonObject, context: RuleContext, channel: number): string | undefined {
  if (typeof body.band === 'string') return body.band;
  const stored = context.read('wireless').sections.find((section) => section.name === context.id);
  return stored?.options.has('hwmode') ? undefined : channel > 14 ? '5g' : '2g';
}

export const rules: Rules = (body: JsonObject, context: RuleContext) => {
  const channel = typeof body.channel === 'number' ? body.channel : 0;
  const band = bandOf(body, context, channel);
  const errors: FieldError[] = [...accessPointErrors(body, context, band)];
  const { htmode } = body;
  if (channel && band && !inBand(channel, band)) errors.push(conflict('channel', `channel ${channel} is not a ${band} channel`));
  const modes = HTMODES_OF[band as string];
  if (typeof htmode === 'string' && modes && !modes.split(' ').includes(htmode)) {
    errors.push(conflict('htmode', `${band}${typeof body.band === 'string' ? '' : ' (by the channel)'} does not apply ${htmode} as named; use one of ${modes}`));
  }
  // mac80211.sh knows the 160 MHz blocks of these channels only.
  if (band === '5g' && channel && /160$/.test(String(htmode)) && !((channel >= 36 && channel <= 64) || (channel >= 100 && channel <= 128) || (channel >= 149 && channel <= 177))) {
    errors.push(conflict('channel', `channel ${channel} has no 160 MHz block`));
  }
  return errors;
};

const definition: ResourceDefinition = {
  path: 'wireless/devices',
  package: 'wireless',
  type: 'wifi-device',
  kind: 'collection',
  idPrefix: 'p_',
  reload: ['network'],
  description: 'Radios (`wifi-device`); the first boot writes one per PHY, disabled.',
  members: {
    type: field(choice(['mac80211']), { required: true, description: '`mac80211`, the driver script of wifi-scripts.' }),
    path: field(text({ pattern: '^[^\\s]+$' }), { description: 'The PHY by device path, as the first boot writes it. Without it or `phy` the radio is not set up.' }),
    phy: field(text({ pattern: '^[A-Za-z0-9_.-]+$' }), { description: 'The PHY by name (`phy0`), tried before `path`.' }),
    radio: int('Radio of a multi-radio PHY.', { minimum: 0, maximum: 2147483647 }),
    band: field(choice(['2g', '5g', '6g', '60g']), { description: '`2g`, `5g`, `6g` or `60g`. Default: by the channel, 5g above 14, else 2g.' }),
    channel: field(integerOrName({ minimum: 0, maximum: 233 }, { enum: ['auto'] }), { description: 'Channel, or `auto` (also 0). Default auto.' }),
    htmode: field(choice(HTMODES), { description: 'Standard and width. Unset: 802.11a/b/g only.' }),
    country: field(text({ pattern: '^([A-Z]{2}|00)$' }), { description: 'Country code, or `00` (world).' }),
    txpower: int('Transmit power, dBm. Default: automatic.', { minimum: 0, maximum: 100 }),
    cell_density: int('Drop the lowest rates: 0 off (default), 1 normal, 2 high, 3 very high.', { minimum: 0, maximum: 3 }),
    legacy_rates: off('2g: allow 802.11b rates. Default false.'),
    noscan: off('Use 40 MHz without the neighbour scan. Default false.'),
    num_global_macaddr: int('Device MAC addresses the radio may use. Default 1.', { minimum: 1, maximum: 2147483647 }),
    disabled: off('Keep the radio and its interfaces down. Default false.'),
  },
  runtime: { object: 'network.wireless', method: 'status', items: ['*'], key: '*', fields: ['up', 'pending', 'autostart', 'disabled', 'retry_setup_failed'] },
  rules,
  checks: [
    '`channel` is one of `band` (without it: 2g 1-14, else 5g): 2g 1-14, 5g 1-196, 6g 2 or 1, 5, ... 233, 60g 1-6; with 160 MHz on 5g one of 36-64, 100-128, 149-177.',
    '`htmode` as the band applies it: 2g NOHT, HT20, HT40, HT40+, HT40-, HE20, HE40, EHT20, EHT40; 5g not HT40+/- or EHT320; 6g HE and EHT only.',
    'The radio\'s access points (wifi-iface, mode ap) still run on its `band` and `htmode`: on 6g only sae or owe without TKIP, and ieee80211w 2; no HT mode with TKIP alone.',
  ],
};

export default definition;
