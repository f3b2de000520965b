// `qjs -m /usr/share/wrtapi/setup.js wire|unwire`, run by the package's hooks: adds or removes the alias
// through which uhttpd's main instance serves /api/v3 with the CGI program. Both verbs are idempotent and
// leave every other line of /etc/config/uhttpd as it was.
import * as std from 'std';
import type { Ports } from '../../src/ports.js';
import { routerPorts } from './ports.js';
import { findSection, parseUci, serializeUci } from '../../src/uci/index.js';

const UHTTPD_CONFIG = '/etc/config/uhttpd';
const API_ALIAS = '/api/v3=/cgi-bin/wrtapi';

function setApiAlias(ports: Ports, wired: boolean) {
  const text = ports.readFile(UHTTPD_CONFIG);
  const config = text === undefined ? undefined : parseUci(text);
  const main = config && findSection(config, 'main');
  if (!config || main?.type !== 'uhttpd') {
    // Nothing of ours can be left to remove where there is no main instance.
    if (!wired) return;
    throw new Error(`${UHTTPD_CONFIG} has no uhttpd section 'main'`);
  }
  const value = main.options.get('alias');
  const aliases = value === undefined ? [] : typeof value === 'string' ? [value] : value;
  if (aliases.includes(API_ALIAS) === wired) return;
  const next = wired ? [...aliases, API_ALIAS] : aliases.filter((alias) => alias !== API_ALIAS);
  if (next.length > 0) main.options.set('alias', next);
  else main.options.delete('alias');
  ports.writeFileAtomic(UHTTPD_CONFIG, serializeUci(config));
}

const ports = routerPorts();
const verb = scriptArgs[1];
if (verb !== 'wire' && verb !== 'unwire') {
  ports.writeStderr('usage: qjs -m setup.js wire|unwire\n');
  std.exit(2);
}
setApiAlias(ports, verb === 'wire');
