// The section `main` of /etc/config/prometheus-node-exporter-lua as its init script reads it
// (openwrt/packages utils/prometheus-node-exporter-lua, OpenWrt 24.10.2, 2025.06.23-6), by name
// (the resource serves it as the type the package ships): it runs uhttpd with the exporter as its Lua handler on the addresses of
// `listen_interface`, over HTTPS when both `cert` and `key` name existing files. Until that
// interface has an address the exporter does not start. `listen_ipv6` of earlier releases is read by
// nothing since both families are served.

import { field, integer, text } from '../codecs.js';
import type { ResourceDefinition, Rules } from '../model.js';
import { conflict, given } from '../checks.js';

/** A file path the script passes unquoted on uhttpd's command line: no whitespace or glob characters. */
const PATH = { pattern: '^[^\\s*?\\[]+$', maxLength: 255 };

/** The script serves HTTPS only with both files; one alone is ignored. */
export const rules: Rules = (body) =>
  given(body, 'cert') === given(body, 'key') ? [] : [conflict(given(body, 'cert') ? 'key' : 'cert', 'cert and key apply only together')];

const definition: ResourceDefinition = {
  path: 'prometheus_node_exporter_lua/config',
  package: 'prometheus-node-exporter-lua',
  type: 'prometheus-node-exporter-lua',
  section: 'main',
  kind: 'singleton',
  reload: ['prometheus-node-exporter-lua'],
  daemonPackage: 'prometheus-node-exporter-lua',
  description: 'The Prometheus node exporter served by uhttpd (section `main`).',
  members: {
    listen_interface: field(text({ pattern: '^([A-Za-z0-9_]+|\\*)$', maxLength: 32 }), {
      description: 'Network interface whose addresses it listens on, or `*` for all. Stock and default loopback.',
    }),
    listen_port: field(integer({ minimum: 1, maximum: 65535 }), { description: 'TCP port. Stock and default 9100.' }),
    // Passed as uhttpd -k only when above 0; uhttpd multiplies it by 1000 in a C int.
    http_keepalive: field(integer({ minimum: 0, maximum: 2147483 }), { description: 'HTTP keep-alive in seconds; 0 leaves uhttpd\'s 20. Default 70.' }),
    cert: field(text(PATH), { description: 'TLS certificate file; with `key`, HTTPS is served instead of HTTP.' }),
    key: field(text(PATH), { description: 'TLS private key file, with `cert`.' }),
  },
  rules,
  checks: ['`cert` and `key` are given together or not at all.'],
};

export default definition;
