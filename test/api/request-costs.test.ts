// Each budgeted request, run once under callgrind on the native engine (the count is exact, so once
// is enough): past its ceiling, the change that grew it fails here rather than on a router.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { neverRun } from '../../build/never-run.js';
import { ceilingOf, COLD_LIMIT, COUNTED, countColdSequence, countInstructions, countSequence, prepareSandbox, type Column } from '../../build/request-costs.js';
import { bundleDir } from '../../shims/emu/project.js';
import { nativeQjs, runProgram, tokenProgram } from '../../shims/emu/engines.js';
import { initSandbox } from '../../shims/emu/sandbox.js';

type Cgi = Awaited<ReturnType<typeof prepareSandbox>>;

/** Runs `check` on a fresh sandbox prepared as the bench prepares its own, and removes it. */
async function inBenchSandbox(check: (root: string, qjs: string, cgi: Cgi) => Promise<void> | void): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'wrtapi-costs-'));
  try {
    initSandbox(root);
    const qjs = await nativeQjs();
    await check(root, qjs, await prepareSandbox(root, qjs));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const counted = (name: string) => COUNTED.find((request) => request.name === name)!;

// The bytecode pass of npm test would only count the same again.
if (process.env.WRTAPI_ENGINE === 'native' && process.env.WRTAPI_BYTECODE !== '1') {
  const overCeilings = (counts: number[], column: Column) =>
    COUNTED.flatMap((request, i) => {
      const millions = counts[i] / 1e6;
      assert.ok(millions > 1, `${request.name}: counted ${millions}M, less than an empty qjs`);
      const ceiling = ceilingOf(request, column);
      return millions > ceiling ? [`${request.name} (${column}): ${millions.toFixed(1)}M instructions, ceiling ${ceiling}M`] : [];
    });

  test('every budgeted request stays within its instruction ceiling, compiled from source and loaded from the bytecode cache', () =>
    inBenchSandbox(async (root, qjs, cgi) => {
      const invocation = (request: (typeof COUNTED)[number]) => cgi(request, request.authenticated);
      const source = await countSequence(root, qjs, invocation, 'source');
      const bytecode = await countSequence(root, qjs, invocation, 'bytecode');
      assert.equal([...overCeilings(source, 'source'), ...overCeilings(bytecode, 'bytecode')], []);
      const count = (name: string) => source[COUNTED.indexOf(counted(name))];
      const batch = count('POST /batch (10 rules, 2 packages)');
      assert.ok(batch * 3 < 10 * count('POST /firewall/rules'), `a batch of ten creations costs ${batch / 1e6}M, not a third of ten single POSTs`);
      // The first request after a boot compiles as without the cache, and writes its entries.
      const limits = source.map((count) => count * COLD_LIMIT);
      const cold = await countColdSequence(root, qjs, invocation, limits);
      const over = COUNTED.flatMap((request, i) => (cold[i] > limits[i] ? [`${request.name}: ${(cold[i] / 1e6).toFixed(1)}M cold, ${(source[i] / 1e6).toFixed(1)}M from source`] : []));
      assert.equal(over, []);
    }));

  test('a request costs about the same with twenty tokens as with one: a known bearer is not hashed with every salt', () =>
    inBenchSandbox(async (root, qjs, cgi) => {
      const whoami = cgi(counted('GET /auth/whoami'), true);
      const alone = countInstructions(root, qjs, whoami);
      for (let i = 1; i < 20; i++) {
        assert.is((await runProgram({ root, engine: 'native', program: tokenProgram, args: ['create', '--name', `other${i}`, '--scope', 'firewall:ro'] })).code, 0);
      }
      const among = countInstructions(root, qjs, whoami);
      // Reading nineteen more token sections costs about 0.12M each; hashing the bearer with each salt would cost 0.8M more each.
      assert.ok(among - alone < 19 * 0.25e6, `whoami: ${(alone / 1e6).toFixed(2)}M with one token, ${(among / 1e6).toFixed(2)}M with twenty`);
    }));

  test('the bundle run on Node tells the bytes a request loads, calls and never runs', () =>
    inBenchSandbox((root, _qjs, cgi) => {
      const { loaded, uncalled, unrun } = neverRun(root, cgi(counted('GET /healthz'), false));
      const entry = ['wrtapi.js', 'handlers/healthz.js'].reduce((sum, file) => sum + statSync(join(bundleDir, file)).size, 0);
      assert.ok(loaded > entry, `loaded ${loaded} bytes, less than the entry and the handler (${entry})`);
      assert.ok(uncalled > 0 && uncalled <= unrun && unrun < loaded, `loaded ${loaded}, never called ${uncalled}, never run ${unrun}`);
    }));
}

test.run();
