// uapi_wireless_device and uapi_wireless_interface as a configuration sets them: a radio the provider
// creates without a PHY or band (kept, as netifd keeps it), an access point joining lan without a
// mode (the server writes ap), and a client on wan; the stock radio and SSID imported.
import type { ReplayCase } from '../case.js';

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_wireless_device',
    create: { id: 'radio2', type: 'mac80211', band: '5g', channel: 149, htmode: 'VHT80', country: 'US', txpower: 17, disabled: true },
    update: { channel: 36, htmode: 'HE80', country: 'DE', txpower: 20, disabled: false },
    imports: 'radio0',
  },
  {
    resource: 'uapi_wireless_interface',
    title: 'an access point on lan',
    create: { device: 'radio1', network: 'lan', ssid: 'Home', encryption: 'psk2', key: 'correct horse battery', hidden: false, isolate: true },
    update: { ssid: 'Home 2', encryption: 'sae-mixed', key: 'another passphrase', hidden: true, isolate: null },
    imports: 'default_radio1',
  },
  {
    resource: 'uapi_wireless_interface',
    title: 'a client on wan',
    create: { id: 'uplink', device: 'radio0', network: 'wan', mode: 'sta', ssid: 'Upstream', encryption: 'sae', key: 'uplink passphrase', disabled: false },
    update: { ssid: 'Upstream 2', encryption: 'psk2', key: 'uplink passphrase 2', disabled: true },
    imports: 'default_radio0',
  },
];
