// The `unbound_srv` section `main` of /etc/config/unbound_srv, which no script of the unbound package
// reads: unbound.sh includes the file /etc/unbound/unbound_srv.conf in its server: clause as it is.
// The package unbound-uci-ext (openwrt-iac/unbound-uci-ext, generator.sh load_srv) renders these
// sections into a managed region of that file and restarts unbound when it changed; its init script
// is what a write reloads. It reads every `unbound_srv` section (lists add up, the last scalar wins);
// the singleton is `main`, the one the package ships. With `enabled` false the region is emptied.

import { boolean, field, list, SHELL_BOOLEAN } from '../codecs.js';
import { IPV4, IPV6, PREFIX6, SERVICE_PORT } from '../addresses.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { LINE, lineErrors } from './common.js';

/** generator.sh's spellings of ip_transparent; any other value is skipped with a log line. */
const TRANSPARENT = { truthy: ['1', 'yes', 'on', 'true'], falsy: ['0', 'no', 'off', 'false'] };

export const rules: Rules = (body) => lineErrors(body, ['srv_line']);

const definition: ResourceDefinition = {
  path: 'unbound/srv',
  package: 'unbound_srv',
  type: 'unbound_srv',
  section: 'main',
  kind: 'singleton',
  reload: ['unbound-uci-ext'],
  daemonPackage: 'unbound-uci-ext',
  description: 'Lines unbound-uci-ext adds to the server: clause of unbound.conf (/etc/config/unbound_srv, section `main`).',
  members: {
    enabled: field(boolean(SHELL_BOOLEAN), { description: 'Render these lines at all. Default false.' }),
    interface_bind: field(list({ pattern: `^(${IPV4}|${IPV6}|[A-Za-z0-9_.-]{1,15})(@${SERVICE_PORT})?$` }, { listOnly: true }), {
      description: '`interface:` lines: addresses or devices to listen on, with an optional `@port`.',
    }),
    interface_outgoing: field(list({ pattern: `^(${IPV4}|${IPV6}(/${PREFIX6})?)$` }, { listOnly: true }), {
      description: '`outgoing-interface:` lines: source addresses (or an IPv6 netblock) for queries upstream.',
    }),
    ip_transparent: field(boolean(TRANSPARENT), { description: '`ip-transparent:`, to bind addresses not (yet) on the router. Default: unset.' }),
    srv_line: field(list(LINE, { listOnly: true }), { description: 'Further server: clause lines, verbatim, at most 256 bytes each.' }),
  },
  rules,
  checks: ['Each `srv_line` is at most 256 bytes in UTF-8.'],
};

export default definition;
