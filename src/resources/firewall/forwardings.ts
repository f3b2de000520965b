import { boolean, field, FIREWALL4_BOOLEAN, firewall4Family, text } from '../codecs.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { disabledZoneCheck, disabledZoneErrors, LABEL, ZONE_REFERENCE } from './common.js';

export const rules: Rules = (body, context) => disabledZoneErrors(body, context, ['src', 'dest']);

const definition: ResourceDefinition = {
  path: 'firewall/forwardings',
  package: 'firewall',
  type: 'forwarding',
  kind: 'collection',
  idPrefix: 'f_',
  reload: ['firewall'],
  description: 'Zone-to-zone forwarding: traffic from `src` may be forwarded to `dest`.',
  members: {
    name: field(text(LABEL), { description: 'Label in the ruleset comments; default `Accept <src> to <dest> forwarding`.' }),
    src: field(text(ZONE_REFERENCE), { required: true, description: 'Source zone, or `*` for any.' }),
    dest: field(text(ZONE_REFERENCE), { required: true, description: 'Destination zone, or `*` for any.' }),
    family: field(firewall4Family(), { description: 'Restrict to one address family; default: as the zones allow.' }),
    enabled: field(boolean(FIREWALL4_BOOLEAN), { description: 'A disabled forwarding is ignored by firewall4. Default true.' }),
  },
  references: [
    { field: 'src', package: 'firewall', type: 'zone', by: 'name', except: ['*'] },
    { field: 'dest', package: 'firewall', type: 'zone', by: 'name', except: ['*'] },
  ],
  rules,
  checks: [
    disabledZoneCheck(['src', 'dest']),
  ],
};

export default definition;
