// `dropbear` sections as /etc/init.d/dropbear (OpenWrt 24.10.2, dropbear 2024.86) reads them: every
// option through validate_section_dropbear (ubox validate_data), one dropbear process per enabled
// section. validate_data checks a section as a whole: one value it refuses (a `file` that does not
// exist, a port past 65535, a boolean spelled otherwise) and the script prints "validation failed"
// and starts no server for that section. It exports booleans only in the spellings get_bool knows
// (`ON` validates, then reads as empty and applies neither way): SHELL_BOOLEAN.
// Quirks: `Interface` binds to the interfaces' addresses (at most 10, and to every address when none
// of them has one); `DirectInterface` binds to the first interface's device and starts nothing while
// that interface is down. At its start the script rewrites `option rsakeyfile` into `list keyfile`.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, integer, list, SHELL_BOOLEAN, text, words } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { conflict, optionText, strings } from '../checks.js';

/** validate_data `file`: an existing regular file; `list(file)` also splits items at blanks. */
const FILE = { pattern: '^/\\S+$', maxLength: 255 };
const INTERFACE = { pattern: '^[A-Za-z0-9_]+$', maxLength: 32 };
/** `uinteger`, as dropbear's m_str_to_uint then takes it (an unsigned int, else dropbear exits). */
const UINT = { minimum: 0, maximum: 4294967295 };

const flag = (option: string, description: string) => field(boolean(SHELL_BOOLEAN), { option, description });

/** validate_data refuses a path that names no file, and with it the whole section. */
function fileErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const paths = [...strings(body, 'banner_file'), ...strings(body, 'rsakeyfile'), ...(Array.isArray(valueAt(body, 'keyfile')) ? strings(body, 'keyfile') : [])];
  return paths
    .filter(([, path]) => context.file(path) === undefined)
    .map(([at, path]) => conflict(at, `${path} does not exist; the init script would start no server for this section`));
}

/** The interfaces an instance binds to, from its fields or its options (space-separated, or a UCI list). */
function interfacesOf(values: unknown[]): string[] {
  return values.flatMap((value) => (typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : [])).filter(Boolean);
}

/**
 * Two servers cannot listen on one port unless each binds to interfaces of its own: the second
 * fails to bind and procd respawns it in vain.
 */
function portErrors(body: JsonObject, context: RuleContext): FieldError[] {
  if (valueAt(body, 'enable') === false) return [];
  const port = valueAt(body, 'port') ?? 22;
  const mine = interfacesOf([valueAt(body, 'interface'), valueAt(body, 'direct_interface')]);
  const clash = context.read('dropbear').sections.find(({ type, name, options }) => {
    if (type !== 'dropbear' || name === context.id || !SHELL_BOOLEAN.truthy.concat('').includes(optionText(options.get('enable')) ?? '')) return false;
    if (Number(optionText(options.get('Port')) || 22) !== port) return false;
    const theirs = interfacesOf([options.get('Interface'), options.get('DirectInterface')]);
    return !mine.length || !theirs.length || theirs.some((name) => mine.includes(name));
  });
  return clash ? [conflict('port', `instance ${clash.name} already listens on port ${port}`)] : [];
}

export const rules: Rules = (body, context) => [...fileErrors(body, context), ...portErrors(body, context)];

const definition: ResourceDefinition = {
  path: 'dropbear/instances',
  package: 'dropbear',
  type: 'dropbear',
  kind: 'collection',
  idPrefix: 'd_',
  reload: ['dropbear'],
  description: 'SSH servers: one dropbear process per enabled instance.',
  members: {
    enable: flag('enable', 'Start this server. Default true.'),
    // validate_data `port` takes 0, with which dropbear binds a port the kernel picks.
    port: field(integer({ minimum: 1, maximum: 65535 }), { option: 'Port', description: 'TCP port. Default 22.' }),
    interface: field(words(INTERFACE), {
      option: 'Interface',
      description: 'Listen on the addresses of these interfaces only (network/interfaces ids, separated by spaces). Default: every address.',
    }),
    direct_interface: field(text(INTERFACE), {
      option: 'DirectInterface',
      description: 'Bind to the device of this interface, instead of `interface`; nothing starts while it is down.',
    }),
    password_auth: flag('PasswordAuth', 'Allow password logins. Default true.'),
    root_password_auth: flag('RootPasswordAuth', 'Allow root to log in with a password. Default true.'),
    root_login: flag('RootLogin', 'Allow root to log in at all. Default true.'),
    gateway_ports: flag('GatewayPorts', 'Let remote hosts connect to forwarded ports. Default false.'),
    force_command: field(text({ pattern: '^[^\\x00-\\x1f\\x7f]+$' }), { option: 'ForceCommand', description: 'Run this command instead of what the client asks for.' }),
    keyfile: field(list(FILE, { listOnly: true }), { description: 'Host key files (existing ones). Default: the generated /etc/dropbear/dropbear_*_host_key.' }),
    rsakeyfile: field(text(FILE), { description: 'Deprecated host key file (existing); the init script moves it into `keyfile`.' }),
    banner_file: field(text({ pattern: '^/[^\\x00-\\x1f\\x7f]+$', maxLength: 255 }), { option: 'BannerFile', description: 'File (existing) shown before login.' }),
    ssh_keepalive: field(integer(UINT), { option: 'SSHKeepAlive', description: 'Seconds between keepalives; 0 sends none. Default 300.' }),
    idle_timeout: field(integer(UINT), { option: 'IdleTimeout', description: 'Seconds of silence before a session is closed; 0 never. Default 0.' }),
    max_auth_tries: field(integer(UINT), { option: 'MaxAuthTries', description: 'Failed logins per connection; 0 leaves dropbear\'s 10. Default 3.' }),
    recv_window_size: field(integer(UINT), { option: 'RecvWindowSize', description: 'Receive window in bytes, capped at 10485760; 0 leaves dropbear\'s 24576. Default 262144.' }),
    mdns: flag('mdns', 'Announce the server over mDNS (with umdns). Default true.'),
  },
  references: [
    { field: 'interface', package: 'network', type: 'interface' },
    { field: 'direct_interface', package: 'network', type: 'interface' },
  ],
  rules,
  checks: [
    '`banner_file`, `rsakeyfile` and each `keyfile` name an existing file.',
    'An enabled instance\'s `port` is not that of another enabled one, unless both bind to interfaces and none to the same.',
  ],
};

export default definition;
