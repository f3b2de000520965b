// Each budgeted request, run once under callgrind on the native engine (the count is exact, so once
// is enough): past its ceiling, the change that grew it fails here rather than on a router.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNTED, countSequence, prepareSandbox } from '../../build/request-costs.js';
import { nativeQjs } from '../../shims/emu/engines.js';
import { initSandbox } from '../../shims/emu/sandbox.js';

if (process.env.WRTAPI_ENGINE === 'native') {
  test('every budgeted request stays within its instruction ceiling', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wrtapi-costs-'));
    try {
      initSandbox(root);
      const qjs = await nativeQjs();
      const cgi = await prepareSandbox(root, qjs);
      const counts = countSequence(root, qjs, (request) => cgi(request, request.authenticated));
      const over: string[] = [];
      for (const [i, request] of COUNTED.entries()) {
        const millions = counts[i] / 1e6;
        assert.ok(millions > 1, `${request.name}: counted ${millions}M, less than an empty qjs`);
        if (millions > request.ceiling) over.push(`${request.name}: ${millions.toFixed(1)}M instructions, ceiling ${request.ceiling}M`);
      }
      assert.equal(over, []);
      const count = (name: string) => counts[COUNTED.findIndex((request) => request.name === name)];
      const batch = count('POST /batch (10 rules, 2 packages)');
      assert.ok(batch * 3 < 10 * count('POST /firewall/rules'), `a batch of ten creations costs ${batch / 1e6}M, not a third of ten single POSTs`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test.run();
