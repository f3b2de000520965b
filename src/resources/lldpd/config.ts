// The section `config` of /etc/config/lldpd as /etc/init.d/lldpd reads it (openwrt/openwrt
// package/network/services/lldpd, OpenWrt 24.10.2, lldpd 1.0.18), by name (the resource serves it
// as the type `lldpd` the package ships): as lldpd flags (start_service: -H, -M, -C and the protocol
// switches) and as lldpcli commands written to /tmp/lldpd.conf (write_lldpd_conf). The image's
// lldpd is built with CDP, EDP, FDP, SONMP and LLDP-MED but without SNMP: `agentxsocket` is then
// read by nothing (the packaging drops it from the shipped file), and is not modelled.
//
// lldpcli's tokenizer ends a quoted value at its `"`, takes `\` as an escape and `#` outside quotes
// as a comment, and an invalid -M or -H value stops lldpd: such values are refused. The script cuts
// the inventory strings to 31 bytes. `custom-tlv` sections are other sections, not this resource's.

import { boolean, choice, field, integer, list, SHELL_BOOLEAN, text } from '../codecs.js';
import type { FieldError } from '../../http/errors.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { conflict, given, outOfRange, strings, utf8Length } from '../checks.js';

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });
/** A value the script writes between double quotes into an lldpcli command. */
const QUOTED = { pattern: '^[^"\\\\\\x00-\\x1f\\x7f]*$' };
const quoted = (description: string) => field(text(QUOTED), { description });
const INVENTORY = ['hardware_revision', 'firmware_revision', 'software_revision', 'serial_number', 'manufacturer_name', 'model_name', 'asset_id'];
const inventory = (what: string, fallback: string) => field(text({ ...QUOTED, maxLength: 31 }), { description: `LLDP-MED inventory ${what}, at most 31 bytes. Default ${fallback}.` });
/** Interface sections, devices or globs (`eth*`, `!eth1`), joined with commas into an lldpcli pattern. */
const PATTERN_ITEM = { pattern: '^[^\\s,"\'#\\\\]+$' };
const CAPABILITY = '(other|repeater|bridge|wlan|router|telephone|docsis|station)';
/** Words of an unquoted lldpcli command: plain, or quoted whole; a `#` outside quotes would end the line. */
const WORDS = `( ([^\\s"'#\\\\\\x00-\\x1f]+|"[^"\\\\\\x00-\\x1f]*"|'[^'\\\\\\x00-\\x1f]*'))*`;

function inventoryErrors(body: JsonObject): FieldError[] {
  return INVENTORY.flatMap((name) => strings(body, `lldp_med_inv_${name}`))
    .filter(([, value]) => utf8Length(value) > 31)
    .map(([path]) => outOfRange(path, `${path} is longer than the 31 bytes lldpd.init sends`));
}

/** lldpd.init writes the policy only for class 2 and 3 (lldpd wants one there). */
function policyErrors(body: JsonObject): FieldError[] {
  const kind = valueAt(body, 'lldp_class');
  return given(body, 'lldp_policy') && kind !== 2 && kind !== 3 ? [conflict('lldp_policy', 'lldp_policy applies only with lldp_class 2 or 3')] : [];
}

export const rules: Rules = (body) => [...inventoryErrors(body), ...policyErrors(body)];

