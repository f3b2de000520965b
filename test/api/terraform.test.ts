// The Terraform replay: for every resource of uapi's provider 3.0, the requests it sends for create,
// refresh, update with the prior state, import and destroy (test/support/terraform/replay.ts), with
// the configurations of test/support/terraform/cases/. Nothing may be refused, and every attribute
// must read back with the provider's type and the configured value: Terraform then reports no diff
// and no "inconsistent result after apply". WRTAPI_TERRAFORM=<text> runs the resources naming it.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Json, JsonObject } from '../../src/resources/model.js';
import { projectRoot } from '../../shims/emu/project.js';
import { documentedRouter, type Router } from '../support/router.js';
import type { ReplayCase } from '../support/terraform/case.js';
import { parseHcl, resolve, type Block } from '../support/terraform/hcl.js';
import { provider3, READ_ONLY_HERE } from '../support/terraform/provider3.js';
import { create, plan, providerResource, replay, runtimeProblems, type Applied } from '../support/terraform/replay.js';

const directory = new URL('../support/terraform/cases/', import.meta.url);
const files = readdirSync(directory).filter((name) => name.endsWith('.js')).sort();
const byFile = new Map<string, ReplayCase[]>();
for (const name of files) byFile.set(name.replace(/\.js$/, ''), ((await import(new URL(name, directory).href)) as { cases: ReplayCase[] }).cases);
const only = process.env.WRTAPI_TERRAFORM;

for (const [file, cases] of byFile) {
  const chosen = cases.filter((item) => !only || item.resource.includes(only));
  if (!chosen.length) continue;
  test(`Terraform replay: ${file} (${chosen.length} resources as the provider drives them)`, async () => {
    const { router, authorization } = await documentedRouter('terraform');
    try {
      for (const item of chosen) await replay({ router, authorization }, item);
    } finally {
      await (router as Router).cleanup();
    }
  });
}

/** The README's Terraform section: its blocks, the provider's first. */
function readmeConfiguration(): Block[] {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Terraform'), readme.indexOf('\n## ', readme.indexOf('## Terraform') + 1));
  return [...section.matchAll(/```hcl\n([^]*?)```/g)].flatMap((match) => parseHcl(match[1]));
}

test('the README\'s Terraform configuration applies as the provider applies it, and plans again with no change', async () => {
  const blocks = readmeConfiguration();
  const provider = blocks.find((block) => block.type === 'provider');
  assert.match(String(provider?.body.endpoint), /^https:\/\/[^/]+\/api\/v3$/, 'the provider block points at /api/v3');
  const { router, authorization } = await documentedRouter('terraform');
  const client = { router, authorization };
  const variables: Record<string, string> = { wrtapi_token: authorization.slice('Bearer '.length), wg_private_key: randomBytes(32).toString('base64') };
  const applied = new Map<string, Applied>();
  const lookup = ([kind, name, attribute]: string[]) => (kind === 'var' ? variables[name] : applied.get(`${kind}.${name}`)?.state[attribute]);
  const resources = blocks.filter((block) => block.type === 'resource');
  assert.ok(resources.length >= 5, 'a zone, a rule, a DHCP host, a WireGuard interface and its peer');
  try {
    for (const block of resources) {
      const [type, name] = block.labels;
      applied.set(`${type}.${name}`, await create(client, providerResource(type), resolve(block.body, lookup) as JsonObject, `README ${type}.${name}`));
    }
    for (const block of resources) {
      const [type, name] = block.labels;
      await plan(client, providerResource(type), applied.get(`${type}.${name}`)!, resolve(block.body, lookup) as JsonObject, `README ${type}.${name}`);
    }
    const wg0 = applied.get('uapi_network_interface.wg0')!.state;
    const network = readFileSync(router.path('/etc/config/network'), 'utf8');
    assert.match(network, new RegExp(`config interface '${String(wg0.id)}'[^]*?option proto 'wireguard'[^]*?option listen_port '51820'`));
    assert.match(network, /config wireguard_wg0\b[^]*?option public_key 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg='/);
    assert.match(readFileSync(router.path('/etc/config/firewall'), 'utf8'), /option name 'vpn'[^]*?option network 'wg0'|option name 'vpn'[^]*?list network 'wg0'/);
    assert.match(readFileSync(router.path('/etc/config/dhcp'), 'utf8'), /option ip '192\.168\.1\.50'/);
  } finally {
    await router.cleanup();
  }
});

test('the interface data sources decode `runtime`: the LAN as netifd reports it up, every wireless interface', async () => {
  const { router, authorization } = await documentedRouter('terraform');
  try {
    const get = async (path: string) => (await router.request({ method: 'GET', path, headers: { Authorization: authorization } })).json as JsonObject;
    assert.equal(runtimeProblems('uapi_network_interface', await get('/network/interfaces/lan'), ['up', 'available', 'l3_device', 'uptime', 'ipv4_address', 'route']), []);
    const wireless = (await get('/wireless/interfaces')) as unknown as JsonObject[];
    assert.ok(wireless.length > 0, 'the emulated router has wireless interfaces');
    for (const item of wireless) assert.equal(runtimeProblems('uapi_wireless_interface', item), [], String(item.id));
  } finally {
    await router.cleanup();
  }
});

test('every resource of provider 3.0 has a case, and every attribute it writes is set by one', () => {
  const all = [...byFile.values()].flat();
  const names = (value: Json, prefix = ''): string[] =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value).flatMap(([key, inner]) => [prefix + key, ...names(inner, `${prefix}${key}.`)]) : [];
  const missing: string[] = [];
  for (const resource of provider3) {
    const mine = all.filter((item) => item.resource === resource.resource);
    if (!mine.length) {
      missing.push(resource.resource);
      continue;
    }
    const set = new Set(mine.flatMap((item) => [...names(item.create), ...names(item.update)]));
    const writable = Object.entries(resource.attributes).flatMap(([name, attribute]) =>
      attribute.use === 'computed' ? [] : attribute.type === 'object' ? Object.entries(attribute.attributes ?? {}).filter(([, inner]) => inner.use !== 'computed').map(([inner]) => `${name}.${inner}`) : [name],
    );
    for (const name of writable) if (!set.has(name) && name !== 'id' && !READ_ONLY_HERE[resource.resource]?.includes(name)) missing.push(`${resource.resource}.${name}`);
  }
  assert.equal(missing, [], 'resources or writable attributes no case sets');
});

test.run();
