// The `unbound_ext` section `main` of /etc/config/unbound_ext, which no script of the unbound package
// reads: unbound.sh includes the file /etc/unbound/unbound_ext.conf after its own clauses as it is.
// The package unbound-uci-ext (openwrt-iac/unbound-uci-ext, generator.sh load_ext) renders the
// `ext_line` lists of every `unbound_ext` section into a managed region of that file and restarts
// unbound when it changed; the singleton is `main`, the one the package ships.

import { boolean, field, list, SHELL_BOOLEAN } from '../codecs.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { LINE, lineErrors } from './common.js';

export const rules: Rules = (body) => lineErrors(body, ['ext_line']);

const definition: ResourceDefinition = {
  path: 'unbound/ext',
  package: 'unbound_ext',
  type: 'unbound_ext',
  section: 'main',
  kind: 'singleton',
  reload: ['unbound-uci-ext'],
  daemonPackage: 'unbound-uci-ext',
  description: 'Clauses unbound-uci-ext appends to unbound.conf (/etc/config/unbound_ext, section `main`): forward-zone, stub-zone, view, remote-control.',
  members: {
    enabled: field(boolean(SHELL_BOOLEAN), { description: 'Render these lines at all. Default false.' }),
    ext_line: field(list(LINE, { listOnly: true }), { description: 'The clauses, one rendered line per item, verbatim, at most 256 bytes each.' }),
  },
  rules,
  checks: ['Each `ext_line` is at most 256 bytes in UTF-8.'],
};

export default definition;
