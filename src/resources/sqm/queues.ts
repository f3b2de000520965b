// `queue` sections as sqm-scripts 1.6.0 (33a89d8, OpenWrt 24.10 net/sqm-scripts) reads them: run.sh
// (src/run-openwrt.sh) exports each option to start-sqm, which fills what is unset from defaults.sh
// and runs the queue's script from /usr/lib/sqm; /etc/init.d/sqm reload stops and starts them all.
// Quirks: a second enabled queue on one interface is skipped (its state file exists); the scripts
// piece_of_cake.qos and layer_cake.qos always use cake, whatever `qdisc` says; the `*_advanced`
// options are LuCI's display switches, which no script reads; `target` (read into TARGET, which no
// shipped script uses) is not served. start-sqm writes every value into a state file that stop
// sources as shell: no value may hold a quote, `$`, backquote or backslash.

import type { FieldError } from '../../http/errors.js';
import { boolean, choice, field, integer, text } from '../codecs.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { conflict, optionText, outOfRange } from '../checks.js';

/** Each option as the scripts test it: `[ "$x" -eq 1 ]` or `= "1"`. */
const ONE = { truthy: ['1'] };
/** LuCI's Flag widget: `1` checked, anything else not. */
const LUCI_FLAG = ONE;
const CAKE_SCRIPTS = ['piece_of_cake.qos', 'layer_cake.qos'];
/** Extra tc words, split by the shell: letters, digits and `_ . , : / + % = -`. */
const TC_WORDS = { pattern: '^[A-Za-z0-9_.,:/+%= -]+$', maxLength: 255 };
/** get_target: a number with a tc time unit, or auto / default (unset: auto). */
const TARGET = { pattern: '^([0-9]+(s|sec|secs|ms|msec|msecs|us|usec|usecs)|auto|Auto|AUTO|default|Default|DEFAULT)$' };

const flag = (description: string) => field(boolean(ONE), { description });

/** The queue's link layer adaptation as get_stab_string and get_cake_lla_string decide it. */
function cakeAdaptation(body: JsonObject): boolean {
  const script = valueAt(body, 'script');
  const qdisc = typeof script === 'string' && CAKE_SCRIPTS.includes(script) ? 'cake' : valueAt(body, 'qdisc') ?? 'fq_codel';
  const mechanism = valueAt(body, 'linklayer_adaptation_mechanism') ?? 'default';
  return (mechanism === 'cake' || (mechanism === 'default' && qdisc === 'cake')) && (valueAt(body, 'linklayer') ?? 'none') !== 'none';
}

/** cake refuses an overhead outside -64..256 and an mpu above 256: the queue would not start. */
function cakeErrors(body: JsonObject): FieldError[] {
  if (!cakeAdaptation(body)) return [];
  const overhead = valueAt(body, 'overhead');
  const mpu = valueAt(body, 'tc_mpu');
  return [
    ...(typeof overhead === 'number' && (overhead < -64 || overhead > 256) ? [outOfRange('overhead', 'cake takes an overhead of -64 to 256')] : []),
    ...(typeof mpu === 'number' && mpu > 256 ? [outOfRange('tc_mpu', 'cake takes an mpu of 0 to 256')] : []),
  ];
}

function interfaceErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const device = valueAt(body, 'interface');
  if (valueAt(body, 'enabled') !== true) return [];
  const clash = context.read('sqm').sections.find(
    (section) => section.type === 'queue' && section.name !== context.id && optionText(section.options.get('interface')) === device && section.options.get('enabled') === '1',
  );
  return clash ? [conflict('interface', `queue ${clash.name} already shapes ${device}; sqm would skip this one`)] : [];
}

function scriptErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const script = valueAt(body, 'script');
  // sqm-scripts has no default script: start-sqm refuses a queue without one ("SCRIPT value is not defined").
  if (script == null) return valueAt(body, 'enabled') === true ? [conflict('script', 'an enabled queue needs a script; sqm-scripts has no default and starts none')] : [];
  // A name with a `/` is the format check's to refuse; no file outside /usr/lib/sqm is looked at.
  if (typeof script !== 'string' || script.includes('/') || context.file(`/usr/lib/sqm/${script}`) !== undefined) return [];
  return [conflict('script', `/usr/lib/sqm/${script} does not exist`)];
}

export const rules: Rules = (body, context) => [...interfaceErrors(body, context), ...scriptErrors(body, context), ...cakeErrors(body)];

