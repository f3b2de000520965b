// dhcp/servers' runtime: the active leases of each served interface, counted in the daemons' lease
// files as dhcp/leases and dhcp/leases6 read them. dnsmasq's IPv4 lease lines name no interface: a
// lease counts for the interface whose static subnet holds its address. odhcpd's name the device.
import type { UciSection } from '../../uci/index.js';
import { optionText } from '../checks.js';
import type { Json, JsonObject, RuntimeOf } from '../model.js';
import { ipv4Number, staticAddress } from './common.js';
import { viewSourcePath } from '../views.js';
import { parse as parseLease, source as source4 } from './leases.js';
import { parse as parseLease6, source as source6 } from './leases6.js';

/** The static IPv4 subnets of an interface, as netifd reads `ipaddr` (CIDR, or with `netmask`). */
function subnets(section: UciSection | undefined): { address: number; prefix: number }[] {
  if (!section || optionText(section.options.get('proto')) !== 'static') return [];
  const ipaddr = section.options.get('ipaddr') ?? [];
  const netmask = optionText(section.options.get('netmask'));
  return (typeof ipaddr === 'string' ? ipaddr.split(/\s+/) : ipaddr).flatMap((entry) => staticAddress(entry, netmask) ?? []);
}

function lines(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter(Boolean);
}

export const runtimeOf: RuntimeOf = async (bodies, { read, file, now }) => {
  const [dhcp, network] = [await read('dhcp'), await read('network')];
  // Where the views read.
  const path4 = viewSourcePath(dhcp, 'dnsmasq', source4);
  const path6 = viewSourcePath(dhcp, 'odhcpd', source6);
  const active = (lease: JsonObject) => lease.expires_at === null || (lease.expires_at as number) > now;
  const active4 = lines(path4 && file(path4)).flatMap((line) => parseLease(line) ?? []).filter(active);
  const active6 = lines(path6 && file(path6)).flatMap((line) => parseLease6(line) ?? []).filter(active);
  const byId = new Map<string, Json>();
  for (const body of bodies) {
    const served = network.sections.find((section) => section.type === 'interface' && section.name === body.interface);
    const own = subnets(served);
    const inSubnet = (ip: number) => own.some(({ address, prefix }) => Math.floor(ip / 2 ** (32 - prefix)) === Math.floor(address / 2 ** (32 - prefix)));
    const device = served && optionText(served.options.get('device'));
    byId.set(body.id as string, {
      leases: active4.filter((lease) => inSubnet(ipv4Number(lease.ip as string))).length,
      leases6: device === undefined ? 0 : active6.filter((lease) => lease.interface === device).length,
    });
  }
  return byId;
};
