// `uhttpd` sections as /etc/init.d/uhttpd start_instance (OpenWrt 24.10.2, uhttpd 2023-06-25
// 34a8a74) reads them, and as uhttpd's main.c takes the arguments it builds. Lists are read with
// config_get and split by the shell (a UCI list or a space-separated option alike, each item also
// globbed), except `lua_prefix`, `ucode_prefix` and `httpauth`, read with config_list_foreach (a
// plain option is ignored; a single `lua_prefix` option pairs with `lua_handler`). uhttpd exits at
// start on a `home` that is no directory, an `error_page` not starting with `/`, an `index_page`
// starting with `/`, an `interpreter` not of the form `.ext=path`, or no listen address it can bind.
// uhttpd tries aliases last first. wrtapi is served by instance `main` through the alias its package
// adds (/api/v3=/cgi-bin/wrtapi, a CGI program under `cgi_prefix` in `home`): see servingErrors.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, integer, list, SHELL_BOOLEAN, text } from '../codecs.js';
import { readOption } from '../options.js';
import { valueAt, type Codec, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { conflict, strings } from '../checks.js';
import { SERVICE_PORT } from '../addresses.js';

const API_ALIAS = '/api/v3=/cgi-bin/wrtapi';
/** Where the alias sends every API request, as uhttpd's handlers then match it. */
const API_URL = '/cgi-bin/wrtapi/api/v3';
const PROGRAM = '/cgi-bin/wrtapi';

/** An item the shell splits and globs: no blanks, no glob characters. */
const WORD = '[^\\s*?\\[\\]]';
const PATH = { pattern: `^/${WORD}*$`, maxLength: 255 };
const LISTEN = { pattern: `^(([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]):)?${SERVICE_PORT}$` };
const PREFIX_HANDLER = { pattern: '^/[^\\s=]*=/\\S+$' };
/** uhttpd arms its timers with seconds * 1000 in a C int. */
const SECONDS = { minimum: 0, maximum: 2147483 };
const COUNT = { minimum: 0, maximum: 2147483647 };

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });
const number = (description: string, range: { minimum: number; maximum: number } = SECONDS) => field(integer(range), { description });

/** uh_path_match: `prefix` is `/` or `url` itself or a path below it. */
const pathMatch = (prefix: string, url: string) => prefix === '/' || (url.startsWith(prefix) && (url.length === prefix.length || url[prefix.length] === '/'));
/** Whether a prefix takes some URL of the API: a prefix of it, or a path below it. */
const overlaps = (prefix: string, url: string) => pathMatch(prefix, url) || pathMatch(url, prefix);

/** What instance `main` needs to serve this API, as field errors for what a body lacks. */
function servingErrors(body: JsonObject, file: RuleContext['file']): FieldError[] {
  const errors: FieldError[] = [];
  const keep = (name: string, what: string) => errors.push(conflict(name, `instance main serves this API: ${what}`));
  if (valueAt(body, 'enabled') === false) keep('enabled', 'it must stay enabled');
  const aliases = strings(body, 'alias').filter(([, alias]) => overlaps(alias.split('=')[0], '/api/v3'));
  if (aliases.pop()?.[1] !== API_ALIAS) keep('alias', `${API_ALIAS} must stay the last alias matching /api/v3`);
  const cgi = valueAt(body, 'cgi_prefix');
  const prefix = typeof cgi === 'string' ? cgi.replace(/\/+$/, '') : undefined;
  if (!cgi || (prefix !== '' && !pathMatch(prefix!, PROGRAM))) keep('cgi_prefix', `it must stay a prefix of ${PROGRAM}`);
  const home = valueAt(body, 'home');
  if (file(`${typeof home === 'string' ? home.replace(/\/+$/, '') : ''}${PROGRAM}`) === undefined) keep('home', `it must hold ${PROGRAM}`);
  if (!strings(body, 'listen_http').length && !strings(body, 'listen_https').length) keep('listen_https', 'it needs a listen address');
  for (const name of ['lua_prefix', 'ucode_prefix', 'ubus_prefix']) {
    for (const [at, item] of strings(body, name)) if (overlaps(item.split('=')[0], API_URL)) keep(at, `${item} would take its URLs`);
  }
  return errors;
}

/** The options servingErrors looks at, read as the resource reads them. */
const SERVING: [string, Codec][] = [
  ['enabled', { kind: 'boolean', ...SHELL_BOOLEAN }],
  ['alias', { kind: 'list' }],
  ['cgi_prefix', { kind: 'text' }],
  ['home', { kind: 'text' }],
  ['listen_http', { kind: 'list' }],
  ['listen_https', { kind: 'list' }],
  ['lua_prefix', { kind: 'list', listOnly: true }],
  ['ucode_prefix', { kind: 'list', listOnly: true }],
  ['ubus_prefix', { kind: 'text' }],
];

/**
 * Self-lockout protection: a write that would stop instance `main` serving this API is refused,
 * when it serves it now (a router without wrtapi's alias has nothing to protect). Remote clients
 * reach the API over HTTPS only, so `main` also keeps an HTTPS address once it has one.
 */
function lockoutErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const stored = context.id === 'main' && context.read('uhttpd').sections.find((section) => section.name === 'main' && section.type === 'uhttpd');
  if (!stored) return [];
  const before: JsonObject = {};
  for (const [name, codec] of SERVING) before[name] = readOption(codec, stored.options.get(name)) ?? null;
  if (servingErrors(before, context.file).length) return [];
  const errors = servingErrors(body, context.file);
  if (strings(before, 'listen_https').length && !strings(body, 'listen_https').length) {
    errors.push(conflict('listen_https', 'instance main serves this API, which remote clients reach over HTTPS only'));
  }
  return errors;
}

