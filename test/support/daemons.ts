// Daemon packages a stock image lacks, installed into a test's emulated router: the init script
// stand-in (recording its verbs in var/log/init.log like the stock ones), the package's default
// configuration, and the files its rules look for. Without them a write answers 503
// init_script_missing, as on a router without the package.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { initScript } from '../../shims/emu/sandbox.js';
import type { Router } from './router.js';

// The configuration each package installs as /etc/config/<package>, from openwrt/packages at
// openwrt-24.10 (42525d32): every section and option as shipped, with their original spelling
// (unquoted and double-quoted values, tabs, a `package` line), and a few of its comment lines.

/** net/net-snmp/files/snmpd.conf (net-snmp 5.9.4-6). */
export const SNMPD_CONFIG = `config agent
	option agentaddress UDP:161,UDP6:161

config agentx
	option agentxsocket /var/run/agentx.sock

config com2sec public
	option secname ro
	option source default
	option community public

config com2sec private
	option secname rw
	option source localhost
	option community private

config com2sec6 public6
	option secname ro
	option source default
	option community public

config com2sec6 private6
	option secname rw
	option source localhost
	option community private

config group public_v1
	option group public
	option version v1
	option secname ro

config group public_v2c
	option group public
	option version v2c
	option secname ro

config group public_usm
	option group public
	option version usm
	option secname ro

config group private_v1
	option group private
	option version v1
	option secname rw

config group private_v2c
	option group private
	option version v2c
	option secname rw

config group private_usm
	option group private
	option version usm
	option secname rw

config view all
	option viewname all
	option type included
	option oid .1

config access public_access
	option group public
	option context none
	option version any
	option level noauth
	option prefix exact
	option read all
	option write none
	option notify none

config access private_access
	option group private
	option context none
	option version any
	option level noauth
	option prefix exact
	option read all
	option write all
	option notify all

config system
	option sysLocation	'office'
	option sysContact	'bofh@example.com'
	option sysName		'HeartOfGold'
#	option sysServices	72
#	option sysDescr		'adult playground'
#	option sysObjectID	'1.2.3.4'

config exec
	option name	filedescriptors
	option prog	/bin/cat
	option args	/proc/sys/fs/file-nr
#	option miboid	1.2.3.4

config engineid
#	option engineid 'LEDE'
	option engineidtype '3'
	option engineidnic 'eth0'

config snmpd general
	option enabled '1'
#	list network 'wan'
`;

/** tohojo/sqm-scripts platform/openwrt/sqm-uci at 33a89d8 (sqm-scripts 1.6.0), which the package installs. */
export const SQM_CONFIG = `
config queue 'eth1'
        option enabled '0'
        option interface 'eth1'
        option download '85000'
        option upload '10000'
        option qdisc 'cake'
        option script 'piece_of_cake.qos'
        option qdisc_advanced '0'
        option ingress_ecn 'ECN'
        option egress_ecn 'ECN'
        option qdisc_really_really_advanced '0'
        option itarget 'auto'
        option etarget 'auto'
        option linklayer 'none'

`;

/** net/openvpn/files/openvpn.config (openvpn 2.6.22-1): its sections, without most of its comments. */
export const OPENVPN_CONFIG = `package openvpn

#################################################
# Sample to include a custom config file.       #
#################################################

config openvpn custom_config

	# Set to 1 to enable this instance:
	option enabled 0

	# Include OpenVPN configuration
	option config /etc/openvpn/my-vpn.conf

config openvpn sample_server

	# Set to 1 to enable this instance:
	option enabled 0
	option port 1194
	option proto udp
	option dev tun
	option ca /etc/openvpn/ca.crt
	option cert /etc/openvpn/server.crt
	# This file should be kept secret:
	option key /etc/openvpn/server.key
	option dh /etc/openvpn/dh2048.pem
	option server "10.8.0.0 255.255.255.0"
	option ifconfig_pool_persist /tmp/ipp.txt
#	option client_to_client 1
	option keepalive "10 120"
	option persist_key 1
	option persist_tun 1
	option user nobody
	option status /tmp/openvpn-status.log
	option verb 3

config openvpn sample_client

	# Set to 1 to enable this instance:
	option enabled 0
	option client 1
	option dev tun
	option proto udp
	list remote "my_server_1 1194"
	option resolv_retry infinite
	option nobind 1
	option persist_key 1
	option persist_tun 1
	option user nobody
	option ca /etc/openvpn/ca.crt
	option cert /etc/openvpn/client.crt
	option key /etc/openvpn/client.key
	option verb 3
`;

/** The setup scripts sqm-scripts installs in /usr/lib/sqm, which sqm/queues' `script` names. */
export const SQM_SCRIPTS = ['simple.qos', 'simplest.qos', 'simplest_tbf.qos', 'piece_of_cake.qos', 'layer_cake.qos'];

export interface Daemon {
  /** The configuration package and the init script it reloads. */
  package: string;
  service: string;
  config: string;
  /** Other files the package installs that a rule reads, by router path. */
  files?: Record<string, string>;
}

export const DAEMONS = {
  snmpd: { package: 'snmpd', service: 'snmpd', config: SNMPD_CONFIG },
  sqm: {
    package: 'sqm',
    service: 'sqm',
    config: SQM_CONFIG,
    files: Object.fromEntries(SQM_SCRIPTS.map((script) => [`/usr/lib/sqm/${script}`, `# Stand-in for sqm-scripts' ${script}\n`])),
  },
  openvpn: { package: 'openvpn', service: 'openvpn', config: OPENVPN_CONFIG },
} satisfies Record<string, Daemon>;

function write(router: Router, routerPath: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(router.path(routerPath)), { recursive: true });
  writeFileSync(router.path(routerPath), text);
  chmodSync(router.path(routerPath), mode);
}

/**
 * Installs a daemon package as opkg would: its init script, its files and, unless `config` is false
 * (the package was installed and its configuration removed since), its default configuration.
 */
export function installDaemon(router: Router, daemon: Daemon, options: { config?: boolean } = {}): void {
  write(router, `/etc/init.d/${daemon.service}`, initScript(daemon.service), 0o755);
  for (const [path, text] of Object.entries(daemon.files ?? {})) write(router, path, text);
  if (options.config !== false) write(router, `/etc/config/${daemon.package}`, daemon.config);
}

/** Every daemon package above, as the tests that write to every resource need them. */
export function installDaemons(router: Router): void {
  for (const daemon of Object.values(DAEMONS)) installDaemon(router, daemon);
}
