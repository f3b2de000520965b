// Bridge VLAN filtering: netifd's `bridge-vlan` sections, loaded by config.c config_load_vlan
// (vlan_attrs: vlan INT32, local BOOL, ports and alias arrays of strings) and applied by
// config_init_vlan_entry to the bridge named by `device`. Any bridge-vlan naming a bridge switches
// that bridge's vlan_filtering on (config_fixup_bridge_vlan_filtering), and every port listed here
// becomes a member of the bridge (bridge.c bridge_config_init).

import type { FieldError } from '../../http/errors.js';
import { boolean, field, integer, list, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules, type RuleContext } from '../model.js';
import { bridgePorts, DEVICE_NAME, items, NETIFD_BOOLEAN, others, C_INTEGER } from './common.js';
import { conflict, optionText, strings } from '../checks.js';

/**
 * `name[:flags]` as config_init_vlan_entry splits it at the first `:`: `t` tags the port, `*` makes
 * the VLAN its PVID, `u` (untagged, the default) changes nothing; every other flag character is
 * ignored, so only the combinations that mean what they say are accepted (`tu` would be tagged).
 */
const PORT = { pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}(:([ut]?[*]?|[*][ut]))?$' };

/** A VLAN alias (kvlist key): a vid given as `br-lan.<alias>` or an 8021q `vid` that is not all digits. */
const ALIAS = { pattern: '^[A-Za-z0-9_-]*[A-Za-z_-][A-Za-z0-9_-]*$', maxLength: 14 };

const portName = (spec: string) => spec.split(':')[0];
const isPvid = (spec: string) => (spec.split(':')[1] ?? '').includes('*');

/** The bridges netifd creates: `device` sections of type bridge by name, and legacy `interface` sections of type bridge as br-<name>. */
function bridgeNames(context: RuleContext): Set<string> {
  const names = new Set<string>();
  for (const section of context.read('network').sections) {
    if (section.type === 'device' && section.options.get('type') === 'bridge') {
      const name = optionText(section.options.get('name'));
      if (name) names.add(name);
    }
    if (section.type === 'interface' && section.options.get('type') === 'bridge') names.add(`br-${section.name}`);
  }
  return names;
}

function deviceErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const device = valueAt(body, 'device');
  if (typeof device !== 'string' || bridgeNames(context).has(device)) return [];
  return [conflict('device', `no bridge named ${device}: a network/devices bridge, or br-<interface> of a legacy bridge interface`)];
}

function siblingErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const device = valueAt(body, 'device');
  const vlan = valueAt(body, 'vlan');
  if (typeof device !== 'string') return [];
  const siblings = others(context, 'bridge-vlan').filter((section) => section.options.get('device') === device);
  const errors: FieldError[] = [];
  if (siblings.some((section) => Number(section.options.get('vlan')) === vlan)) {
    errors.push(conflict('vlan', `bridge ${device} already has a bridge-vlan for VLAN ${vlan}; netifd would keep only one of them`));
  }
  const pvids = new Set(siblings.flatMap((section) => items(section.options.get('ports')).filter(isPvid).map(portName)));
  for (const [where, spec] of strings(body, 'ports')) {
    if (isPvid(spec) && pvids.has(portName(spec))) errors.push(conflict(where, `${portName(spec)} is already the PVID port of another VLAN of ${device}; a port has one PVID`));
  }
  const aliases = new Set(siblings.flatMap((section) => items(section.options.get('alias'))));
  for (const [where, alias] of strings(body, 'alias')) {
    if (aliases.has(alias)) errors.push(conflict(where, `alias ${alias} already names another VLAN of ${device}`));
  }
  return errors;
}

/** A port can be the member of one bridge; netifd makes every port listed here a member of `device`. */
function portErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const device = valueAt(body, 'device');
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const elsewhere = new Map<string, string>();
  for (const section of context.read('network').sections) {
    if (section.type !== 'device' || section.options.get('type') !== 'bridge' || section.options.get('name') === device) continue;
    for (const port of bridgePorts(section)) elsewhere.set(port, optionText(section.options.get('name')) ?? section.name);
  }
  for (const [where, spec] of strings(body, 'ports')) {
    const name = portName(spec);
    if (seen.has(name)) errors.push(conflict(where, `${name} is listed twice`));
    seen.add(name);
    if (elsewhere.has(name)) errors.push(conflict(where, `${name} is a port of bridge ${elsewhere.get(name)}; a device joins one bridge`));
  }
  return errors;
}

export const rules: Rules = (body, context) => [
  ...deviceErrors(body, context),
  ...siblingErrors(body, context),
  ...portErrors(body, context),
];

const definition: ResourceDefinition = {
  path: 'network/bridge_vlans',
  package: 'network',
  type: 'bridge-vlan',
  kind: 'collection',
  idPrefix: 'v_',
  reload: ['network'],
  mgmtPath: { device: 'device' },
  description:
    'VLANs of a VLAN-filtering bridge (DSA switches included): which bridge ports carry the VLAN, tagged or untagged, and which use ' +
    'it as their PVID. Naming a bridge here turns its vlan_filtering on. Interfaces use a VLAN as the device `<bridge>.<vlan>`.',
  members: {
    device: field(text(DEVICE_NAME), { required: true, description: 'The bridge: the name of a network/devices bridge (br-lan), or br-<interface> of a legacy bridge interface.' }),
    vlan: field(integer({ minimum: 1, maximum: 4094 }, C_INTEGER), { required: true, description: 'VLAN id, 1-4094 (netifd takes up to 4095, which the kernel refuses).' }),
    ports: field(list(PORT), {
      description:
        'Ports carrying the VLAN, each `name[:flags]`: no flag or `u` untagged, `t` tagged, `*` added to either makes this VLAN the ' +
        'port\'s PVID (untagged ingress lands here), e.g. `lan1:u*`, `lan2:t`. Each port becomes a member of the bridge.',
    }),
    local: field(boolean(NETIFD_BOOLEAN), { description: 'The bridge device itself is a member of the VLAN (traffic to the router). Default true.' }),
    alias: field(list(ALIAS), { description: 'Names for this VLAN, usable instead of the number in device names (`br-lan.<alias>`) and in an 8021q `vid`.' }),
  },
  rules,
  checks: [
    '`device` names a bridge: a network/devices section of type bridge, or br-<id> of an interface of type bridge.',
    '`vlan` is not configured twice for one bridge.',
    'A port of `ports` is the PVID (`*`) of at most one VLAN of a bridge, is listed once, and is not a port of another bridge.',
    'An `alias` names one VLAN of a bridge.',
  ],
};

export default definition;
