// `openvpn` sections as /etc/init.d/openvpn reads them (openwrt/packages 24.10 net/openvpn 2.6.22,
// openvpn.init with openvpn.options): with `config`, openvpn runs that file and reads here only
// `dev`/`dev_type` (overrides) and the credentials; otherwise the script writes
// /var/etc/openvpn-<id>.conf from three name lists: OPENVPN_BOOLS (config_get_bool: a true one
// becomes a bare directive), OPENVPN_PARAMS (`<name> <value>`, one line per item of a list or per
// plain option, blanks and all: the script splits on newlines only) and OPENVPN_LIST (UCI lists
// only, joined by `:`). Names turn `_` into `-`. Values go into the file verbatim (push values in
// double quotes): openvpn splits them into words itself, so paths hold no blank, quote, backslash,
// `#` or `;`, and no value a newline. The instance runs while `enabled` (or `enable`) is true.
// `key`, `tls_auth`, `pkcs12`, `password` and `cert_password` are write-only. The rules refuse the
// combinations openvpn 2.6 exits on at start (options.c options_postprocess_verify_ce, helper.c
// helper_client_server); left to it, for the flash budget: an ifconfig_pool that ends before it
// starts or spans more than 65536 addresses, server_bridge on a device other than tap.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, list, SHELL_BOOLEAN, text, words } from '../codecs.js';
import { IPV4, IPV6, SERVICE_PORT } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { conflict, given, required } from '../checks.js';

const FILE = '/[^\\s"\'\\\\#;\\x00-\\x1f\\x7f]*';
const PATH = { pattern: `^${FILE}$`, maxLength: 255 };
/** A host name as musl resolves it (underscores too); its last label starts with a letter or `_`, so no malformed address reads as one. */
const HOST = '([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\\.)*[A-Za-z_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
const NAME = { pattern: '^[A-Za-z0-9_-]+$', maxLength: 64 };
const PROTOS = ['udp', 'tcp', 'udp4', 'udp6', 'tcp4', 'tcp6', 'tcp-server', 'tcp-client', 'tcp4-server', 'tcp4-client', 'tcp6-server', 'tcp6-client'];
const ROUTE_GATEWAY = `(${IPV4}|vpn_gateway|net_gateway|remote_host|default)`;
const LINE = '^[^"\\\\\\x00-\\x1f\\x7f]+$';
/** A credential the script writes to a file with echo: no control character, no leading `-` (echo would take it for an option). */
const CREDENTIAL = { pattern: '^[^-\\x00-\\x1f\\x7f][^\\x00-\\x1f\\x7f]*$', maxLength: 255 };
const FLAGS = '(local|autolocal|def1|bypass-dhcp|bypass-dns|block-local|ipv6|!ipv4)';
/** A word openvpn's parse_line keeps whole: plain, or in single quotes (a subject with blanks). */
const WORD = `('[^'\\x00-\\x1f\\x7f]+'|[^\\s"'\\\\#;\\x00-\\x1f\\x7f][^\\s"'\\\\\\x00-\\x1f\\x7f]*)`;
const COUNT = { minimum: 0, maximum: 2147483647 };

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });
const path = (description: string) => field(text(PATH), { description });
const lines = (item: string, description: string) => field(list({ pattern: item, maxLength: 255 }, { whole: true }), { description });

const SERVERS = ['server', 'server_ipv6', 'server_bridge'];
/** Options openvpn refuses together: each with any of its others. */
const EXCLUSIVE: [string, string[]][] = [
  ['client', [...SERVERS, 'tls_server']],
  ['tls_client', [...SERVERS, 'tls_server']],
  ['nobind', [...SERVERS, 'local', 'lport']],
  ['remote', SERVERS],
  ['server', ['server_bridge']],
  ['keepalive', ['ping', 'ping_restart']],
];

/** Read without `config` only: the script writes none of them then. */
const WITH_CONFIG = ['enabled', 'config', 'dev', 'dev_type', 'username', 'password', 'cert_password'];

