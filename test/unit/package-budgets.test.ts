// The package as `npm run package` builds it from the bundle this run built: every curated resource
// within its share of the flash budget, and the core within its ceiling.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { packageSizes } from '../../build/package.js';
import { BUDGETS, OVER_MAX } from '../../build/package-size.js';

// Compiled to dist/node/test/unit: the project root is four levels up.
const root = fileURLToPath(new URL('../../../../', import.meta.url));

test('the package holds its enforced budgets, and weighs every resource the build generated', async () => {
  const report = await packageSizes(root);
  assert.equal(report.problems, []);
  const names = report.resources.map(({ name }) => name);
  assert.ok(names.length >= 6, `resources weighed: ${names.join(', ')}`);
  // The resources that are routes of their own, not definitions, are weighed too.
  for (const name of ['system_password', 'system_authorized_keys', 'packages_installed', 'packages_feeds']) assert.ok(names.includes(name), name);
  for (const { name, size } of report.resources) {
    assert.ok(size.compressed > 0 && size.compressed <= (OVER_MAX[name]?.limit ?? BUDGETS.resourceCompressedMax), `${name}: ${size.compressed} B compressed`);
    assert.ok(size.installed > size.compressed, `${name}: installs ${size.installed} B`);
  }
  assert.ok(report.core.compressed > 0 && report.core.installed <= BUDGETS.coreInstalled);
});

test.run();
