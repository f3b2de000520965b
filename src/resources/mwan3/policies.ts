// `policy` sections as mwan3 2.11.16 (openwrt/packages openwrt-24.10, net/mwan3/files) reads them in
// lib/mwan3/mwan3.sh mwan3_create_policies_iptables: the section NAME names the chain
// mwan3_policy_<name>, and mwan3 skips a policy whose name passes 15 characters; `last_resort`
// values other than blackhole and default act as unreachable.

import { choice, field, list } from '../codecs.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { conflict } from '../checks.js';
import { BUILTIN_POLICIES, idLengthErrors } from './common.js';

export const rules: Rules = (_body, { id }) => [
  ...idLengthErrors(id, 15, 'mwan3 skips a longer policy'),
  ...(id !== undefined && BUILTIN_POLICIES.includes(id) ? [conflict('id', `mwan3/rules take use_policy ${id} for the built-in verdict`)] : []),
];

const definition: ResourceDefinition = {
  path: 'mwan3/policies',
  package: 'mwan3',
  type: 'policy',
  kind: 'collection',
  shortIds: { prefix: 'p_', length: 15 },
  reload: ['mwan3'],
  daemonPackage: 'mwan3',
  description: 'How traffic a rule selects is spread over mwan3/members, and what happens when none is online.',
  members: {
    use_members: field(list({ pattern: '^[A-Za-z0-9_]+$', maxLength: 32 }, { listOnly: true }), {
      option: 'use_member',
      description: 'mwan3/members ids.',
    }),
    last_resort: field(choice(['unreachable', 'blackhole', 'default']), {
      description: 'With no member online: unreachable, blackhole (drop silently) or default (the main routing table). Default unreachable.',
    }),
  },
  references: [{ field: 'use_members', package: 'mwan3', type: 'member' }],
  rules,
  checks: ['The `id` has at most 15 characters and is none of default, unreachable and blackhole.'],
};

export default definition;