/** A write-only option as the section will hold it: the body's, else the stored one a PUT keeps. */
function secretGiven(body: JsonObject, context: RuleContext, name: string): boolean {
  if (body[name] !== undefined) return given(body, name);
  return context.read('openvpn').sections.some((section) => section.name === context.id && section.options.has(name));
}

function ipv4Value(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function serverErrors(body: JsonObject): FieldError[] {
  const server = valueAt(body, 'server');
  const errors: FieldError[] = [];
  if (typeof server === 'string') {
    const [network, mask] = server.split(' ').map(ipv4Value);
    const host = 4294967295 - mask;
    if ((host & (host + 1)) !== 0 || (network & host) !== 0) errors.push(conflict('server', 'server needs a contiguous netmask and a network address'));
  }
  if (given(body, 'ifconfig_pool') && ((typeof server === 'string' && !server.endsWith('nopool')) || given(body, 'server_bridge'))) errors.push(conflict('ifconfig_pool', 'the server mode makes the pool'));
  // Set: true, text, a list, a number but a ping of 0 (none); lport 0 binds some port.
  const set = (name: string) => valueAt(body, name) !== false && given(body, name) && (valueAt(body, name) !== 0 || name === 'lport');
  for (const [name, others] of EXCLUSIVE) for (const other of others) if (set(name) && set(other)) errors.push(conflict(name, `${name} cannot be used with ${other}`));
  return errors;
}

function keyErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const errors: FieldError[] = [];
  const key = secretGiven(body, context, 'key');
  if (secretGiven(body, context, 'pkcs12')) for (const name of ['cert', 'key']) if (name === 'cert' ? given(body, 'cert') : key) errors.push(conflict(name, `${name} cannot be used with pkcs12`));
  if (given(body, 'cert') !== key) errors.push(required(key ? 'cert' : 'key', 'cert and key go together'));
  if (given(body, 'tls_crypt') && secretGiven(body, context, 'tls_auth')) errors.push(conflict('tls_crypt', 'tls_auth and tls_crypt are mutually exclusive'));
  return errors;
}

function otherErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const keepalive = valueAt(body, 'keepalive');
  if (typeof keepalive === 'string') {
    const [ping, restart] = keepalive.split(' ').map(Number);
    if (ping < 1 || restart < 2 * ping) errors.push(conflict('keepalive', 'keepalive needs an interval of at least 1 and a timeout of at least twice it'));
  }
  const dev = valueAt(body, 'dev');
  if (typeof dev === 'string' && !/^(tun|tap)/.test(dev) && !given(body, 'dev_type')) errors.push(required('dev_type', `openvpn cannot tell the type of ${dev}`));
  return errors;
}

export const rules: Rules = (body, context) => {
  if (given(body, 'config')) {
    const unread = Object.keys(body).filter((name) => !WITH_CONFIG.includes(name) && given(body, name) && body[name] !== false);
    return unread.length ? [conflict('config', `openvpn reads ${unread.join(', ')} only without config`)] : [];
  }
  return [...serverErrors(body), ...keyErrors(body, context), ...otherErrors(body)];
};

