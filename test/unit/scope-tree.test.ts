import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SCOPE_TREE } from '../../src/auth/scope-tree.js';
import { allResources } from '../../src/engine/tables.js';

const RESOURCES = await allResources();

// The scope tree is the spec's table, kept by hand until every curated resource has a definition;
// this keeps the two from drifting for the resources that do.
test('every curated definition is in the scope tree', async () => {
  assert.ok(RESOURCES.length >= 6);
  for (const entry of RESOURCES) {
    const { domain, sub } = entry.scope;
    assert.ok(SCOPE_TREE.has(domain), `${entry.path}: domain ${domain}`);
    if (sub !== undefined) assert.ok(SCOPE_TREE.get(domain)!.includes(sub), `${entry.path}: ${domain}:${sub}`);
    assert.is((await entry.module()).mapping.path, entry.path);
  }
});

test.run();