const definition: ResourceDefinition = {
  path: 'sqm/queues',
  package: 'sqm',
  type: 'queue',
  kind: 'collection',
  idPrefix: 'q_',
  reload: ['sqm'],
  daemonPackage: 'sqm-scripts',
  description: 'Smart queue management of one network device: shaping to `download`/`upload` with an AQM queue discipline.',
  members: {
    enabled: flag('Shape this device. Default false.'),
    interface: field(text({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', maxLength: 15 }), {
      required: true,
      description: 'Kernel device name to shape (e.g. `eth1`, `pppoe-wan`), not a network/interfaces id.',
    }),
    download: field(integer({ minimum: 0, maximum: 2147483647 }), { description: 'Ingress rate in kbit/s; 0: not shaped. Default 14698.' }),
    upload: field(integer({ minimum: 0, maximum: 2147483647 }), { description: 'Egress rate in kbit/s; 0: not shaped. Default 2302.' }),
    qdisc: field(text({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 15 }), { description: 'Queue discipline (e.g. cake, fq_codel). Default fq_codel.' }),
    script: field(text({ pattern: '^[A-Za-z0-9_.-]+\\.qos$', maxLength: 64 }), {
      description: 'Setup script in /usr/lib/sqm, e.g. piece_of_cake.qos, layer_cake.qos, simple.qos, simplest.qos; an enabled queue needs one.',
    }),
    linklayer: field(choice(['none', 'ethernet', 'atm']), { description: 'Link layer whose framing is accounted for. Default none.' }),
    overhead: field(integer({ minimum: -1500, maximum: 1500 }), { description: 'Per-packet overhead in bytes (with `linklayer`). Default 0.' }),
    linklayer_adaptation_mechanism: field(choice(['default', 'cake', 'htb_private', 'tc_stab']), {
      description: 'How `linklayer` is applied; default: cake\'s own for cake, tc_stab otherwise.',
    }),
    tc_mtu: field(integer({ minimum: 0, maximum: 65535 }), { option: 'tcMTU', description: 'tc_stab/htb_private: largest packet size. Default 2047.' }),
    tc_tsize: field(integer({ minimum: 0, maximum: 65535 }), { option: 'tcTSIZE', description: 'tc_stab: size table entries. Default 512.' }),
    tc_mpu: field(integer({ minimum: 0, maximum: 65535 }), { option: 'tcMPU', description: 'Minimum packet size accounted. Default 0.' }),
    ingress_ecn: field(choice(['ECN', 'NOECN']), { description: 'ECN marking downstream (codel and pie qdiscs). Default ECN.' }),
    egress_ecn: field(choice(['ECN', 'NOECN']), { description: 'ECN marking upstream (codel and pie qdiscs). Default ECN.' }),
    itarget: field(text(TARGET), { description: 'Downstream AQM target (codel and pie qdiscs), e.g. 5ms. Default auto.' }),
    etarget: field(text(TARGET), { description: 'Upstream AQM target (codel and pie qdiscs), e.g. 5ms. Default auto.' }),
    // functions.sh get_limit passes `limit 0` on, and a queue of 0 packets drops every one.
    ilimit: field(integer({ minimum: 1, maximum: 4294967295 }), { description: 'Downstream queue limit in packets. Default 1001.' }),
    elimit: field(integer({ minimum: 1, maximum: 4294967295 }), { description: 'Upstream queue limit in packets. Default 1001.' }),
    iqdisc_opts: field(text(TC_WORDS), { description: 'Extra words for the downstream qdisc.' }),
    eqdisc_opts: field(text(TC_WORDS), { description: 'Extra words for the upstream qdisc.' }),
    squash_dscp: flag('Clear DSCP marks of downstream packets. Default true.'),
    squash_ingress: flag('Ignore DSCP marks downstream. Default true.'),
    qdisc_advanced: field(boolean(LUCI_FLAG), { description: 'LuCI shows the queue options; no script reads it.' }),
    qdisc_really_really_advanced: field(boolean(LUCI_FLAG), { description: 'LuCI shows the expert options; no script reads it.' }),
    linklayer_advanced: field(boolean(LUCI_FLAG), { description: 'LuCI shows the link layer options; no script reads it.' }),
    debug_logging: flag('Log each start and stop to files in /var/run/sqm. Default false.'),
    verbosity: field(integer({ minimum: 0, maximum: 10 }), { description: 'Syslog verbosity: 0 silent, 1 error, 2 warning, 5 info, 8 debug, 10 trace. Default 5.' }),
  },
  rules,
  checks: [
    'An enabled queue\'s `interface` is not that of another enabled queue.',
    '`script` exists in /usr/lib/sqm, and is given while `enabled` is true.',
    'Where cake applies `linklayer`, `overhead` is -64 to 256 and `tc_mpu` at most 256.',
  ],
};

export default definition;
