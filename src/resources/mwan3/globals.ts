// The `globals` section as mwan3 2.11.16 (openwrt/packages openwrt-24.10, net/mwan3/files) reads it:
// lib/mwan3/common.sh mwan3_init (mmx_mask, source_routing) and lib/mwan3/mwan3.sh (rt_table_lookup,
// logging, loglevel), all by the section NAME `globals`. local_source and rtmon_interval, which
// older mwan3 read, are read by nothing in 2.11: a PUT drops them, a PATCH leaves them.
// mwan3_init keeps the mask it first read in /var/run/mwan3 until the service stops; the reload
// (stop, start) applies a new one.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, list, SHELL_BOOLEAN, text } from '../codecs.js';
import { valueAt, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { conflict, outOfRange, strings } from '../checks.js';
import { interfaceCount, interfaceRoom } from './common.js';

/** A routing table number, 1 to 2^32-1. */
const TABLE_ID = '(429496729[0-5]|42949672[0-8][0-9]|4294967[01][0-9]{2}|429496[0-6][0-9]{3}|42949[0-5][0-9]{4}|4294[0-8][0-9]{5}|429[0-3][0-9]{6}|42[0-8][0-9]{7}|4[01][0-9]{8}|[1-3][0-9]{9}|[1-9][0-9]{0,8})';

/** `ip route list table` resolves a name through /etc/iproute2/rt_tables. */
function tableErrors(body: Parameters<Rules>[0], context: RuleContext): FieldError[] {
  const names = (context.file('/etc/iproute2/rt_tables') ?? '').split('\n').map((line) => line.trim().split(/\s+/)[1]);
  return strings(body, 'rt_table_lookup')
    .filter(([, table]) => !/^\d+$/.test(table) && !['main', 'default', 'local'].includes(table) && !names.includes(table))
    .map(([where, table]) => conflict(where, `${table} is not a table of /etc/iproute2/rt_tables`));
}

function maskErrors(body: Parameters<Rules>[0], context: RuleContext): FieldError[] {
  const mask = valueAt(body, 'mmx_mask');
  const room = interfaceRoom(typeof mask === 'string' ? mask : undefined);
  if (room === undefined) return [outOfRange('mmx_mask', 'mmx_mask is a 32-bit mask, not 0')];
  const count = interfaceCount(context.read('mwan3'));
  if (room < 1 || count > room) return [conflict('mmx_mask', `mmx_mask leaves room for ${Math.max(room, 0)} interfaces; mwan3 has ${count}`)];
  return [];
}

export const rules: Rules = (body, context) => [...maskErrors(body, context), ...tableErrors(body, context)];

const definition: ResourceDefinition = {
  path: 'mwan3/globals',
  package: 'mwan3',
  type: 'globals',
  kind: 'singleton',
  reload: ['mwan3'],
  daemonPackage: 'mwan3',
  description: 'Global mwan3 settings: the firewall mark bits it uses, extra routing tables, rule logging.',
  members: {
    mmx_mask: field(text({ pattern: '^(0[xX][0-9A-Fa-f]{1,8}|[1-9][0-9]{0,9})$' }), {
      description: 'Firewall mark bits mwan3 owns (hex or decimal); n bits number 2^n-4 interfaces. Default 0x3F00.',
    }),
    source_routing: field(boolean(SHELL_BOOLEAN), {
      description: 'Keep the `from` prefix of source-specific default routes copied into the interface tables. Default false.',
    }),
    // ip reads table 0 as every table, and refuses a number past 32 bits.
    rt_table_lookup: field(list({ pattern: `^(${TABLE_ID}|[A-Za-z_][A-Za-z0-9_.-]*)$`, maxLength: 63 }, { listOnly: true }), {
      description: 'Further routing tables (number or rt_tables name) whose routes mwan3 copies and whose destinations bypass the policies.',
    }),
    logging: field(boolean({ truthy: ['1'] }), { description: 'Allow mwan3/rules to log with their `logging`. Default false.' }),
    loglevel: field(text({ pattern: '^([0-7]|emerg|alert|crit|error|warning|notice|info|debug|panic)$' }), {
      description: 'Syslog level of those log lines. Default notice.',
    }),
  },
  rules,
  checks: [
    '`mmx_mask` has at least 3 bits set, and enough for every mwan3/interfaces section (2^bits-4).',
    '`rt_table_lookup` names numbers, main, default, local or tables of /etc/iproute2/rt_tables.',
  ],
};

export default definition;
