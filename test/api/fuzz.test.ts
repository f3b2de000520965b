import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allResources } from '../../src/engine/tables.js';
import { fuzzResource } from '../support/fuzz.js';
import { documentedRouter, type Router } from '../support/router.js';
import { seeded, type Schema } from '../support/schema-values.js';

const RESOURCES = await allResources();

// A few random and mutated writes per curated resource on every run; `npm run fuzz` sends 1000.
let router: Router;
let document: Schema;
let authorization: string;
test.before(async () => {
  // With the daemon packages installed: without them every write to their resources is 503.
  ({ router, document, authorization } = await documentedRouter('fuzzer'));
});
test.after(async () => {
  await router.cleanup();
});

// A read-only view takes no write: test/api/dhcp-leases.test.ts holds it to 405.
for (const entry of RESOURCES.filter((candidate) => candidate.kind !== 'view')) {
  test(`${entry.path}: random and mutated writes never answer 5xx, refuse in the envelope with every file unchanged, and store what they accept as sent`, async () => {
    const figures = await fuzzResource(router, document, entry, router.engine === 'native' ? 25 : 6, seeded(2026 + entry.path.length), authorization);
    assert.equal(figures.failures, []);
    assert.equal(figures.leftovers, []);
    assert.ok(figures.requests > 0);
  });
}

test.run();