export const rules: Rules = (body, context) => lockoutErrors(body, context);

const definition: ResourceDefinition = {
  path: 'uhttpd/instances',
  package: 'uhttpd',
  type: 'uhttpd',
  kind: 'collection',
  idPrefix: 'u_',
  reload: ['uhttpd'],
  undeletable: { main: 'uhttpd serves this API through instance main' },
  guardsRaw: true,
  description: 'Web servers: one uhttpd process per enabled instance. Instance `main` serves LuCI and this API.',
  members: {
    enabled: flag('Start this server. Default true.'),
    listen_http: field(list(LISTEN), { description: 'Plain HTTP listen addresses: `[addr:]port`, IPv6 in brackets.' }),
    listen_https: field(list(LISTEN), { description: 'HTTPS listen addresses: `[addr:]port`, IPv6 in brackets; need `cert` and `key`.' }),
    redirect_https: flag('Redirect plain HTTP requests to HTTPS. Default false.'),
    home: field(text(PATH), { description: 'Document root, an existing directory. Default /.' }),
    cert: field(text(PATH), { description: 'Certificate file; generated from uhttpd/certs when missing. Default /etc/uhttpd.crt.' }),
    key: field(text(PATH), { description: 'Private key file; generated with `cert`. Default /etc/uhttpd.key.' }),
    cgi_prefix: field(text(PATH), { description: 'URL prefix of CGI programs, below `home`. Default: no CGI.' }),
    lua_prefix: field(list(PREFIX_HANDLER, { listOnly: true }), { description: 'Lua handlers, `prefix=handler file`.' }),
    lua_handler: field(text(PATH), { description: 'Lua handler of a single `lua_prefix` option (the legacy form).' }),
    ucode_prefix: field(list(PREFIX_HANDLER, { listOnly: true }), { description: 'ucode handlers, `prefix=handler file`.' }),
    ubus_prefix: field(text(PATH), { description: 'URL prefix of the JSON-RPC ubus interface. Default: none.' }),
    ubus_socket: field(text(PATH), { description: 'ubus socket. Default: ubus\'s own.' }),
    ubus_cors: flag('Answer CORS requests on `ubus_prefix`. Default false.'),
    no_ubusauth: flag('Let ubus calls skip the session check (dangerous). Default false.'),
    script_timeout: number('Seconds a script may stay silent before 504; 0 never. Default 60.'),
    // 0 times every connection out at once.
    network_timeout: number('Seconds a blocked connection is kept. Default 30.', { minimum: 1, maximum: 2147483 }),
    http_keepalive: number('Seconds an idle HTTP/1.1 connection is kept; 0 off. Default 20.'),
    // The kernel refuses a TCP_KEEPINTVL above 32767, which uhttpd ignores.
    tcp_keepalive: number('Seconds between TCP keepalive probes; 0 off.', { minimum: 0, maximum: 32767 }),
    // With 0 no script ever runs: this API included.
    max_requests: number('Scripts run at once; more wait. Default 3.', { ...COUNT, minimum: 1 }),
    max_connections: number('Connections at once; more wait; 0 no limit. Default 100.', COUNT),
    rfc1918_filter: flag('Refuse requests from private addresses to public ones (DNS rebinding). Default false.'),
    no_symlinks: flag('Do not follow symbolic links out of `home`. Default false.'),
    no_dirlists: flag('Answer 403 instead of listing a directory. Default false.'),
    realm: field(text({ pattern: '^[^\\x00-\\x1f\\x7f]+$' }), { description: 'Basic authentication realm. Default: the host name.' }),
    config: field(text(PATH), { description: 'busybox httpd.conf file of Basic authentication rules; replaces `httpauth`.' }),
    httpauth: field(list({ pattern: '^[A-Za-z0-9_]+$' }, { listOnly: true }), { description: 'Names of `httpauth` sections (prefix, username, password) to apply.' }),
    error_page: field(text(PATH), { description: 'URL served instead of a 404.' }),
    index_page: field(list({ pattern: `^[^\\s*?\\[\\]/]${WORD}*$` }), { description: 'Index file names, tried in order. Default index.html, index.htm, default.html, default.htm.' }),
    alias: field(list({ pattern: `^/[^\\s*?\\[\\]=]*(=/${WORD}*)?$` }), { description: 'URL aliases, `prefix=path`; the last matching one applies.' }),
    interpreter: field(list({ pattern: `^\\.[^\\s*?\\[\\]=]*=/${WORD}*$` }), { description: 'Interpreters by file extension, `.ext=program`.' }),
    json_script: field(list(PATH), { description: 'JSON request handler scripts (empty files are skipped).' }),
  },
  references: [{ field: 'httpauth', package: 'uhttpd', type: 'httpauth' }],
  rules,
  checks: [
    'While instance `main` serves this API, a write keeps it `enabled`, its `alias` /api/v3=/cgi-bin/wrtapi the last matching /api/v3, its `cgi_prefix` a prefix of /cgi-bin/wrtapi, ' +
      '/cgi-bin/wrtapi in its `home`, a `listen_http` or `listen_https` address (an HTTPS one where it had one), and no `lua_prefix`, `ucode_prefix` or `ubus_prefix` over the API\'s URLs.',
  ],
};

export default definition;
