// `npm test`: the unit tests once, then every API test on each engine, and one closing line with
// the totals.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const uvu = join(here, '../../../node_modules/uvu/bin.js');
const only = process.argv[2];

const suites: { name: string; dir: string; env?: Record<string, string> }[] = [
  { name: 'unit', dir: join(here, 'unit') },
  { name: 'api (wasm engine)', dir: join(here, 'api'), env: { WRTAPI_ENGINE: 'wasm' } },
  { name: 'api (native engine)', dir: join(here, 'api'), env: { WRTAPI_ENGINE: 'native' } },
  // Every answer, file and log line must be the same with the bytecode cache as without it.
  { name: 'api (native engine, wrtapi-bytecode)', dir: join(here, 'api'), env: { WRTAPI_ENGINE: 'native', WRTAPI_BYTECODE: '1' } },
];

let passed = 0;
let failed = 0;
for (const suite of suites) {
  console.log(`\n== ${suite.name}`);
  const args = [uvu, suite.dir, only ? `${only}.*\\.test\\.js$` : '\\.test\\.js$'];
  const run = spawnSync(process.execPath, args, {
    env: { ...process.env, ...suite.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(run.stdout);
  const total = Number(/Total:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0);
  const ok = Number(/Passed:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0);
  const crashed = run.status !== 0 && total === ok;
  passed += ok;
  failed += total - ok + (crashed ? 1 : 0);
}
// wrtapi-bytecode built and run for the routers' architectures under qemu-user (CI installs the
// cross compilers: WRTAPI_CROSS_INSTALL=1 in .ci/run); skipped where they are missing.
if (!only || only.includes('bytecode')) {
  console.log('\n== wrtapi-bytecode on mips, mipsel, aarch64 and this machine');
  const check = spawnSync('bash', [join(here, '../../../packaging/wrtapi-bytecode/cross-check.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (check.status === 0) passed++;
  else if (check.status !== 77) failed++;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
