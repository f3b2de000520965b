// What the wireless resources share, as OpenWrt 24.10 reads the `wireless` package: netifd
// (7901e66: config.c, wireless.c) keeps the options each driver script declares, converted by
// uci's blob.c (a BOOL takes only 1/true and 0/false, an INT32 is strtol(text, 0), an undeclared
// option is dropped), and wifi-scripts 24.10 (netifd-wireless.sh, hostapd.sh, mac80211.sh) write
// them into hostapd and wpa_supplicant files line by line.

import { boolean, field, integer, UCI_BLOB_BOOLEAN } from '../codecs.js';
import type { Field } from '../model.js';

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
 * What hostapd refuses of an access point on a radio (hostapd_config_check_bss_6g): on 6 GHz any
 * encryption but sae or owe, TKIP, or ieee80211w other than 2; elsewhere TKIP alone turns an HT mode
 * off. The field it is about and why, or undefined.
 */
export function radioConflict(band: string | undefined, htmode: string | undefined, encryption: string, ieee80211w: number | undefined): [string, string] | undefined {
  const [base, ...ciphers] = encryption.split('+');
  const cipher = ciphers.join('+');
  if (band === '6g') {
    if (!['sae', 'owe'].includes(base) || cipher.includes('tkip')) return ['encryption', 'hostapd allows only sae or owe without TKIP on 6 GHz'];
    return ieee80211w !== undefined && ieee80211w !== 2 ? ['ieee80211w', '6 GHz requires ieee80211w 2'] : undefined;
  }
  return /^(HT|VHT|HE|EHT)/.test(htmode ?? '') && cipher === 'tkip' ? ['encryption', `hostapd turns ${htmode} off for TKIP alone`] : undefined;
}
