// `npm run fuzz`: 1000 random and mutated writes per curated resource (WRTAPI_FUZZ_COUNT to change
// it, WRTAPI_SEED to replay) through the CGI path on the native engine; prints the figures and exits
// non-zero on any failure or leftover.
import { allResources } from '../src/engine/tables.js';
import { fuzzResource } from './support/fuzz.js';
import { documentedRouter } from './support/router.js';
import { seeded } from './support/schema-values.js';

// A read-only view takes no write.
const RESOURCES = (await allResources()).filter((entry) => entry.kind !== 'view');

process.env.WRTAPI_ENGINE ??= 'native';
const count = Number(process.env.WRTAPI_FUZZ_COUNT ?? 1000);
const seed = Number(process.env.WRTAPI_SEED ?? Date.now() % 100000);
const { router, document, authorization } = await documentedRouter('fuzzer');
let failures = 0;
try {
  console.log(`fuzz: ${count} writes per resource, seed ${seed}, ${process.env.WRTAPI_ENGINE} engine\n`);
  console.log(`${'resource'.padEnd(24)}${'requests'.padStart(9)}  ${'5xx'.padStart(4)}  ${'failures'.padStart(8)}  ${'leftovers'.padStart(9)}  statuses`);
  for (const entry of RESOURCES) {
    const started = Date.now();
    const figures = await fuzzResource(router, document, entry, count, seeded(seed + entry.path.length), authorization);
    const fivexx = [...figures.byStatus].filter(([status]) => status >= 500).reduce((total, [, n]) => total + n, 0);
    const statuses = [...figures.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(' ');
    const columns = [entry.path.padEnd(24) + String(figures.requests).padStart(9), String(fivexx).padStart(4), String(figures.failures.length).padStart(8), String(figures.leftovers.length).padStart(9)];
    console.log(`${columns.join('  ')}  ${statuses}  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    for (const problem of [...figures.failures, ...figures.leftovers.map((path) => `left behind: ${path}`)].slice(0, 5)) console.log(`  ${problem}`);
    failures += figures.failures.length + figures.leftovers.length;
  }
} finally {
  await router.cleanup();
}
console.log(failures ? `\n${failures} failures` : '\nno 5xx, no changed bytes on refusal, every accepted write stored as sent, nothing left behind');
process.exitCode = failures ? 1 : 0;
