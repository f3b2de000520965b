import { boolean, choice, field, FIREWALL4_BOOLEAN, firewall4Family, integer, list, text } from '../codecs.js';
import { conflict } from '../checks.js';
import type { FieldError } from '../../http/errors.js';
import type { JsonObject, ResourceDefinition, RuleContext, Rules } from '../model.js';
import {
  ADDRESS,
  COUNTER,
  familyCheck,
  familyErrors,
  LIMIT,
  POLICIES,
  SET_HELPER,
  ZONE_NAME,
} from './common.js';

const policy = (traffic: string) =>
  field(choice(POLICIES, { prefixes: true }), { description: `Verdict for ${traffic} without a rule of its own; default the firewall/defaults one.` });

/** Rules, redirects, nat and forwardings name a zone by its name, and firewall4 names its chains after it: two zones of one name collide. */
function duplicateNameErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const { name } = body;
  const taken = context.read('firewall').sections.some((section) => section.type === 'zone' && section.name !== context.id && section.options.get('name') === name);
  return typeof name === 'string' && taken ? [conflict('name', `another zone is already named ${name}`)] : [];
}

export const rules: Rules = (body, context) => [...familyErrors(body, 'family', ['subnets']), ...duplicateNameErrors(body, context)];

const definition: ResourceDefinition = {
  path: 'firewall/zones',
  package: 'firewall',
  type: 'zone',
  kind: 'collection',
  idPrefix: 'z_',
  reload: ['firewall'],
  description: 'Firewall zones: groups of networks, devices and subnets with default verdicts, masquerading and MSS clamping.',
  members: {
    name: field(text(ZONE_NAME), {
      required: true,
      description: 'The name rules, redirects, nat and forwardings refer to: a letter, `_` or `.`, then letters, digits and `/_.-`; at most 47 characters.',
    }),
    enabled: field(boolean(FIREWALL4_BOOLEAN), { description: 'A disabled zone is ignored by firewall4, and so is every section naming it. Default true.' }),
    input: policy('traffic from the zone to the router'),
    output_policy: field(choice(POLICIES, { prefixes: true }), { option: 'output', description: 'Verdict for traffic from the router to the zone without a rule of its own; default the firewall/defaults one.' }),
    forward: policy('traffic forwarded between the zone\'s own networks'),
    network: field(list({ pattern: '^!?[A-Za-z0-9_]+$' }), {
      description: 'Logical interfaces (network/interfaces ids) in the zone; `!` excludes one.',
    }),
    devices: field(list({ pattern: '^!?(\\+|[^\\s/"\\\\!*+]{1,15}\\+?)$' }), {
      option: 'device',
      description: 'Network devices in the zone; a trailing `+` matches a prefix (`eth+`), `+` alone any device; `!` excludes.',
    }),
    subnets: field(list(ADDRESS), { option: 'subnet', description: 'Addresses in the zone: address, `addr/prefix`, `addr/mask` or range; `!` excludes.' }),
    family: field(firewall4Family(), { description: 'Restrict the zone to one address family. Default both.' }),
    masq: field(boolean(FIREWALL4_BOOLEAN), { description: 'Masquerade IPv4 traffic leaving through the zone. Default false.' }),
    masq6: field(boolean(FIREWALL4_BOOLEAN), { description: 'Masquerade IPv6 traffic leaving through the zone. Default false.' }),
    masq_src: field(list(ADDRESS), { description: 'Masquerade only traffic from these addresses; `!` excludes.' }),
    masq_dest: field(list(ADDRESS), { description: 'Masquerade only traffic to these addresses; `!` excludes.' }),
    masq_allow_invalid: field(boolean(FIREWALL4_BOOLEAN), { description: 'Do not drop conntrack-invalid traffic to a masqueraded zone. Default false.' }),
    mtu_fix: field(boolean(FIREWALL4_BOOLEAN), { description: 'Clamp the TCP MSS of forwarded traffic to the path MTU. Default false.' }),
    // The templates test `zone.log & 1` and `& 2` only.
    log: field(integer({ minimum: 0, maximum: 3 }), { description: 'Bit mask: 1 logs rejected and dropped traffic, 2 logs MSS clamping. Default 0.' }),
    log_limit: field(text(LIMIT), { description: 'Rate limit of the zone\'s log messages: `N[/unit]`, unit a lower-case prefix of second, minute, hour or day.' }),
    auto_helper: field(boolean(FIREWALL4_BOOLEAN), {
      description: 'Attach every available conntrack helper to the zone\'s traffic; not on masqueraded zones, nor when firewall/defaults turns it off. Default true.',
    }),
    helpers: field(list(SET_HELPER), { option: 'helper', description: 'Conntrack helpers to attach explicitly, by their names in /usr/share/firewall4/helpers.' }),
    counter: COUNTER,
  },
  references: [{ field: 'network', package: 'network', type: 'interface', negation: '!' }],
  rules,
  checks: [
    familyCheck('family', ['subnets']),
    '`name` is no other zone\'s.',
  ],
};

export default definition;
