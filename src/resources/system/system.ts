// The `system` domain's singleton: the first `system` section as OpenWrt 24.10 reads it:
// - /etc/init.d/system (base-files) validate_system_section: hostname, timezone, zonename, conloglevel
// - /etc/init.d/log (ubox) validate_log_section / validate_log_daemon: log_*
// - /etc/init.d/cron (busybox) and /usr/libexec/login.sh: cronloglevel, ttylogin (@system[0])
// - urandom-seed (/sbin/urandom_seed, /lib/preinit/81_urandom_seed): urandom_seed (@system[0])
// - LuCI's System page (luci-mod-system system.js): description, notes; read by LuCI only
// system and log apply every `system` section in turn (config_foreach), the others read @system[0]:
// the first section is the one that counts. The stock section is anonymous (config_generate).
// Every validate_data failure skips the whole section in that script: one bad `conloglevel` and
// /etc/init.d/system sets neither hostname nor timezone.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, SHELL_BOOLEAN, text } from '../codecs.js';
import { IPV4, IPV6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type Rules } from '../model.js';
import { conflict, given, utf8Length } from '../checks.js';

/** validate_data `host`: a host name (labels of letters, digits, `_` and `-`) or an address. */
export const VALIDATE_HOST = { pattern: `^(${IPV4}|${IPV6}|([A-Za-z0-9_-]{1,63}\\.)*[A-Za-z0-9_-]{1,63})$`, maxLength: 255 };

/** Text without control characters; a leading `-` would be an option to the init script's echo. */
const LINE = '[^\\x00-\\x1f\\x7f]';

/**
 * A POSIX TZ string as musl reads /tmp/TZ: a name (letters, or `<...>`) and an optional UTC offset,
 * then optionally a summer-time name, offset and `,start,end` rules (`Jn`, `n` or `Mm.w.d`, each
 * with an optional `/time`). Stock `UTC`; LuCI writes e.g. `CET-1CEST,M3.5.0,M10.5.0/3`.
 */
const TZ_NAME = '([A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)';
const TZ_OFFSET = '[+-]?[0-9]{1,2}(:[0-5]?[0-9](:[0-5]?[0-9])?)?';
const TZ_DATE = '(J(36[0-5]|3[0-5][0-9]|[12][0-9]{2}|[1-9][0-9]?)|(36[0-5]|3[0-5][0-9]|[12]?[0-9]{1,2})|M(1[0-2]|[1-9])\\.[1-5]\\.[0-6])';
const TZ_RULE = `${TZ_DATE}(/[+-]?[0-9]{1,3}(:[0-5]?[0-9](:[0-5]?[0-9])?)?)?`;
export const TIMEZONE = { pattern: `^${TZ_NAME}(${TZ_OFFSET}(${TZ_NAME}(${TZ_OFFSET})?(,${TZ_RULE},${TZ_RULE})?)?)?$`, maxLength: 64 };

/** A zoneinfo name; the init script turns spaces into `_`. No `.`: it names a file under /usr/share/zoneinfo. */
const ZONENAME = { pattern: '^[A-Za-z0-9_+-][A-Za-z0-9_+ -]*(/[A-Za-z0-9_+-][A-Za-z0-9_+ -]*)*$', maxLength: 64 };

/** The kernel keeps 64 bytes of a host name and silently drops the rest. */
function hostnameErrors(body: JsonObject): FieldError[] {
  const hostname = valueAt(body, 'hostname');
  return typeof hostname === 'string' && utf8Length(hostname) > 64
    ? [{ field: 'hostname', code: 'out_of_range', message: 'hostname is longer than the 64 bytes the kernel keeps' }]
    : [];
}

/**
 * Not `log_proto`: LuCI's System page writes it (`udp`) on every save, with or without `log_ip`, and
 * rules see the whole merged section, so refusing it would refuse every later write of such a router.
 */
const REMOTE_ONLY = ['log_port', 'log_hostname', 'log_prefix', 'log_trailer_null'];

/** logread sends to a remote collector only with `log_ip`; `-0` (log_trailer_null) only over tcp. */
function remoteErrors(body: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if (!given(body, 'log_ip')) {
    for (const path of REMOTE_ONLY) {
      if (given(body, path) && valueAt(body, path) !== false) errors.push(conflict(path, `${path} applies only with log_ip`));
    }
  }
  if (valueAt(body, 'log_trailer_null') === true && valueAt(body, 'log_proto') !== 'tcp') {
    errors.push(conflict('log_trailer_null', 'log_trailer_null applies only with log_proto tcp'));
  }
  return errors;
}

