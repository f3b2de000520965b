// `member` sections as mwan3 2.11.16 (openwrt/packages openwrt-24.10, net/mwan3/files) reads them in
// lib/mwan3/mwan3.sh mwan3_set_policy, for each policy that lists them: a member without `interface`
// is skipped, one with a metric above 256 too. Within a policy the members of the lowest metric
// whose interface is online share the traffic by weight; the others stand by.

import { field, integer, text } from '../codecs.js';
import type { ResourceDefinition } from '../model.js';

const definition: ResourceDefinition = {
  path: 'mwan3/members',
  package: 'mwan3',
  type: 'member',
  kind: 'collection',
  idPrefix: 'm_',
  reload: ['mwan3'],
  daemonPackage: 'mwan3',
  description: 'An mwan3 interface with a metric and a weight, for mwan3/policies to list.',
  members: {
    interface: field(text({ pattern: '^[A-Za-z0-9_]+$', maxLength: 32 }), { required: true, description: 'The mwan3/interfaces id.' }),
    metric: field(integer({ minimum: 0, maximum: 256 }), { description: 'Priority in a policy: the lowest metric online is used. Default 1.' }),
    weight: field(integer({ minimum: 1, maximum: 2147483647 }), { description: 'Share of the traffic among members of one metric. Default 1.' }),
  },
  references: [{ field: 'interface', package: 'mwan3', type: 'interface' }],
};

export default definition;