const definition: ResourceDefinition = {
  path: 'lldpd/config',
  package: 'lldpd',
  type: 'lldpd',
  section: 'config',
  kind: 'singleton',
  reload: ['lldpd'],
  daemonPackage: 'lldpd',
  description: 'The LLDP daemon lldpd and its CDP, EDP, FDP and SONMP support (section `config`).',
  members: {
    enable_lldp: flag('Send and receive LLDP. Default true.'),
    force_lldp: flag('Send LLDP even with no LLDP neighbour. Default false.'),
    enable_cdp: flag('Cisco Discovery Protocol. Stock true, default false.'),
    cdp_version: field(choice(['cdpv1v2', 'cdpv2']), { description: 'CDP versions, with `enable_cdp`. Default cdpv1v2.' }),
    force_cdp: flag('Send CDP even with no CDP neighbour (CDPv1 with cdpv1v2). Default false.'),
    force_cdpv2: flag('With cdpv1v2 and `force_cdp`, force CDPv2 instead. Default false.'),
    enable_fdp: flag('Foundry Discovery Protocol. Stock true, default false.'),
    force_fdp: flag('Send FDP even with no FDP neighbour. Default false.'),
    enable_sonmp: flag('Nortel SONMP. Stock true, default false.'),
    force_sonmp: flag('Send SONMP even with no SONMP neighbour. Default false.'),
    enable_edp: flag('Extreme Discovery Protocol. Stock true, default false.'),
    force_edp: flag('Send EDP even with no EDP neighbour. Default false.'),
    readonly_mode: flag('Receive only, send nothing. Default false.'),
    lldp_no_version: flag('Leave the software version out. Default false.'),
    filter: field(integer({ minimum: 0, maximum: 19 }), { description: 'lldpd -H neighbour filter mode 0-19. Default 15.' }),
    interface: field(list(PATTERN_ITEM), { description: 'Interfaces, devices or globs to run on. Stock loopback, lan; default all.' }),
    cid_interface: field(list(PATTERN_ITEM), { description: 'Interfaces whose MAC makes the chassis ID.' }),
    lldp_hostname: quoted('System name sent. Default the host name.'),
    lldp_description: quoted('System description sent. Default the release and host name.'),
    lldp_platform: quoted('CDP platform sent. Default the kernel\'s.'),
    lldp_mgmt_ip: quoted('Management addresses sent: a comma-separated pattern of addresses and globs, `!` negates.'),
    lldp_syscapabilities: field(text({ pattern: `^${CAPABILITY}(,${CAPABILITY})*$` }), { description: 'Enabled capabilities sent, comma-separated. Default the kernel\'s.' }),
    lldp_capabilities: field(boolean(SHELL_BOOLEAN), { option: 'lldp_capability_advertisements', description: 'Send the system capabilities TLV. Default true.' }),
    lldp_mgmt_addr_advertisements: flag('Send management addresses. Default true.'),
    lldp_agenttype: field(choice(['nearest-bridge', 'nearest-non-tpmr-bridge', 'nearest-customer-bridge']), { description: 'LLDP agent type. Default nearest-bridge.' }),
    lldp_portidsubtype: field(choice(['macaddress', 'ifname']), { description: 'Port ID sent. Default macaddress.' }),
    lldp_tx_interval: field(text({ pattern: '^(0|[1-9][0-9]{0,5})(ms)?$' }), { description: 'Seconds (or `Nms`) between sends; 0 for lldpd\'s 30.' }),
    lldp_tx_hold: field(integer({ minimum: 0, maximum: 2147483647 }), { description: 'TTL as a multiple of the interval; 0 for lldpd\'s 4.' }),
    lldp_class: field(integer({ minimum: 1, maximum: 4 }), { description: 'LLDP-MED device class 1-4. Stock 4.' }),
    lldp_location: field(text({ pattern: `^(coordinate|address|elin)${WORDS}$` }), { description: 'LLDP-MED location, as lldpcli `configure med location` takes it. Stock `address country EU`.' }),
    lldp_policy: field(text({ pattern: `^application${WORDS}$` }), { description: 'LLDP-MED network policy (`application ...`), with `lldp_class` 2 or 3.' }),
    lldpmed_fast_start: flag('LLDP-MED fast start. Default false.'),
    lldpmed_fast_start_tx_interval: field(integer({ minimum: 0, maximum: 2147483647 }), { description: 'Fast start interval in seconds; 0 for lldpd\'s 1.' }),
    lldpmed_no_inventory: flag('Send no LLDP-MED inventory. Default false.'),
    lldp_med_inv_hardware_revision: inventory('hardware revision', 'the board\'s'),
    lldp_med_inv_firmware_revision: inventory('firmware revision', 'the release name'),
    lldp_med_inv_software_revision: inventory('software revision', 'the build id'),
    lldp_med_inv_serial_number: inventory('serial number', 'none'),
    lldp_med_inv_manufacturer_name: inventory('manufacturer', 'from board.json'),
    lldp_med_inv_model_name: inventory('model', 'from board.json'),
    lldp_med_inv_asset_id: inventory('asset id', 'none'),
  },
  rules,
  checks: [
    '`lldp_med_inv_hardware_revision`, `lldp_med_inv_firmware_revision`, `lldp_med_inv_software_revision`, `lldp_med_inv_serial_number`, ' +
      '`lldp_med_inv_manufacturer_name`, `lldp_med_inv_model_name` and `lldp_med_inv_asset_id` are at most 31 bytes in UTF-8.',
    '`lldp_policy` only with `lldp_class` 2 or 3.',
  ],
};

export default definition;
