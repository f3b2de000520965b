import type { Ports } from '../platform/ports.js';
import { parseUci } from '../uci/parse.js';
import { serializeUci } from '../uci/index.js';

const UHTTPD_CONFIG = '/etc/config/uhttpd';
const API_ALIAS = '/api/v3=/cgi-bin/wrtapi';

/**
 * Adds or removes the alias through which uhttpd's main instance serves /api/v3 with the CGI
 * program. Both are idempotent and leave every other line of /etc/config/uhttpd as it was.
 */
function setApiAlias(ports: Ports, wired: boolean): void {
  const text = ports.readFile(UHTTPD_CONFIG);
  const config = text === undefined ? undefined : parseUci(text);
  const main = config?.sections.find((section) => section.type === 'uhttpd' && section.name === 'main');
  if (!config || !main) {
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

/** `qjs -m setup.js wire|unwire`, run by the package's hooks. Returns the exit code. */
export function runSetup(ports: Ports, args: string[]): number {
  const [verb] = args;
  if (verb !== 'wire' && verb !== 'unwire') {
    ports.writeStderr('usage: qjs -m setup.js wire|unwire\n');
    return 2;
  }
  setApiAlias(ports, verb === 'wire');
  return 0;
}
