// `npm run bench`: each endpoint on the native engine (a real qjs process per request), next to qjs
// running an empty module in the same run: median wall time per request, peak RSS (GNU time) and
// the bytes of JavaScript the request parsed (the bundle files it opened, seen by strace).
// Budgets are checked here rather than in timed tests, which would be flaky.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cgiProgram, nativeQjs, runProgram, tokenProgram } from '../shims/emu/engines.js';
import { bundleDir } from '../shims/emu/project.js';
import { initSandbox } from '../shims/emu/sandbox.js';
import { cgiEnvironment } from '../shims/emu/uhttpd.js';

const RUNS = 41;

interface Endpoint {
  name: string;
  method: string;
  path: string;
  authenticated: boolean;
  budget: { wallRatio: number; rssKb: number; jsBytes?: number };
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /healthz', method: 'GET', path: '/healthz', authenticated: false, budget: { wallRatio: 3, rssKb: 4096, jsBytes: 60_000 } },
  { name: 'GET /auth/whoami', method: 'GET', path: '/auth/whoami', authenticated: true, budget: { wallRatio: 3, rssKb: 4096 } },
];

interface Measure {
  wallMs: number;
  rssKb: number;
  jsBytes: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(qjs: string, program: string, env: Record<string, string>, root: string): Measure {
  const fullEnv = { ...env, PATH: '/sbin:/usr/sbin:/bin:/usr/bin', WRTAPI_ROOT: root };
  const run = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { env: fullEnv, cwd: join(root, 'www'), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
    return result;
  };
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    run(qjs, ['-m', program]);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const rss = run('/usr/bin/time', ['-f', '%M', qjs, '-m', program]).stderr.trim().split('\n').pop()!;
  const trace = join(root, 'tmp/strace.out');
  run('strace', ['-f', '-e', 'trace=openat', '-o', trace, qjs, '-m', program]);
  const opened = new Set<string>();
  for (const line of readFileSync(trace, 'utf8').split('\n')) {
    const match = /openat\(AT_FDCWD, "([^"]+\.js)", O_RDONLY[^)]*\) = \d+/.exec(line);
    if (match && (match[1].startsWith(bundleDir) || match[1] === program)) opened.add(match[1]);
  }
  const jsBytes = [...opened].reduce((sum, path) => sum + statSync(path).size, 0);
  return { wallMs: median(times), rssKb: Number(rss), jsBytes };
}

// uhttpd's CGI children inherit the router's default of 1024 open files. qjs's os.exec closes every
// descriptor up to that limit in the child, so a build machine's far higher limit would bill each
// ubus or logger child for thousands of needless close() calls.
spawnSync('prlimit', ['--pid', String(process.pid), '--nofile=1024:1024']);

const root = mkdtempSync(join(tmpdir(), 'wrtapi-bench-'));
try {
  initSandbox(root);
  const qjs = await nativeQjs();
  const minted = await runProgram({ root, engine: 'native', program: tokenProgram, args: ['create', '--name', 'bench', '--scope', '*:rw', '--rate', '1000000', '--burst', '1000000', '--json'] });
  const bearer = JSON.parse(minted.stdout).bearer as string;
  const empty = join(root, 'tmp/empty.js');
  writeFileSync(empty, '');
  const floor = measure(qjs, empty, {}, root);
  console.log(`floor: qjs -m <empty module>: ${floor.wallMs.toFixed(2)} ms, ${floor.rssKb} KB peak RSS (median of ${RUNS})\n`);
  console.log('endpoint               wall ms  x floor   RSS KB  x floor   JS bytes   budget');
  let over = 0;
  for (const endpoint of ENDPOINTS) {
    const env = cgiEnvironment({
      method: endpoint.method,
      url: '/api/v3' + endpoint.path,
      headers: { host: '192.168.1.1', ...(endpoint.authenticated ? { authorization: `Bearer ${bearer}` } : {}) },
      httpVersion: '1.1',
      remoteAddress: '192.168.1.100',
      remotePort: 50000,
      serverAddress: '192.168.1.1',
      serverPort: 443,
      https: true,
    })!;
    const result = measure(qjs, cgiProgram, env, root);
    const wallRatio = result.wallMs / floor.wallMs;
    const { budget } = endpoint;
    const failures = [
      wallRatio > budget.wallRatio ? `wall > ${budget.wallRatio}x` : '',
      result.rssKb > budget.rssKb ? `RSS > ${budget.rssKb} KB` : '',
      budget.jsBytes !== undefined && result.jsBytes > budget.jsBytes ? `JS > ${budget.jsBytes} B` : '',
    ].filter(Boolean);
    over += failures.length;
    console.log(
      [
        endpoint.name.padEnd(21),
        result.wallMs.toFixed(2).padStart(8),
        wallRatio.toFixed(2).padStart(8),
        String(result.rssKb).padStart(8),
        (result.rssKb / floor.rssKb).toFixed(2).padStart(8),
        String(result.jsBytes).padStart(10),
        failures.length ? `  OVER: ${failures.join(', ')}` : '  ok',
      ].join(' '),
    );
  }
  process.exitCode = over ? 1 : 0;
} finally {
  rmSync(root, { recursive: true, force: true });
}
