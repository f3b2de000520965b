// Written by test/support/terraform/extract.py from openwrt-iac/terraform-provider-uapi at
// 3cbcbb7f50e495b06bfab6a6d97f2fb01145624b: each generated resource's attributes, what its body() sends and its read() decodes.
// `use`: required, optional (optional+computed: sent whenever known), clear (optional, cleared when
// omitted), secret (write-only), computed (read only). provider3() applies the 3.0 changes.
import type { ProviderResource } from './provider3.js';

export const provider2: ProviderResource[] = [
 {
  "resource": "uapi_dhcp_dnsmasq",
  "path": "dhcp/dnsmasq",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "address": {
    "type": "list",
    "use": "optional"
   },
   "authoritative": {
    "type": "boolean",
    "use": "optional"
   },
   "boguspriv": {
    "type": "boolean",
    "use": "optional"
   },
   "cachesize": {
    "type": "integer",
    "use": "optional"
   },
   "domain": {
    "type": "string",
    "use": "optional"
   },
   "domainneeded": {
    "type": "boolean",
    "use": "optional"
   },
   "expandhosts": {
    "type": "boolean",
    "use": "optional"
   },
   "filterwin2k": {
    "type": "boolean",
    "use": "optional"
   },
   "leasefile": {
    "type": "string",
    "use": "optional"
   },
   "local": {
    "type": "string",
    "use": "optional"
   },
   "nonwildcard": {
    "type": "boolean",
    "use": "optional"
   },
   "noresolv": {
    "type": "boolean",
    "use": "optional"
   },
   "port": {
    "type": "integer",
    "use": "optional"
   },
   "readethers": {
    "type": "boolean",
    "use": "optional"
   },
   "rebind_protection": {
    "type": "boolean",
    "use": "optional"
   },
   "resolvfile": {
    "type": "string",
    "use": "optional"
   },
   "server": {
    "type": "list",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_dhcp_host",
  "path": "dhcp/hosts",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "broadcast": {
    "type": "boolean",
    "use": "optional"
   },
   "dns": {
    "type": "boolean",
    "use": "optional"
   },
   "duid": {
    "type": "string",
    "use": "optional"
   },
   "hostid": {
    "type": "string",
    "use": "optional"
   },
   "instance": {
    "type": "string",
    "use": "optional"
   },
   "ip": {
    "type": "string",
    "use": "optional"
   },
   "leasetime": {
    "type": "string",
    "use": "optional"
   },
   "mac": {
    "type": "string",
    "use": "optional"
   },
   "mac_aliases": {
    "type": "list",
    "use": "optional"
   },
   "name": {
    "type": "string",
    "use": "optional"
   },
   "tag": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_dhcp_odhcpd",
  "path": "dhcp/odhcpd",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "leasefile": {
    "type": "string",
    "use": "optional"
   },
   "leasetrigger": {
    "type": "string",
    "use": "optional"
   },
   "loglevel": {
    "type": "integer",
    "use": "optional"
   },
   "maindhcp": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_dhcp_server",
  "path": "dhcp/servers",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "dhcp_option": {
    "type": "list",
    "use": "optional"
   },
   "dhcpv6": {
    "type": "string",
    "use": "optional"
   },
   "domain": {
    "type": "string",
    "use": "optional"
   },
   "dynamicdhcp": {
    "type": "boolean",
    "use": "optional"
   },
   "force": {
    "type": "boolean",
    "use": "optional"
   },
   "ignore": {
    "type": "boolean",
    "use": "optional"
   },
   "interface": {
    "type": "string",
    "use": "required"
   },
   "leasetime": {
    "type": "string",
    "use": "optional"
   },
   "limit": {
    "type": "integer",
    "use": "optional"
   },
   "ra": {
    "type": "string",
    "use": "optional"
   },
   "ra_default": {
    "type": "integer",
    "use": "optional"
   },
   "start": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_dropbear_instance",
  "path": "dropbear/instances",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "banner_file": {
    "type": "string",
    "use": "optional"
   },
   "enable": {
    "type": "boolean",
    "use": "optional"
   },
   "gateway_ports": {
    "type": "boolean",
    "use": "optional"
   },
   "interface": {
    "type": "string",
    "use": "optional"
   },
   "password_auth": {
    "type": "boolean",
    "use": "optional"
   },
   "port": {
    "type": "integer",
    "use": "optional"
   },
   "root_login": {
    "type": "boolean",
    "use": "optional"
   },
   "root_password_auth": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_firewall_defaults",
  "path": "firewall/defaults",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "drop_invalid": {
    "type": "boolean",
    "use": "optional"
   },
   "flow_offloading": {
    "type": "boolean",
    "use": "optional"
   },
   "flow_offloading_hw": {
    "type": "boolean",
    "use": "optional"
   },
   "forward": {
    "type": "string",
    "use": "optional"
   },
   "input": {
    "type": "string",
    "use": "optional"
   },
   "output_policy": {
    "type": "string",
    "use": "optional"
   },
   "syn_flood": {
    "type": "boolean",
    "use": "optional"
   },
   "synflood_burst": {
    "type": "integer",
    "use": "optional"
   },
   "synflood_rate": {
    "type": "integer",
    "use": "optional"
   },
   "tcp_syncookies": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_firewall_forwarding",
  "path": "firewall/forwardings",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "dest": {
    "type": "string",
    "use": "required"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "family": {
    "type": "string",
    "use": "optional"
   },
   "src": {
    "type": "string",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_firewall_redirect",
  "path": "firewall/redirects",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "name": {
    "type": "string",
    "use": "optional"
   },
   "reflection": {
    "type": "boolean",
    "use": "optional"
   },
   "reflection_src": {
    "type": "string",
    "use": "optional"
   },
   "reflection_zone": {
    "type": "list",
    "use": "optional"
   },
   "target": {
    "type": "string",
    "use": "optional"
   },
   "match": {
    "type": "object",
    "use": "required",
    "attributes": {
     "src_zone": {
      "type": "string",
      "use": "required"
     },
     "dest_zone": {
      "type": "string",
      "use": "optional"
     },
     "src_ip": {
      "type": "list",
      "use": "optional"
     },
     "src_port": {
      "type": "list",
      "use": "optional"
     },
     "src_dport": {
      "type": "list",
      "use": "optional"
     },
     "dest_ip": {
      "type": "list",
      "use": "optional"
     },
     "dest_port": {
      "type": "list",
      "use": "optional"
     },
     "proto": {
      "type": "list",
      "use": "optional"
     },
     "family": {
      "type": "string",
      "use": "optional"
     }
    }
   }
  }
 },
 {
  "resource": "uapi_firewall_rule",
  "path": "firewall/rules",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "name": {
    "type": "string",
    "use": "optional"
   },
   "target": {
    "type": "string",
    "use": "required"
   },
   "match": {
    "type": "object",
    "use": "required",
    "attributes": {
     "src_zone": {
      "type": "string",
      "use": "required"
     },
     "dest_zone": {
      "type": "string",
      "use": "optional"
     },
     "src_ip": {
      "type": "list",
      "use": "optional"
     },
     "src_port": {
      "type": "list",
      "use": "optional"
     },
     "dest_ip": {
      "type": "list",
      "use": "optional"
     },
     "dest_port": {
      "type": "list",
      "use": "optional"
     },
     "proto": {
      "type": "list",
      "use": "optional"
     },
     "family": {
      "type": "string",
      "use": "optional"
     }
    }
   }
  }
 },
 {
  "resource": "uapi_firewall_zone",
  "path": "firewall/zones",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "family": {
    "type": "string",
    "use": "optional"
   },
   "forward": {
    "type": "string",
    "use": "optional"
   },
   "input": {
    "type": "string",
    "use": "optional"
   },
   "masq": {
    "type": "boolean",
    "use": "optional"
   },
   "mtu_fix": {
    "type": "boolean",
    "use": "optional"
   },
   "name": {
    "type": "string",
    "use": "required"
   },
   "network": {
    "type": "list",
    "use": "optional"
   },
   "output_policy": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_lldpd_config",
  "path": "lldpd/config",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enable_cdp": {
    "type": "boolean",
    "use": "optional"
   },
   "enable_edp": {
    "type": "boolean",
    "use": "optional"
   },
   "enable_fdp": {
    "type": "boolean",
    "use": "optional"
   },
   "enable_lldpmed": {
    "type": "boolean",
    "use": "optional"
   },
   "enable_sonmp": {
    "type": "boolean",
    "use": "optional"
   },
   "interface": {
    "type": "list",
    "use": "optional"
   },
   "lldp_capabilities": {
    "type": "boolean",
    "use": "optional"
   },
   "lldp_class": {
    "type": "integer",
    "use": "optional"
   },
   "lldp_description": {
    "type": "boolean",
    "use": "optional"
   },
   "lldp_mgmt_ip": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_mwan3_globals",
  "path": "mwan3/globals",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "local_source": {
    "type": "string",
    "use": "optional"
   },
   "logging": {
    "type": "boolean",
    "use": "optional"
   },
   "loglevel": {
    "type": "string",
    "use": "optional"
   },
   "mmx_mask": {
    "type": "string",
    "use": "optional"
   },
   "rtmon_interval": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_mwan3_interface",
  "path": "mwan3/interfaces",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "check_quality": {
    "type": "boolean",
    "use": "optional"
   },
   "down": {
    "type": "integer",
    "use": "optional"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "failure_interval": {
    "type": "integer",
    "use": "optional"
   },
   "failure_latency": {
    "type": "integer",
    "use": "optional"
   },
   "failure_loss": {
    "type": "integer",
    "use": "optional"
   },
   "family": {
    "type": "string",
    "use": "required"
   },
   "flush_conntrack": {
    "type": "list",
    "use": "optional"
   },
   "interval": {
    "type": "integer",
    "use": "optional"
   },
   "keep_failure_interval": {
    "type": "boolean",
    "use": "optional"
   },
   "max_ttl": {
    "type": "integer",
    "use": "optional"
   },
   "probe_count": {
    "type": "integer",
    "use": "optional"
   },
   "recovery_interval": {
    "type": "integer",
    "use": "optional"
   },
   "recovery_latency": {
    "type": "integer",
    "use": "optional"
   },
   "recovery_loss": {
    "type": "integer",
    "use": "optional"
   },
   "reliability": {
    "type": "integer",
    "use": "optional"
   },
   "size": {
    "type": "integer",
    "use": "optional"
   },
   "timeout": {
    "type": "integer",
    "use": "optional"
   },
   "track_ip": {
    "type": "list",
    "use": "optional"
   },
   "track_method": {
    "type": "string",
    "use": "optional"
   },
   "up": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_mwan3_member",
  "path": "mwan3/members",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "interface": {
    "type": "string",
    "use": "required"
   },
   "metric": {
    "type": "integer",
    "use": "optional"
   },
   "weight": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_mwan3_policy",
  "path": "mwan3/policies",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "last_resort": {
    "type": "string",
    "use": "optional"
   },
   "use_members": {
    "type": "list",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_mwan3_rule",
  "path": "mwan3/rules",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "dest_ip": {
    "type": "string",
    "use": "optional"
   },
   "dest_port": {
    "type": "string",
    "use": "optional"
   },
   "family": {
    "type": "string",
    "use": "optional"
   },
   "ipset": {
    "type": "string",
    "use": "optional"
   },
   "logging": {
    "type": "boolean",
    "use": "optional"
   },
   "proto": {
    "type": "string",
    "use": "optional"
   },
   "src_ip": {
    "type": "string",
    "use": "optional"
   },
   "src_port": {
    "type": "string",
    "use": "optional"
   },
   "sticky": {
    "type": "boolean",
    "use": "optional"
   },
   "timeout": {
    "type": "integer",
    "use": "optional"
   },
   "use_policy": {
    "type": "string",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_network_bridge_vlan",
  "path": "network/bridge_vlans",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "device": {
    "type": "string",
    "use": "required"
   },
   "ports": {
    "type": "list",
    "use": "optional"
   },
   "vlan": {
    "type": "integer",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_network_device",
  "path": "network/devices",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "ifname": {
    "type": "string",
    "use": "optional"
   },
   "ipv6": {
    "type": "boolean",
    "use": "optional"
   },
   "macaddr": {
    "type": "string",
    "use": "optional"
   },
   "mtu": {
    "type": "integer",
    "use": "optional"
   },
   "name": {
    "type": "string",
    "use": "required"
   },
   "ports": {
    "type": "list",
    "use": "optional"
   },
   "type": {
    "type": "string",
    "use": "optional"
   },
   "vid": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_network_interface",
  "path": "network/interfaces",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "addresses": {
    "type": "list",
    "use": "optional"
   },
   "auto": {
    "type": "boolean",
    "use": "optional"
   },
   "clientid": {
    "type": "string",
    "use": "optional"
   },
   "defaultroute": {
    "type": "boolean",
    "use": "optional"
   },
   "delegate": {
    "type": "boolean",
    "use": "optional"
   },
   "device": {
    "type": "string",
    "use": "optional"
   },
   "dns": {
    "type": "list",
    "use": "optional"
   },
   "gateway": {
    "type": "string",
    "use": "clear"
   },
   "has_private_key": {
    "type": "boolean",
    "use": "computed"
   },
   "hostname": {
    "type": "string",
    "use": "optional"
   },
   "ip4table": {
    "type": "string",
    "use": "optional"
   },
   "ip6assign": {
    "type": "integer",
    "use": "optional"
   },
   "ip6hint": {
    "type": "string",
    "use": "optional"
   },
   "ip6ifaceid": {
    "type": "string",
    "use": "optional"
   },
   "ip6table": {
    "type": "string",
    "use": "optional"
   },
   "ipaddr": {
    "type": "string",
    "use": "optional"
   },
   "ipaddrs": {
    "type": "list",
    "use": "optional"
   },
   "listen_port": {
    "type": "integer",
    "use": "optional"
   },
   "metric": {
    "type": "integer",
    "use": "optional"
   },
   "mtu": {
    "type": "integer",
    "use": "optional"
   },
   "name": {
    "type": "unknown",
    "use": "clear"
   },
   "netmask": {
    "type": "string",
    "use": "clear"
   },
   "nohostroute": {
    "type": "boolean",
    "use": "optional"
   },
   "peerdns": {
    "type": "boolean",
    "use": "optional"
   },
   "private_key": {
    "type": "string",
    "use": "secret"
   },
   "proto": {
    "type": "string",
    "use": "required"
   },
   "reqaddress": {
    "type": "string",
    "use": "optional"
   },
   "reqprefix": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_network_route",
  "path": "network/routes",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "gateway": {
    "type": "string",
    "use": "optional"
   },
   "interface": {
    "type": "string",
    "use": "optional"
   },
   "metric": {
    "type": "integer",
    "use": "optional"
   },
   "mtu": {
    "type": "integer",
    "use": "optional"
   },
   "netmask": {
    "type": "string",
    "use": "optional"
   },
   "source": {
    "type": "string",
    "use": "optional"
   },
   "table": {
    "type": "integer",
    "use": "optional"
   },
   "target": {
    "type": "string",
    "use": "required"
   },
   "type": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_network_rule",
  "path": "network/rules",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "action": {
    "type": "string",
    "use": "optional"
   },
   "dest": {
    "type": "string",
    "use": "optional"
   },
   "goto": {
    "type": "integer",
    "use": "optional"
   },
   "in": {
    "type": "string",
    "use": "optional"
   },
   "invert": {
    "type": "boolean",
    "use": "optional"
   },
   "lookup": {
    "type": "integer",
    "use": "optional"
   },
   "mark": {
    "type": "string",
    "use": "optional"
   },
   "out": {
    "type": "string",
    "use": "optional"
   },
   "priority": {
    "type": "integer",
    "use": "optional"
   },
   "src": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_network_wireguard_peer",
  "path": "network/wireguard_peers",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "allowed_ips": {
    "type": "list",
    "use": "required"
   },
   "description": {
    "type": "string",
    "use": "optional"
   },
   "disabled": {
    "type": "boolean",
    "use": "optional"
   },
   "endpoint_host": {
    "type": "string",
    "use": "optional"
   },
   "endpoint_port": {
    "type": "integer",
    "use": "optional"
   },
   "has_preshared_key": {
    "type": "boolean",
    "use": "computed"
   },
   "interface": {
    "type": "string",
    "use": "required"
   },
   "persistent_keepalive": {
    "type": "integer",
    "use": "optional"
   },
   "preshared_key": {
    "type": "string",
    "use": "secret"
   },
   "public_key": {
    "type": "string",
    "use": "required"
   },
   "route_allowed_ips": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_openvpn_instance",
  "path": "openvpn/instances",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "auth": {
    "type": "string",
    "use": "optional"
   },
   "ca": {
    "type": "string",
    "use": "optional"
   },
   "cert": {
    "type": "string",
    "use": "optional"
   },
   "cipher": {
    "type": "string",
    "use": "optional"
   },
   "client": {
    "type": "boolean",
    "use": "optional"
   },
   "client_to_client": {
    "type": "boolean",
    "use": "optional"
   },
   "comp_lzo": {
    "type": "string",
    "use": "optional"
   },
   "compress": {
    "type": "string",
    "use": "optional"
   },
   "crl_verify": {
    "type": "string",
    "use": "optional"
   },
   "dev": {
    "type": "string",
    "use": "optional"
   },
   "dev_type": {
    "type": "string",
    "use": "optional"
   },
   "dh": {
    "type": "string",
    "use": "optional"
   },
   "duplicate_cn": {
    "type": "boolean",
    "use": "optional"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "float": {
    "type": "boolean",
    "use": "optional"
   },
   "group": {
    "type": "string",
    "use": "optional"
   },
   "has_key": {
    "type": "boolean",
    "use": "computed"
   },
   "has_pkcs12": {
    "type": "boolean",
    "use": "computed"
   },
   "has_tls_auth": {
    "type": "boolean",
    "use": "computed"
   },
   "ifconfig": {
    "type": "string",
    "use": "optional"
   },
   "ifconfig_pool": {
    "type": "string",
    "use": "optional"
   },
   "keepalive": {
    "type": "string",
    "use": "optional"
   },
   "key": {
    "type": "string",
    "use": "secret"
   },
   "local": {
    "type": "string",
    "use": "optional"
   },
   "log": {
    "type": "string",
    "use": "optional"
   },
   "log_append": {
    "type": "string",
    "use": "optional"
   },
   "lport": {
    "type": "integer",
    "use": "optional"
   },
   "mute": {
    "type": "integer",
    "use": "optional"
   },
   "ncp_ciphers": {
    "type": "string",
    "use": "optional"
   },
   "ncp_disable": {
    "type": "boolean",
    "use": "optional"
   },
   "nobind": {
    "type": "boolean",
    "use": "optional"
   },
   "persist_key": {
    "type": "boolean",
    "use": "optional"
   },
   "persist_tun": {
    "type": "boolean",
    "use": "optional"
   },
   "ping": {
    "type": "integer",
    "use": "optional"
   },
   "ping_restart": {
    "type": "integer",
    "use": "optional"
   },
   "pkcs12": {
    "type": "string",
    "use": "secret"
   },
   "port": {
    "type": "integer",
    "use": "optional"
   },
   "proto": {
    "type": "string",
    "use": "optional"
   },
   "push": {
    "type": "list",
    "use": "optional"
   },
   "remote": {
    "type": "list",
    "use": "optional"
   },
   "remote_cert_tls": {
    "type": "string",
    "use": "optional"
   },
   "route": {
    "type": "list",
    "use": "optional"
   },
   "route_gateway": {
    "type": "string",
    "use": "optional"
   },
   "rport": {
    "type": "integer",
    "use": "optional"
   },
   "server": {
    "type": "string",
    "use": "optional"
   },
   "server_bridge": {
    "type": "string",
    "use": "optional"
   },
   "status": {
    "type": "string",
    "use": "optional"
   },
   "tls_auth": {
    "type": "string",
    "use": "secret"
   },
   "tls_client": {
    "type": "boolean",
    "use": "optional"
   },
   "tls_crypt": {
    "type": "string",
    "use": "optional"
   },
   "tls_server": {
    "type": "boolean",
    "use": "optional"
   },
   "topology": {
    "type": "string",
    "use": "optional"
   },
   "user": {
    "type": "string",
    "use": "optional"
   },
   "verb": {
    "type": "integer",
    "use": "optional"
   },
   "verify_x509_name": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_prometheus_node_exporter_lua_config",
  "path": "prometheus_node_exporter_lua/config",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "boottime": {
    "type": "boolean",
    "use": "optional"
   },
   "cpu": {
    "type": "boolean",
    "use": "optional"
   },
   "diskstats": {
    "type": "boolean",
    "use": "optional"
   },
   "edac": {
    "type": "boolean",
    "use": "optional"
   },
   "entropy": {
    "type": "boolean",
    "use": "optional"
   },
   "filesystem": {
    "type": "boolean",
    "use": "optional"
   },
   "hwmon": {
    "type": "boolean",
    "use": "optional"
   },
   "listen_interface": {
    "type": "string",
    "use": "optional"
   },
   "listen_ipv6": {
    "type": "boolean",
    "use": "optional"
   },
   "listen_port": {
    "type": "integer",
    "use": "optional"
   },
   "loadavg": {
    "type": "boolean",
    "use": "optional"
   },
   "meminfo": {
    "type": "boolean",
    "use": "optional"
   },
   "netdev": {
    "type": "boolean",
    "use": "optional"
   },
   "netstat": {
    "type": "boolean",
    "use": "optional"
   },
   "stat": {
    "type": "boolean",
    "use": "optional"
   },
   "textfile": {
    "type": "boolean",
    "use": "optional"
   },
   "thermal_zone": {
    "type": "boolean",
    "use": "optional"
   },
   "time": {
    "type": "boolean",
    "use": "optional"
   },
   "uname": {
    "type": "boolean",
    "use": "optional"
   },
   "vmstat": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_snmpd_access",
  "path": "snmpd/accesses",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "context": {
    "type": "string",
    "use": "optional"
   },
   "group": {
    "type": "string",
    "use": "required"
   },
   "level": {
    "type": "string",
    "use": "optional"
   },
   "notify": {
    "type": "string",
    "use": "optional"
   },
   "prefix": {
    "type": "string",
    "use": "optional"
   },
   "read": {
    "type": "string",
    "use": "optional"
   },
   "version": {
    "type": "string",
    "use": "optional"
   },
   "write": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_snmpd_agent",
  "path": "snmpd/agents",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "agentaddress": {
    "type": "list",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_snmpd_com2sec",
  "path": "snmpd/com2secs",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "community": {
    "type": "string",
    "use": "required"
   },
   "secname": {
    "type": "string",
    "use": "required"
   },
   "source": {
    "type": "string",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_snmpd_group",
  "path": "snmpd/groups",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "group": {
    "type": "string",
    "use": "required"
   },
   "secname": {
    "type": "string",
    "use": "optional"
   },
   "version": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_snmpd_system",
  "path": "snmpd/system",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "sys_contact": {
    "type": "string",
    "use": "optional"
   },
   "sys_descr": {
    "type": "string",
    "use": "optional"
   },
   "sys_location": {
    "type": "string",
    "use": "optional"
   },
   "sys_name": {
    "type": "string",
    "use": "optional"
   },
   "sys_object_id": {
    "type": "string",
    "use": "optional"
   },
   "sys_services": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_sqm_queue",
  "path": "sqm/queues",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "download": {
    "type": "integer",
    "use": "optional"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "interface": {
    "type": "string",
    "use": "required"
   },
   "linklayer": {
    "type": "string",
    "use": "optional"
   },
   "overhead": {
    "type": "integer",
    "use": "optional"
   },
   "qdisc": {
    "type": "string",
    "use": "optional"
   },
   "script": {
    "type": "string",
    "use": "optional"
   },
   "upload": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_system",
  "path": "system",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "description": {
    "type": "string",
    "use": "optional"
   },
   "hostname": {
    "type": "string",
    "use": "optional"
   },
   "log_ip": {
    "type": "string",
    "use": "optional"
   },
   "log_proto": {
    "type": "string",
    "use": "optional"
   },
   "log_remote": {
    "type": "boolean",
    "use": "optional"
   },
   "log_size": {
    "type": "integer",
    "use": "optional"
   },
   "notes": {
    "type": "string",
    "use": "optional"
   },
   "timezone": {
    "type": "string",
    "use": "optional"
   },
   "urandom_seed": {
    "type": "boolean",
    "use": "optional"
   },
   "zonename": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_system_timeserver",
  "path": "system/timeservers",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enable_server": {
    "type": "boolean",
    "use": "optional"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "interface": {
    "type": "string",
    "use": "optional"
   },
   "server": {
    "type": "list",
    "use": "optional"
   },
   "use_dhcp": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_uhttpd_cert",
  "path": "uhttpd/certs",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "bits": {
    "type": "integer",
    "use": "optional"
   },
   "commonname": {
    "type": "string",
    "use": "required"
   },
   "country": {
    "type": "string",
    "use": "optional"
   },
   "days": {
    "type": "integer",
    "use": "optional"
   },
   "location": {
    "type": "string",
    "use": "optional"
   },
   "organization": {
    "type": "string",
    "use": "optional"
   },
   "state": {
    "type": "string",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_uhttpd_instance",
  "path": "uhttpd/instances",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "cert": {
    "type": "string",
    "use": "optional"
   },
   "cgi_prefix": {
    "type": "string",
    "use": "optional"
   },
   "error_page": {
    "type": "string",
    "use": "optional"
   },
   "home": {
    "type": "string",
    "use": "optional"
   },
   "http_keepalive": {
    "type": "integer",
    "use": "optional"
   },
   "index_page": {
    "type": "list",
    "use": "optional"
   },
   "key": {
    "type": "string",
    "use": "optional"
   },
   "listen_http": {
    "type": "list",
    "use": "optional"
   },
   "listen_https": {
    "type": "list",
    "use": "optional"
   },
   "lua_prefix": {
    "type": "list",
    "use": "optional"
   },
   "max_connections": {
    "type": "integer",
    "use": "optional"
   },
   "max_requests": {
    "type": "integer",
    "use": "optional"
   },
   "network_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "no_dirlists": {
    "type": "boolean",
    "use": "optional"
   },
   "no_symlinks": {
    "type": "boolean",
    "use": "optional"
   },
   "rfc1918_filter": {
    "type": "boolean",
    "use": "optional"
   },
   "script_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "tcp_keepalive": {
    "type": "integer",
    "use": "optional"
   },
   "ucode_prefix": {
    "type": "list",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_unbound_ext",
  "path": "unbound/ext",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "ext_line": {
    "type": "list",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_unbound_server",
  "path": "unbound/server",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "add_local_fqdn": {
    "type": "integer",
    "use": "optional"
   },
   "add_wan_fqdn": {
    "type": "integer",
    "use": "optional"
   },
   "dhcp_link": {
    "type": "string",
    "use": "optional"
   },
   "dnssec_enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "domain": {
    "type": "string",
    "use": "optional"
   },
   "domain_type": {
    "type": "string",
    "use": "optional"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "extended_stats": {
    "type": "boolean",
    "use": "optional"
   },
   "hide_binddata": {
    "type": "boolean",
    "use": "optional"
   },
   "interface_auto": {
    "type": "boolean",
    "use": "optional"
   },
   "listen_port": {
    "type": "integer",
    "use": "optional"
   },
   "localservice": {
    "type": "boolean",
    "use": "optional"
   },
   "manual_conf": {
    "type": "boolean",
    "use": "optional"
   },
   "num_threads": {
    "type": "integer",
    "use": "optional"
   },
   "prefetch": {
    "type": "boolean",
    "use": "optional"
   },
   "protocol": {
    "type": "string",
    "use": "optional"
   },
   "query_minimize": {
    "type": "boolean",
    "use": "optional"
   },
   "rebind_protection": {
    "type": "string",
    "use": "optional"
   },
   "recursion": {
    "type": "string",
    "use": "optional"
   },
   "resource_limits": {
    "type": "string",
    "use": "optional"
   },
   "ttl_min": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_unbound_srv",
  "path": "unbound/srv",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "interface_bind": {
    "type": "list",
    "use": "optional"
   },
   "interface_outgoing": {
    "type": "list",
    "use": "optional"
   },
   "ip_transparent": {
    "type": "boolean",
    "use": "optional"
   },
   "srv_line": {
    "type": "list",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_usteer_config",
  "path": "usteer/config",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "assoc_steering": {
    "type": "boolean",
    "use": "optional"
   },
   "band_steering_threshold": {
    "type": "integer",
    "use": "optional"
   },
   "debug_level": {
    "type": "integer",
    "use": "optional"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "event_log_types": {
    "type": "list",
    "use": "optional"
   },
   "ipv6": {
    "type": "boolean",
    "use": "optional"
   },
   "load_balancing_threshold": {
    "type": "integer",
    "use": "optional"
   },
   "local_sta_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "local_sta_update": {
    "type": "integer",
    "use": "optional"
   },
   "max_assoc_sta": {
    "type": "integer",
    "use": "optional"
   },
   "max_neighbor_reports": {
    "type": "integer",
    "use": "optional"
   },
   "max_retry_band": {
    "type": "integer",
    "use": "optional"
   },
   "measurement_report_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "min_connect_snr": {
    "type": "integer",
    "use": "optional"
   },
   "min_snr": {
    "type": "integer",
    "use": "optional"
   },
   "min_snr_kick_delay": {
    "type": "integer",
    "use": "optional"
   },
   "network": {
    "type": "string",
    "use": "optional"
   },
   "node_up_script": {
    "type": "string",
    "use": "optional"
   },
   "remote_node_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "remote_update_interval": {
    "type": "integer",
    "use": "optional"
   },
   "roam_kick_delay": {
    "type": "integer",
    "use": "optional"
   },
   "roam_process_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "roam_scan_interval": {
    "type": "integer",
    "use": "optional"
   },
   "roam_scan_snr": {
    "type": "integer",
    "use": "optional"
   },
   "roam_scan_tries": {
    "type": "integer",
    "use": "optional"
   },
   "roam_trigger_interval": {
    "type": "integer",
    "use": "optional"
   },
   "roam_trigger_snr": {
    "type": "integer",
    "use": "optional"
   },
   "seen_policy_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "signal_diff_threshold": {
    "type": "integer",
    "use": "optional"
   },
   "ssid_list": {
    "type": "list",
    "use": "optional"
   },
   "sta_block_timeout": {
    "type": "integer",
    "use": "optional"
   },
   "syslog": {
    "type": "boolean",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_vnstat_config",
  "path": "vnstat/config",
  "kind": "singleton",
  "attributes": {
   "id": {
    "type": "string",
    "use": "computed"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "database_dir": {
    "type": "string",
    "use": "optional"
   },
   "interface_5min_hours": {
    "type": "integer",
    "use": "optional"
   },
   "month_rotate": {
    "type": "integer",
    "use": "optional"
   }
  }
 },
 {
  "resource": "uapi_vnstat_interface",
  "path": "vnstat/interfaces",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "enabled": {
    "type": "boolean",
    "use": "optional"
   },
   "interface": {
    "type": "string",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_wireless_device",
  "path": "wireless/devices",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "band": {
    "type": "string",
    "use": "optional"
   },
   "channel": {
    "type": "integer",
    "use": "optional"
   },
   "country": {
    "type": "string",
    "use": "optional"
   },
   "disabled": {
    "type": "boolean",
    "use": "optional"
   },
   "htmode": {
    "type": "string",
    "use": "optional"
   },
   "txpower": {
    "type": "integer",
    "use": "optional"
   },
   "type": {
    "type": "string",
    "use": "required"
   }
  }
 },
 {
  "resource": "uapi_wireless_interface",
  "path": "wireless/interfaces",
  "kind": "collection",
  "attributes": {
   "id": {
    "type": "string",
    "use": "optional"
   },
   "managed": {
    "type": "boolean",
    "use": "computed"
   },
   "device": {
    "type": "string",
    "use": "required"
   },
   "disabled": {
    "type": "boolean",
    "use": "optional"
   },
   "encryption": {
    "type": "string",
    "use": "optional"
   },
   "has_key": {
    "type": "boolean",
    "use": "computed"
   },
   "hidden": {
    "type": "boolean",
    "use": "optional"
   },
   "isolate": {
    "type": "boolean",
    "use": "optional"
   },
   "key": {
    "type": "string",
    "use": "secret"
   },
   "mode": {
    "type": "string",
    "use": "optional"
   },
   "network": {
    "type": "string",
    "use": "optional"
   },
   "ssid": {
    "type": "string",
    "use": "optional"
   }
  }
 }
];
