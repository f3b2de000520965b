// WireGuard peers: sections of type `wireguard_<interface>` in the network package, read by the
// wireguard proto handler of that interface (OpenWrt 24.10 wireguard.sh: config_foreach
// proto_wireguard_setup_peer "wireguard_${config}", with config_get and config_get_bool; master's
// wireguard.uc compares booleans with '1', so only `1` is true on both). `interface` is the section
// type's suffix, not an option. After the reload a write is applied to the running device with
// `wg set` (engine/kernel.ts), as the spec's step 7 asks.

import type { FieldError } from '../../http/errors.js';
import { boolean, field, integer, list, text } from '../codecs.js';
import { IPV4, IPV6, PREFIX4, PREFIX6 } from '../addresses.js';
import { valueAt, type JsonObject, type ResourceDefinition, type RuleContext, type Rules } from '../model.js';
import { hostBitsSet, interfaceSection, others, WIREGUARD_KEY, WIREGUARD_PEER_FLAG } from './common.js';
import { conflict, given, strings } from '../checks.js';

/** wg's AllowedIPs: an address with an optional numeric prefix (no dotted masks). */
const ALLOWED_IP = { pattern: `^(${IPV4}(/${PREFIX4})?|${IPV6}(/${PREFIX6})?)$` };

/** A host name or an address; the handlers add the brackets around IPv6 themselves. */
const LABEL = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const ENDPOINT_HOST = { pattern: `^(${IPV4}|${IPV6}|${LABEL}(\\.${LABEL})*\\.?)$`, maxLength: 253 };

function interfaceErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const name = valueAt(body, 'interface');
  if (typeof name !== 'string') return [];
  const section = interfaceSection(context, name);
  return section?.options.get('proto') === 'wireguard' ? [] : [conflict('interface', `${name} is not a wireguard interface`)];
}

function keyErrors(body: JsonObject, context: RuleContext): FieldError[] {
  const key = valueAt(body, 'public_key');
  const name = valueAt(body, 'interface');
  if (typeof key !== 'string' || typeof name !== 'string') return [];
  const clash = others(context, `wireguard_${name}`).find((section) => section.options.get('public_key') === key);
  return clash ? [conflict('public_key', `peer ${clash.name} of ${name} has this public key; wg would merge the two`)] : [];
}

function endpointErrors(body: JsonObject): FieldError[] {
  return given(body, 'endpoint_port') && !given(body, 'endpoint_host') ? [conflict('endpoint_port', 'endpoint_port applies only with endpoint_host')] : [];
}

/** netifd adds a route per allowed IP; an IPv4 one with host bits fails or is masked, depending on the netifd version. */
function routeErrors(body: JsonObject): FieldError[] {
  if (valueAt(body, 'route_allowed_ips') !== true) return [];
  return strings(body, 'allowed_ips')
    .filter(([, cidr]) => hostBitsSet(cidr))
    .map(([where, cidr]) => conflict(where, `${cidr} has host bits set; with route_allowed_ips give the network address`));
}

export const rules: Rules = (body, context) => [
  ...interfaceErrors(body, context),
  ...keyErrors(body, context),
  ...endpointErrors(body),
  ...routeErrors(body),
];

const definition: ResourceDefinition = {
  path: 'network/wireguard_peers',
  package: 'network',
  type: 'wireguard_',
  typeBy: { field: 'interface', prefix: 'wireguard_' },
  kernel: 'wireguard',
  kind: 'collection',
  idPrefix: 'w_',
  reload: ['network'],
  description:
    'Peers of WireGuard interfaces (network/interfaces with proto wireguard). A peer is applied when its interface is set up, and ' +
    'to the running interface right after a write.',
  members: {
    interface: field(text({ pattern: '^[A-Za-z0-9_]+$', maxLength: 15 }), {
      required: true,
      description: 'The wireguard interface (network/interfaces id) the peer belongs to: the section type is wireguard_<interface>, not an option. Changing it moves the peer.',
    }),
    description: field(text({ maxLength: 255 }), { description: 'A label for people (LuCI shows it); the handlers ignore it.' }),
    public_key: field(text(WIREGUARD_KEY), { required: true, description: 'The peer\'s public key (base64, 44 characters). A peer without one is skipped.' }),
    preshared_key: field(text(WIREGUARD_KEY), { secret: true, description: 'Optional symmetric key shared with this peer (wg genpsk), for post-quantum resistance. Write-only.' }),
    private_key: field(text(WIREGUARD_KEY), {
      secret: true,
      description: 'The peer\'s own private key, kept only so a configuration for the peer can be generated (LuCI); the handlers ignore it. Write-only.',
    }),
    allowed_ips: field(list(ALLOWED_IP), {
      description: 'Addresses the peer may send from and that are routed to it inside the tunnel: `address[/prefix]` (a bare address is /32 or /128).',
    }),
    route_allowed_ips: field(boolean(WIREGUARD_PEER_FLAG), { description: 'Add a route through the interface for each of `allowed_ips`. Default false.' }),
    endpoint_host: field(text(ENDPOINT_HOST), { description: 'Where to reach the peer: host name or address (IPv6 without brackets). Omitted: wait for the peer to connect.' }),
    endpoint_port: field(integer({ minimum: 1, maximum: 65535 }), { description: 'UDP port of `endpoint_host`. Default 51820.' }),
    persistent_keepalive: field(integer({ minimum: 0, maximum: 65535 }), { description: 'Send a keepalive every this many seconds (through NAT); 0 off. Default off.' }),
    disabled: field(boolean(WIREGUARD_PEER_FLAG), { description: 'A disabled peer is left out of the interface. Written as 1/0; only `1` reads true on every release. Default false.' }),
  },
  references: [{ field: 'interface', package: 'network', type: 'interface' }],
  rules,
  checks: [
    '`interface` names an interface with proto wireguard.',
    '`public_key` is not used by another peer of the same interface.',
    '`endpoint_port` only with `endpoint_host`.',
    'With `route_allowed_ips`, IPv4 `allowed_ips` have no host bits set.',
  ],
};

export default definition;
