// Provider 3.0 as wrtapi's replay test speaks it: the 2.x attributes (provider.ts, extracted from the
// provider's source) with the changes of its migration guide (docs/guides/migration-v2-to-v3.md at
// c4ec5eb) and, where the v3 spec states a shape, the spec's.
import { provider2 } from './provider.js';

export type AttributeType = 'string' | 'boolean' | 'integer' | 'list' | 'object' | 'unknown';

export interface Attribute {
  type: AttributeType;
  /** required; optional (optional+computed); clear (optional, cleared when omitted); secret (write-only); computed (read only). */
  use: 'required' | 'optional' | 'clear' | 'secret' | 'computed';
  createOnly?: boolean;
  attributes?: Record<string, Attribute>;
}

export interface ProviderResource {
  resource: string;
  path: string;
  kind: 'collection' | 'singleton';
  attributes: Record<string, Attribute>;
}

/** The guide's "Drop the attributes 3.0 removes outright", and the renames it asks for. */
const REMOVED: Record<string, string[]> = {
  uapi_network_interface: ['name'],
  uapi_dhcp_host: ['mac', 'mac_aliases'],
  uapi_prometheus_node_exporter_lua_config: ['boottime', 'cpu', 'diskstats', 'edac', 'entropy', 'filesystem', 'hwmon', 'loadavg', 'meminfo', 'netdev', 'netstat', 'stat', 'textfile', 'thermal_zone', 'time', 'uname', 'vmstat'],
  uapi_vnstat_config: ['database_dir', 'interface_5min_hours', 'month_rotate'],
  uapi_mwan3_globals: ['local_source', 'rtmon_interval'],
  uapi_unbound_server: ['enabled', 'prefetch'],
  uapi_usteer_config: ['max_assoc_sta'],
  uapi_lldpd_config: ['enable_lldpmed'],
};

const ADDED: Record<string, Record<string, Attribute>> = {
  uapi_dhcp_host: { macs: { type: 'list', use: 'optional' } },
  uapi_vnstat_config: { interfaces: { type: 'list', use: 'optional' } },
};

/** The guide: `ipaddr` is read-only in 3.0, a view of the first `ipaddrs` entry. */
const READ_ONLY: Record<string, string[]> = { uapi_network_interface: ['ipaddr'] };

/**
 * Attributes the provider writes and wrtapi keeps read-only, as the README says: a write may send back
 * what a read gives, never another value. snmpd_system `sys_services`: the init script passes it on
 * under a directive snmpd ignores, so no write could change what snmpd answers.
 */
export const READ_ONLY_HERE: Record<string, string[]> = { uapi_snmpd_system: ['sys_services'] };

/** The spec's shapes where the 2.x provider differs: redirect match fields are scalars; a host's tags a list. */
const SPEC: Record<string, Record<string, AttributeType>> = {
  'uapi_firewall_redirect.match': { src_ip: 'string', src_port: 'string', src_dport: 'string', dest_ip: 'string', dest_port: 'string' },
  uapi_dhcp_host: { tag: 'list' },
};

function retype(attributes: Record<string, Attribute>, key: string): Record<string, Attribute> {
  const types = SPEC[key] ?? {};
  const result: Record<string, Attribute> = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    result[name] = { ...attribute, ...(types[name] ? { type: types[name] } : {}) };
    if (attribute.attributes) result[name].attributes = retype(attribute.attributes, `${key}.${name}`);
  }
  return result;
}

export const provider3: ProviderResource[] = provider2
  .filter((resource) => resource.resource !== 'uapi_vnstat_interface')
  .map((resource) => {
    const attributes = retype(resource.attributes, resource.resource);
    for (const name of REMOVED[resource.resource] ?? []) delete attributes[name];
    for (const name of READ_ONLY[resource.resource] ?? []) attributes[name] = { ...attributes[name], use: 'computed' };
    return { ...resource, attributes: { ...attributes, ...ADDED[resource.resource] } };
  });

/** A runtime member: a scalar's type, or a list of objects with these members' types. */
export type RuntimeMember = AttributeType | { items: Record<string, AttributeType> };

const ADDRESS: RuntimeMember = { items: { address: 'string', mask: 'integer' } };

/**
 * The `runtime` block the provider's data sources decode (internal/provider/runtime_data_sources.go):
 * only uapi_network_interface and uapi_wireless_interface read one.
 */
export const runtimes: Record<string, Record<string, RuntimeMember>> = {
  uapi_network_interface: {
    up: 'boolean',
    pending: 'boolean',
    available: 'boolean',
    l3_device: 'string',
    uptime: 'integer',
    ipv4_address: ADDRESS,
    ipv6_address: ADDRESS,
    ipv6_prefix: ADDRESS,
    route: { items: { target: 'string', mask: 'integer', nexthop: 'string', source: 'string' } },
  },
  uapi_wireless_interface: {
    ifname: 'string',
    bssid: 'string',
    channel: 'integer',
    frequency: 'integer',
    signal: 'integer',
    noise: 'integer',
    txpower_actual: 'integer',
    assoclist_count: 'integer',
  },
};