export const rules: Rules = (body) => [...hostnameErrors(body), ...remoteErrors(body)];

const flag = (description: string) => field(boolean(SHELL_BOOLEAN), { description });

const definition: ResourceDefinition = {
  path: 'system',
  package: 'system',
  type: 'system',
  kind: 'singleton',
  // cron reads cronloglevel only when it starts and has no reload; urandom_seed and ttylogin are read
  // at boot and at each console login.
  reload: ['system', 'log'],
  description: 'Host name, time zone, kernel and cron log levels, the system log buffer and its forwarding to a remote collector.',
  members: {
    hostname: field(text({ pattern: `^[^\\x00-\\x1f\\x7f-]${LINE}*$` }), {
      description: 'The router\'s host name (at most 64 bytes), also published in DNS by dnsmasq. Default OpenWrt.',
    }),
    description: field(text(), { description: 'A short description of the router, as LuCI shows it. Default: none.' }),
    notes: field(text(), { description: 'Free-form notes about the router, as LuCI keeps them; may span lines. Default: none.' }),
    timezone: field(text(TIMEZONE), {
      description: 'POSIX TZ rule of local time, e.g. `CET-1CEST,M3.5.0,M10.5.0/3`. Default UTC.',
    }),
    zonename: field(text(ZONENAME), {
      description: 'Zone name such as `Europe/Berlin`; used instead of `timezone` only when a zoneinfo package provides its file. Default: none.',
    }),
    conloglevel: field(integer({ minimum: 1, maximum: 8 }), {
      description: 'Kernel messages below this level go to the console (dmesg -n), 1 to 8. Default: the kernel\'s.',
    }),
    // busybox crond takes -l as xatoi_positive (0 to 2^31-1) and exits on a larger number.
    cronloglevel: field(integer({ minimum: 0, maximum: 2147483647 }), {
      description: 'crond log level, 0 most verbose; takes effect when cron next starts. Default 5.',
    }),
    // logd -S and logread -S multiply the KiB by 1024 in a C int (ubox log/logd.c main, logread.c main).
    log_size: field(integer({ minimum: 0, maximum: 2097151 }), {
      description: 'System log buffer in KiB (when `log_buffer_size` is unset), and the size at which `log_file` is rotated. Stock 128, default 64.',
    }),
    log_buffer_size: field(integer({ minimum: 0, maximum: 2097151 }), {
      description: 'System log buffer in KiB; 0 uses `log_size`. Default 0.',
    }),
    log_file: field(text({ pattern: `^/${LINE}*$`, maxLength: 255 }), {
      description: 'Also write the log to this file (rotated at `log_size`). Default: none.',
    }),
    log_remote: flag('Forward the log to `log_ip`. Default true.'),
    log_ip: field(text(VALIDATE_HOST), { description: 'Host name or address of a remote syslog collector. Default: none (no forwarding).' }),
    log_port: field(integer({ minimum: 1, maximum: 65535 }), { description: 'Port of the remote collector. Default 514.' }),
    log_proto: field(choice(['udp', 'tcp']), { description: 'Transport to the remote collector; ignored without `log_ip`. Default udp.' }),
    log_hostname: field(text({ pattern: `^${LINE}+$`, maxLength: 255 }), { description: 'Host name sent with forwarded messages. Default: the current host name.' }),
    log_prefix: field(text({ pattern: `^${LINE}+$`, maxLength: 255 }), { description: 'Prefix added to forwarded messages. Default: none.' }),
    log_trailer_null: flag('End forwarded messages with NUL instead of a newline (tcp only). Default false.'),
    ttylogin: field(boolean({ truthy: ['1'] }), {
      description: 'Ask for a password on the serial console; otherwise it logs in as root directly. Stock and default false.',
    }),
    // /sbin/urandom_seed saves a fresh seed at every boot to a value starting with `/` (and preinit
    // feeds it to the kernel); any other value leaves only /etc/urandom.seed, written once when missing.
    urandom_seed: field(boolean({ truthy: [], truthyPrefix: '/', spelled: ['/etc/urandom.seed', '0'] }), {
      description:
        'Save a fresh random seed at every boot, to be fed to the kernel at the next one; otherwise /etc/urandom.seed is written once and ' +
        'fed at every boot. true writes `/etc/urandom.seed` (a path already set is kept), false `0`. Stock false.',
    }),
  },
  rules,
  checks: [
    '`hostname` at most 64 bytes in UTF-8.',
    '`log_port`, `log_hostname`, `log_prefix` and `log_trailer_null` only with `log_ip`; `log_trailer_null` only with `log_proto` tcp.',
  ],
};

export default definition;
