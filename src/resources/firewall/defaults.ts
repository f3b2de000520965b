import { boolean, choice, field, FIREWALL4_BOOLEAN, integer, integerOrName } from '../codecs.js';
import { valueAt, type ResourceDefinition, type Rules } from '../model.js';
import { LIMIT_WITH_UNIT, POLICIES } from './common.js';
import { conflict } from '../checks.js';

const flag = (description: string) => field(boolean(FIREWALL4_BOOLEAN), { description });
const policy = (traffic: string) =>
  field(choice(POLICIES, { prefixes: true }), { description: `Verdict for ${traffic} that no zone or rule decides. Default DROP.` });
const REJECT_CODES = ['tcp-reset', 'port-unreachable', 'admin-prohibited', 'host-unreachable', 'no-route'];

export const rules: Rules = (body) => {
  const legacy = valueAt(body, 'syn_flood');
  const preferred = valueAt(body, 'synflood_protect');
  if (typeof legacy !== 'boolean' || typeof preferred !== 'boolean' || legacy === preferred) return [];
  const message = 'syn_flood and synflood_protect name one setting and disagree; firewall4 would use synflood_protect';
  return [conflict('syn_flood', message), conflict('synflood_protect', message)];
};

const definition: ResourceDefinition = {
  path: 'firewall/defaults',
  package: 'firewall',
  type: 'defaults',
  kind: 'singleton',
  reload: ['firewall'],
  description: 'Global firewall settings (the first `defaults` section; firewall4 ignores any other). Without one, every policy is DROP.',
  members: {
    input: policy('traffic to the router'),
    output_policy: field(choice(POLICIES, { prefixes: true }), { option: 'output', description: 'Verdict for traffic from the router that no zone or rule decides. Default DROP.' }),
    forward: policy('forwarded traffic'),
    drop_invalid: flag('Drop traffic in conntrack state invalid. Default false.'),
    syn_flood: flag(
      'SYN flood protection, the legacy spelling the stock configuration uses. firewall4 reads it only while `synflood_protect` is ' +
        'unset; when both are given they must agree. Default false.',
    ),
    synflood_protect: flag('SYN flood protection, the spelling firewall4 and LuCI prefer; wins over `syn_flood`. Default false.'),
    // A plain number reads as an integer (uapi's provider has one); a rate with a unit as written.
    synflood_rate: field(integerOrName({ minimum: 1, maximum: 9007199254740991 }, LIMIT_WITH_UNIT), {
      description:
        'Rate of new TCP connections let through when SYN flood protection is on: per second as an integer, or a string ' +
        '`N/unit` (unit a lower-case prefix of second, minute, hour or day). Default 25 (per second).',
    }),
    synflood_burst: field(integer({ minimum: 0, maximum: 4294967295 }), { description: 'Burst of new TCP connections above `synflood_rate`; 0 leaves the kernel default of 5. Default 50.' }),
    tcp_syncookies: flag('Read by firewall4 but not applied by it (firewall3 set the kernel\'s TCP SYN cookies from it). Default true.'),
    tcp_reject_code: field(choice(REJECT_CODES, { prefixes: true }), { description: 'How REJECT answers TCP. Default tcp-reset.' }),
    any_reject_code: field(choice(REJECT_CODES, { prefixes: true }), { description: 'How REJECT answers other traffic. Default port-unreachable.' }),
    flow_offloading: flag('Software flow offloading of forwarded TCP and UDP connections. Default false.'),
    flow_offloading_hw: flag('Hardware flow offloading, with `flow_offloading`; firewall4 falls back to software where unsupported. Default false.'),
    auto_helper: flag('Let zones attach conntrack helpers automatically; false turns it off in every zone. Default true.'),
    auto_includes: flag('Include the nftables snippets under /usr/share/nftables.d. Default true.'),
  },
  rules,
  checks: [
    '`syn_flood` and `synflood_protect` name one setting: when both are given they must agree.',
  ],
};

export default definition;
