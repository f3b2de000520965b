// The daemons' resources as Terraform configurations set them: dropbear, uhttpd, Unbound (with
// unbound-uci-ext), sqm, lldpd, the Prometheus node exporter, vnStat and usteer. The replay router
// has every daemon package installed with its shipped configuration (test/support/daemons.ts), so
// the singletons exist before their create, and the stock dropbear `main`, uhttpd `main` and
// `defaults` and sqm `eth1` sections are there to import.
import type { ReplayCase } from '../case.js';

export const cases: ReplayCase[] = [
  {
    resource: 'uapi_dropbear_instance',
    create: {
      id: 'lan_ssh', enable: true, port: 2222, interface: 'lan', password_auth: false, root_password_auth: false, root_login: true, gateway_ports: false,
      banner_file: '/etc/banner',
    },
    update: { interface: 'lan wan', port: 2200, password_auth: true, gateway_ports: true, root_login: false },
    imports: 'main',
  },
  {
    resource: 'uapi_uhttpd_instance',
    create: {
      id: 'metrics_web', listen_http: ['0.0.0.0:8080', '[::]:8080'], listen_https: ['0.0.0.0:8443'], home: '/www', cert: '/etc/uhttpd.crt', key: '/etc/uhttpd.key',
      cgi_prefix: '/cgi-bin', lua_prefix: ['/lua=/usr/share/example.lua'], ucode_prefix: ['/ucode=/usr/share/example.uc'], index_page: ['index.html'],
      error_page: '/404.html', max_requests: 5, max_connections: 50, script_timeout: 30, network_timeout: 20, http_keepalive: 10, tcp_keepalive: 5,
      no_dirlists: true, no_symlinks: false, rfc1918_filter: true,
    },
    update: { listen_http: ['127.0.0.1:8080'], index_page: ['index.html', 'index.htm'], max_requests: 3, no_symlinks: true, http_keepalive: 0, lua_prefix: [] },
    imports: 'main',
  },
  {
    resource: 'uapi_uhttpd_cert',
    create: { id: 'lan_cert', commonname: 'router.lan', days: 397, bits: 2048, country: 'DE', state: 'Berlin', location: 'Berlin', organization: 'Example' },
    update: { days: 730, bits: 4096, organization: 'Example GmbH', commonname: 'gw.example.org' },
    imports: 'defaults',
  },
  {
    resource: 'uapi_unbound_server',
    create: {
      listen_port: 53, dhcp_link: 'odhcpd', add_local_fqdn: 3, add_wan_fqdn: 1, dnssec_enabled: true, domain: 'home.arpa', domain_type: 'static',
      extended_stats: true, hide_binddata: true, interface_auto: true, localservice: true, manual_conf: false, num_threads: 1, protocol: 'mixed',
      query_minimize: true, rebind_protection: '1', recursion: 'passive', resource_limits: 'small', ttl_min: 120,
    },
    update: { rebind_protection: '2', resource_limits: 'medium', domain_type: 'transparent', ttl_min: 300, dnssec_enabled: false, protocol: 'ip6_prefer', recursion: 'aggressive' },
  },
  {
    resource: 'uapi_unbound_srv',
    create: { enabled: true, interface_bind: ['127.0.0.1@5353', '::1@5353'], interface_outgoing: ['192.0.2.1'], ip_transparent: true, srv_line: ['serve-expired: yes'] },
    update: { srv_line: ['serve-expired: yes', 'harden-below-nxdomain: yes'], ip_transparent: false, interface_outgoing: ['192.0.2.1', '2001:db8::1'] },
  },
  {
    resource: 'uapi_unbound_ext',
    create: { enabled: true, ext_line: ['forward-zone:', '  name: "example.org"', '  forward-addr: 1.1.1.1'] },
    update: { ext_line: ['forward-zone:', '  name: "example.org"', '  forward-addr: 1.1.1.1', '  forward-addr: 1.0.0.1'] },
  },
  {
    resource: 'uapi_sqm_queue',
    create: { interface: 'pppoe-wan', enabled: true, script: 'piece_of_cake.qos', qdisc: 'cake', download: 50000, upload: 10000, linklayer: 'ethernet', overhead: 34 },
    update: { download: 60000, upload: 12000, overhead: 44, script: 'layer_cake.qos' },
    imports: 'eth1',
  },
  {
    resource: 'uapi_sqm_queue',
    title: 'disabled, without a script: sqm-scripts has no default one',
    create: { interface: 'eth2', download: 20000, upload: 5000 },
    update: { qdisc: 'fq_codel', linklayer: 'none', enabled: false },
  },
  {
    resource: 'uapi_lldpd_config',
    create: {
      enable_cdp: true, enable_edp: false, enable_fdp: false, enable_sonmp: false, interface: ['lan'], lldp_capabilities: true, lldp_class: 4,
      lldp_description: 'OpenWrt core router', lldp_mgmt_ip: '192.168.1.1',
    },
    update: { enable_edp: true, interface: ['lan', 'wan'], lldp_capabilities: false, lldp_class: 3, lldp_description: 'OpenWrt edge router' },
  },
  {
    resource: 'uapi_prometheus_node_exporter_lua_config',
    create: { listen_interface: 'lan', listen_port: 9100 },
    update: { listen_interface: '*', listen_port: 9101 },
  },
  {
    resource: 'uapi_vnstat_config',
    create: { interfaces: ['br-lan'] },
    update: { interfaces: ['br-lan', 'eth0'] },
  },
  {
    resource: 'uapi_usteer_config',
    create: {
      enabled: true, network: 'lan', syslog: true, debug_level: 2, ipv6: false, assoc_steering: false, ssid_list: ['OpenWrt'], event_log_types: ['signal_kick'],
      node_up_script: '/usr/bin/logger usteer-node-up', band_steering_threshold: 5, load_balancing_threshold: 0, local_sta_timeout: 120000, local_sta_update: 1000,
      max_neighbor_reports: 8, max_retry_band: 5, measurement_report_timeout: 120000, min_connect_snr: -80, min_snr: -85, min_snr_kick_delay: 5000,
      remote_node_timeout: 10, remote_update_interval: 1000, roam_kick_delay: 10000, roam_process_timeout: 5000, roam_scan_interval: 10000, roam_scan_snr: -70,
      roam_scan_tries: 3, roam_trigger_interval: 60000, roam_trigger_snr: -75, seen_policy_timeout: 30000, signal_diff_threshold: 0, sta_block_timeout: 30000,
    },
    update: { network: 'lan guest', assoc_steering: true, ssid_list: ['OpenWrt', 'OpenWrt-5G'], event_log_types: ['signal_kick', 'load_kick_client'], min_snr: -80, debug_level: 1 },
  },
];
