// What the snmpd resources share, as net-snmp 5.9.4 (OpenWrt 24.10 net/net-snmp 5.9.4-6) reads the
// lines /etc/init.d/snmpd writes to /var/run/snmpd.conf from /etc/config/snmpd. The script echoes
// each value unquoted after its directive: snmpd splits the line into words (copy_nword, which takes
// quotes and backslashes as its own syntax), so a name is one plain word, and a newline in any value
// would start a directive of its own.

import type { UciSection } from '../../uci/index.js';
import type { RuleContext } from '../model.js';

/** Characters of one word: no blank, control character, quote or backslash. */
const WORD = '\\s\\x00-\\x1f\\x7f"\'\\\\';
/** A group, security or view name: VACM refuses the line past 32 characters; a leading `-` would read as an option (`-Cn`). */
export const NAME = { pattern: `^[^${WORD}-][^${WORD}]{0,31}$` };
/** A community: one word of at most 256 characters. */
export const COMMUNITY = { pattern: `^[^${WORD}]{1,256}$` };

/** A host name, resolved once when snmpd starts; its last label starts with a letter, so no malformed address reads as one. */
export const HOSTNAME = '([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** The sections of these types, in file order. */
export function sectionsOf(context: RuleContext, ...types: string[]): UciSection[] {
  return context.read('snmpd').sections.filter((section) => types.includes(section.type));
}
