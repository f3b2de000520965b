// The Terraform replay: for every resource of uapi's provider 3.0, the requests it sends for create,
// refresh, update with the prior state, import and destroy (test/support/terraform/replay.ts), with
// the configurations of test/support/terraform/cases/. Nothing may be refused, and every attribute
// must read back with the provider's type and the configured value: Terraform then reports no diff
// and no "inconsistent result after apply". WRTAPI_TERRAFORM=<text> runs the resources naming it.
import { readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Json } from '../../src/resources/model.js';
import { documentedRouter, type Router } from '../support/router.js';
import type { ReplayCase } from '../support/terraform/case.js';
import { provider3 } from '../support/terraform/provider3.js';
import { replay } from '../support/terraform/replay.js';

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
    for (const name of writable) if (!set.has(name) && name !== 'id') missing.push(`${resource.resource}.${name}`);
  }
  assert.equal(missing, [], 'resources or writable attributes no case sets');
});

test.run();
