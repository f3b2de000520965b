// The `vnstat` section as /etc/init.d/vnstat of vnstat2 reads it (openwrt/packages net/vnstat2,
// OpenWrt 24.10, vnStat 2.12; the older package vnstat ships the same file names and conflicts with
// it): `vnstat --add --force -i` for every `interface` list item of every `vnstat` section, at start
// and reload. The singleton is the first section (stock anonymous). Items are kernel device names
// vnstatd counts in /proc/net/dev, not UCI interface names; removing one stops nothing already
// counted (vnstatd runs with --noremove).

import { field, list } from '../codecs.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { outOfRange, strings, utf8Length } from '../checks.js';

/** The kernel's dev_valid_name: not `.` or `..`, no `/`, `:` or ASCII whitespace, under IFNAMSIZ (16) bytes. */
const DEVICE = { pattern: '^(?!\\.\\.?$)[^\\x00\\t-\\r /:]{1,15}$' };

/** The pattern counts characters: a name of 15 or fewer that is longer in bytes. */
export const rules: Rules = (body) =>
  strings(body, 'interfaces')
    .filter(([, name]) => [...name].length <= 15 && utf8Length(name) > 15)
    .map(([path]) => outOfRange(path, `${path} is longer than the 15 bytes of a kernel device name`));

const definition: ResourceDefinition = {
  path: 'vnstat/config',
  package: 'vnstat',
  type: 'vnstat',
  kind: 'singleton',
  reload: ['vnstat'],
  daemonPackage: 'vnstat2',
  description: 'The traffic counter vnStat (the first `vnstat` section).',
  members: {
    interfaces: field(list(DEVICE, { listOnly: true }), {
      option: 'interface',
      description: 'Kernel devices to count, such as br-lan or eth0 (not UCI interface names).',
    }),
  },
  rules,
  checks: ['Each of `interfaces` is at most 15 bytes in UTF-8.'],
};

export default definition;