const definition: ResourceDefinition = {
  path: 'openvpn/instances',
  package: 'openvpn',
  type: 'openvpn',
  kind: 'collection',
  idPrefix: 'o_',
  reload: ['openvpn'],
  daemonPackage: 'openvpn-openssl',
  description: 'OpenVPN tunnels, each an openvpn process: its own `config` file, or the options below.',
  members: {
    enabled: flag('Run this instance. Default false.'),
    config: path('An openvpn config file to run instead of the options here.'),
    dev: field(text({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', maxLength: 15 }), { description: 'tun, tap, or a device name (with `dev_type`).' }),
    dev_type: field(choice(['tun', 'tap']), { description: 'Device type, when `dev` does not tell.' }),
    proto: field(choice(PROTOS), { description: 'Transport. Default udp.' }),
    port: field(integer({ minimum: 1, maximum: 65535 }), { description: 'Port, local and remote. Default 1194.' }),
    lport: field(integer({ minimum: 0, maximum: 65535 }), { description: 'Local port, 0 any.' }),
    rport: field(integer({ minimum: 1, maximum: 65535 }), { description: 'Remote port.' }),
    local: field(text({ pattern: `^(${HOST}|${IPV4}|${IPV6})$`, maxLength: 253 }), { description: 'Local address.' }),
    float: flag('Accept a peer changing address.'),
    remote: lines(`^(${HOST}|${IPV4}|${IPV6})( ${SERVICE_PORT}( (${PROTOS.join('|')}))?)?$`, 'Servers to connect to: `host [port [proto]]` each.'),
    remote_random: flag('Try `remote` in random order.'),
    resolv_retry: field(text({ pattern: '^(infinite|[0-9]{1,9})$' }), { description: 'Seconds to retry resolving `remote`, or infinite.' }),
    nobind: flag('Bind no local port (clients).'),
    client: flag('Client mode: TLS client that pulls options from the server.'),
    tls_client: flag('TLS client role.'),
    tls_server: flag('TLS server role.'),
    server: field(text({ pattern: `^${IPV4} ${IPV4}( nopool)?$` }), { description: 'Server mode for a subnet: `network netmask [nopool]`.' }),
    server_ipv6: field(text({ pattern: `^${IPV6}/(6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-4])$` }), { description: 'IPv6 pool of server mode, /64 to /124.' }),
    server_bridge: field(text({ pattern: `^(${IPV4} ${IPV4} ${IPV4} ${IPV4}|nogw)$` }), { description: 'Bridged server mode (tap): `gateway netmask pool-start pool-end`, or nogw.' }),
    topology: field(choice(['net30', 'p2p', 'subnet']), { description: 'Addressing of server mode. Default net30.' }),
    ifconfig: field(text({ pattern: `^(${IPV4}|${HOST}) (${IPV4}|${HOST})$` }), { description: '`local remote`, or `address netmask`.' }),
    ifconfig_pool: field(text({ pattern: `^${IPV4} ${IPV4}( ${IPV4})?$` }), { description: 'Client pool: `start end [netmask]`.' }),
    ifconfig_pool_persist: field(text({ pattern: `^${FILE}( [0-9]{1,9})?$`, maxLength: 255 }), { description: 'File keeping client addresses: `path [seconds]`.' }),
    client_to_client: flag('Route traffic between clients inside openvpn.'),
    duplicate_cn: flag('Allow several clients with one certificate name.'),
    max_clients: field(integer({ minimum: 1, maximum: 16777214 }), { description: 'Most clients at once.' }),
    keepalive: field(text({ pattern: '^[0-9]{1,6} [0-9]{1,6}$' }), { description: 'Ping and restart timeout in seconds: `interval timeout`.' }),
    ping: field(integer(COUNT), { description: 'Seconds between pings.' }),
    ping_restart: field(integer(COUNT), { description: 'Seconds of silence before a restart.' }),
    ca: path('CA certificate file.'),
    cert: path('Own certificate file; needs `key`.'),
    key: field(text(PATH), { secret: true, description: 'Own private key file. Write-only.' }),
    dh: field(text({ pattern: `^(none|${FILE})$`, maxLength: 255 }), { description: 'Diffie-Hellman parameters file (servers), or none for ECDH only.' }),
    tls_auth: field(text({ pattern: `^${FILE}( [01])?$`, maxLength: 255 }), { secret: true, description: 'HMAC key file `path [direction]`. Write-only.' }),
    tls_crypt: path('Key file encrypting the control channel.'),
    pkcs12: field(text(PATH), { secret: true, description: 'PKCS#12 file with CA, certificate and key. Write-only.' }),
    key_direction: field(integer({ minimum: 0, maximum: 1 }), { description: 'Direction of `tls_auth` keys: 0 or 1.' }),
    remote_cert_tls: field(choice(['client', 'server']), { description: 'Require the peer\'s certificate to be of this kind.' }),
    verify_x509_name: field(text({ pattern: `^${WORD}( (subject|name|name-prefix))?$`, maxLength: 255 }), { description: 'Peer certificate `name [subject|name|name-prefix]`.' }),
    crl_verify: field(text({ pattern: `^${FILE}( dir)?$`, maxLength: 255 }), { description: 'CRL file, or `path dir`.' }),
    cipher: field(text(NAME), { description: 'Legacy cipher of peers without cipher negotiation.' }),
    data_ciphers: field(list(NAME, { listOnly: true }), { description: 'Ciphers to negotiate, in order.' }),
    data_ciphers_fallback: field(text(NAME), { description: 'Cipher for peers that negotiate none.' }),
    ncp_ciphers: field(words(NAME, ':'), { description: 'Colon-separated; openvpn 2.6 reads it as `data_ciphers`.' }),
    // openvpn 2.6 removed ncp-disable and refuses to start with it.
    ncp_disable: field({ ...boolean(SHELL_BOOLEAN), schema: { type: 'boolean', enum: [false] } }, { description: 'False only: openvpn 2.6 refuses it.' }),
    auth: field(text(NAME), { description: 'HMAC digest, e.g. SHA256.' }),
    comp_lzo: field(choice(['yes', 'no', 'adaptive']), { description: 'LZO framing (legacy); sends compressed only with `allow_compression` yes.' }),
    compress: field(choice(['lzo', 'lz4', 'lz4-v2', 'stub', 'stub-v2', 'migrate', 'frames_only']), { description: 'Compression framing; frames_only: a bare `compress`.' }),
    allow_compression: field(choice(['yes', 'no', 'asym']), { description: 'Compress: yes, no, or asym (receive only).' }),
    verb: field(integer({ minimum: 0, maximum: 11 }), { description: 'Log verbosity 0 to 11. Default 1.' }),
    mute: field(integer(COUNT), { description: 'Most messages of a kind logged in a row.' }),
    persist_key: flag('Keep keys across restarts.'),
    persist_tun: flag('Keep the device across restarts.'),
    user: field(text({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,31}$' }), { description: 'User to drop privileges to.' }),
    group: field(text({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,31}$' }), { description: 'Group to drop privileges to.' }),
    status: field(text({ pattern: `^${FILE}( [0-9]{1,9})?$`, maxLength: 255 }), { description: 'Status file `path [seconds]`.' }),
    log: path('Log file, truncated at start (instead of syslog).'),
    log_append: path('Log file appended to (instead of syslog).'),
    push: lines(LINE, 'Options pushed to clients, one each.'),
    route: lines(`^(${IPV4}|${HOST})( (${IPV4}|default)( ${ROUTE_GATEWAY}( ([0-9]{1,9}|default))?)?)?$`, 'Routes: `network [netmask [gateway [metric]]]` each.'),
    route_gateway: field(text({ pattern: `^(${IPV4}|${HOST})$`, maxLength: 253 }), { description: 'Gateway of `route`, or dhcp.' }),
    route_ipv6: lines(`^${IPV6}/[0-9]{1,3}( (${IPV6}|default)( ([0-9]{1,9}|default))?)?$`, 'IPv6 routes: `network/bits [gateway [metric]]` each.'),
    redirect_gateway: field(text({ pattern: `^${FLAGS}( ${FLAGS})*$` }), { description: 'Route all traffic through the tunnel (clients), with flags such as def1.' }),
    username: field(text(CREDENTIAL), { description: 'User name the client authenticates with.' }),
    password: field(text(CREDENTIAL), { secret: true, description: 'Its password. Write-only.' }),
    cert_password: field(text(CREDENTIAL), { secret: true, description: 'Passphrase of `key`. Write-only.' }),
  },
  rules,
  checks: [
    'With `config`, no field but `enabled`, `dev`, `dev_type`, `username`, `password` and `cert_password`.',
    '`server` is a network address with a contiguous netmask.',
    'Not together: `server`, `server_ipv6` or `server_bridge` and `client`, `tls_client`, `nobind` or `remote`; `server` and `server_bridge`; `ifconfig_pool` and `server_bridge` or `server` (but nopool); `tls_server` and `client` or `tls_client`; `nobind` and `local` or `lport`; `keepalive` and `ping` or `ping_restart`.',
    '`cert` and `key` together, neither with `pkcs12`; `tls_crypt` not with `tls_auth`.',
    '`keepalive` has a timeout at least twice its interval; a `dev` not named tun or tap needs `dev_type`.',
  ],
};

export default definition;
