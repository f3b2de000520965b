// `npm run bench`: each endpoint on the native engine (a real qjs process per request), next to qjs
// running an empty module in the same run: median wall time per request, peak RSS (GNU time) and
// the bytes of JavaScript the request parsed (the bundle files it opened, seen by strace).
// Budgets are checked here rather than in timed tests, which would be flaky.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { nativeQjs } from '../shims/emu/engines.js';
import { bundleDir } from '../shims/emu/project.js';
import { initSandbox } from '../shims/emu/sandbox.js';
import { neverRun } from './never-run.js';
import { BYTECODE_CACHE, COLD_LIMIT, COUNTED, countColdSequence, countInstructions, countSequence, prepareSandbox, ROUTE, RULE, runRequest as run, useColumn, writeLeaseFile, type Invocation, type Request } from './request-costs.js';

const RUNS = 41;
// Issue 30's wall budgets with wrtapi-bytecode, per request, in multiples of qjs running an empty module.
const READ = 2;
const WRITE = 4;

interface Endpoint {
  name: string;
  /** Requests run in turn for one measured iteration, e.g. a POST and the DELETE that undoes it. */
  requests: Request[];
  authenticated: boolean;
  /** `wallRatio` is from source, `bytecodeWallRatio` with wrtapi-bytecode's warm cache (issue 30: a read 2, a write 4). */
  budget: { wallRatio: number; bytecodeWallRatio: number; rssKb: number; jsBytes?: number; readOnly?: boolean; wallOf?: { endpoint: string; times: number } };
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /healthz', requests: [{ method: 'GET', path: '/healthz' }], authenticated: false, budget: { wallRatio: 2, bytecodeWallRatio: READ, rssKb: 4096, jsBytes: 60_000 } },
  { name: 'GET /auth/whoami', requests: [{ method: 'GET', path: '/auth/whoami' }], authenticated: true, budget: { wallRatio: 3, bytecodeWallRatio: READ, rssKb: 4096 } },
  { name: 'GET /firewall/rules', requests: [{ method: 'GET', path: '/firewall/rules' }], authenticated: true, budget: { wallRatio: 3, bytecodeWallRatio: READ, rssKb: 5120, readOnly: true } },
  { name: 'GET /firewall/rules/{id}', requests: [{ method: 'GET', path: '/firewall/rules/bench' }], authenticated: true, budget: { wallRatio: 3, bytecodeWallRatio: READ, rssKb: 5120, readOnly: true } },
  // dnsmasq's lease file holds 1000 leases (prepareSandbox): the read answers the first page, parsing only its lines.
  { name: 'GET /dhcp/leases', requests: [{ method: 'GET', path: '/dhcp/leases' }], authenticated: true, budget: { wallRatio: 3, bytecodeWallRatio: READ, rssKb: 5120, readOnly: true } },
  // Fetched once per client session, from the copy the first fetch kept. The clients that fetch it
  // (browsers, curl --compressed, Go's and Python's HTTP clients) accept gzip, and get the kept gzip.
  {
    name: 'GET /openapi.json (gzip)',
    requests: [{ method: 'GET', path: '/openapi.json', headers: { 'accept-encoding': 'gzip' } }],
    authenticated: false,
    budget: { wallRatio: 15, bytecodeWallRatio: READ, rssKb: 6144, wallOf: { endpoint: 'GET /firewall/rules/{id}', times: 5 } },
  },
  {
    name: 'DELETE+POST rule',
    requests: [
      { method: 'DELETE', path: '/firewall/rules/bench' },
      { method: 'POST', path: '/firewall/rules', body: RULE },
    ],
    authenticated: true,
    budget: { wallRatio: 4, bytecodeWallRatio: WRITE, rssKb: 5120 },
  },
  // With its runtime: one `ubus call network.interface dump`, a child the wall time includes.
  { name: 'GET /network/interfaces', requests: [{ method: 'GET', path: '/network/interfaces' }], authenticated: true, budget: { wallRatio: 4.5, bytecodeWallRatio: READ, rssKb: 5120, readOnly: true } },
  {
    name: 'POST+DELETE route',
    requests: [
      { method: 'POST', path: '/network/routes', body: ROUTE },
      { method: 'DELETE', path: '/network/routes/bench' },
    ],
    authenticated: true,
    budget: { wallRatio: 4, bytecodeWallRatio: WRITE, rssKb: 5120 },
  },
];

/** What one run of an endpoint shows besides its time. */
interface Measure {
  rssKb: number;
  jsBytes: number;
  /** Instructions the program's own process executed (callgrind; not its children), summed over the requests. */
  instructions: number;
  loadedPatterns: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall time of each series, their runs interleaved so that both see the same machine. */
function wallTimes(qjs: string, series: Invocation[][], root: string): number[] {
  const times: number[][] = series.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    series.forEach((invocations, index) => {
      const started = process.hrtime.bigint();
      for (const invocation of invocations) run(root, invocation, [qjs]);
      times[index].push(Number(process.hrtime.bigint() - started) / 1e6);
    });
  }
  return times.map(median);
}

function measure(qjs: string, invocations: Invocation[], root: string): Measure {
  let rssKb = 0;
  const opened = new Set<string>();
  const trace = join(root, 'tmp/strace.out');
  for (const invocation of invocations) {
    const rss = run(root, invocation, ['/usr/bin/time', '-f', '%M', qjs]).stderr.trim().split('\n').pop()!;
    rssKb = Math.max(rssKb, Number(rss));
  }
  for (const invocation of invocations) {
    run(root, invocation, ['strace', '-f', '-e', 'trace=openat', '-o', trace, qjs]);
    for (const line of readFileSync(trace, 'utf8').split('\n')) {
      const match = /openat\(AT_FDCWD, "([^"]+\.js)", O_RDONLY[^)]*\) = \d+/.exec(line);
      // Names relative to the program's folder, which runRequest runs it from.
      const path = match && resolve(dirname(invocation.program), match[1]);
      if (path?.startsWith(bundleDir)) opened.add(path);
    }
  }
  const instructions = invocations.reduce((sum, invocation) => sum + countInstructions(root, qjs, invocation), 0);
  const jsBytes = [...opened].reduce((sum, path) => sum + statSync(path).size, 0);
  return { rssKb, jsBytes, instructions, loadedPatterns: [...opened].some((path) => path.endsWith('/docs/patterns.js')) };
}

// uhttpd's CGI children inherit the router's default of 1024 open files. qjs's os.exec closes every
// descriptor up to that limit in the child, so a build machine's far higher limit would bill each
// ubus or logger child for thousands of needless close() calls.
spawnSync('prlimit', ['--pid', String(process.pid), '--nofile=1024:1024']);

/** The bytes of wrtapi-bytecode's cache in a sandbox. */
function cacheBytes(root: string): number {
  const dir = join(root, BYTECODE_CACHE);
  return existsSync(dir) ? readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0) : 0;
}

/**
 * The cache once every module a request can load is in it: in a sandbox of its own, every path of
 * the document read and sent each of its writes with an empty body (refused, once the handler, the
 * mapping and the doc are loaded).
 */
async function wholeInventoryCache(qjs: string): Promise<number> {
  const sandbox = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'wrtapi-inventory-'));
  try {
    initSandbox(sandbox);
    const cgi = await prepareSandbox(sandbox, qjs);
    await useColumn(sandbox, 'bytecode');
    const send = (request: Request) => {
      try {
        return run(sandbox, cgi(request, true), [qjs]).stdout;
      } catch {
        return ''; // a refusal, as expected of an empty body
      }
    };
    const answer = send({ method: 'GET', path: '/openapi.json' });
    const paths = (JSON.parse(answer.slice(answer.indexOf('{'))) as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const [template, operations] of Object.entries(paths)) {
      const path = template.replace(/\{[^}]+\}/g, 'bench');
      for (const method of Object.keys(operations).filter((key) => /^(get|post|put|patch|delete)$/.test(key))) {
        send({ method: method.toUpperCase(), path, ...(method === 'get' || method === 'delete' ? {} : { body: '{}' }) });
      }
    }
    return cacheBytes(sandbox);
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

// A router keeps /tmp and /var (a link to /tmp) in RAM, and they hold everything a read touches
// besides the bundle: rate-limit and metrics state, locks, the log. A sandbox on this machine's disk
// would bill every request for filesystem journaling the router never does.
const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'wrtapi-bench-'));
try {
  initSandbox(root);
  const qjs = await nativeQjs();
  // The sandbox holds the `bench` rule the single-item read fetches; the DELETE+POST iterations delete and recreate it.
  const cgi = await prepareSandbox(root, qjs);
  const empty = join(root, 'tmp/empty.js');
  writeFileSync(empty, '');
  const floorRun = [{ program: empty, env: {} }];
  const floor = measure(qjs, floorRun, root);
  console.log(`floor: qjs -m <empty module>, ${floor.rssKb} KB peak RSS, ${(floor.instructions / 1e6).toFixed(1)}M instructions; its wall time is measured anew beside each endpoint`);
  console.log(`(medians of ${RUNS} runs, interleaved with the endpoint's runs; a pair of writes is timed together, its x floor per request;`);
  console.log(' "source": compiled as stock qjs does; "bytecode": with wrtapi-bytecode and a warm cache)\n');
  console.log('endpoint                   source ms  x floor  bytecode ms  x floor   floor ms   RSS KB   JS bytes  instr (M)   budget');
  let over = 0;
  const wallMsOf = new Map<string, number>();
  for (const endpoint of ENDPOINTS) {
    const invocations = endpoint.requests.map((request) => cgi(request, endpoint.authenticated));
    await useColumn(root, 'source');
    const [wallMs, floorMs] = wallTimes(qjs, [invocations, floorRun], root);
    const result = { wallMs, ...measure(qjs, invocations, root) };
    await useColumn(root, 'bytecode');
    const [bytecodeMs, bytecodeFloorMs] = wallTimes(qjs, [invocations, floorRun], root);
    await useColumn(root, 'source');
    // Per request: a write's budget is its own, whichever write of the pair it is.
    const wallRatio = result.wallMs / (floorMs * invocations.length);
    const bytecodeRatio = bytecodeMs / (bytecodeFloorMs * invocations.length);
    wallMsOf.set(endpoint.name, result.wallMs);
    const { budget } = endpoint;
    const relativeLimit = budget.wallOf && budget.wallOf.times * wallMsOf.get(budget.wallOf.endpoint)!;
    const failures = [
      relativeLimit !== undefined && result.wallMs > relativeLimit ? `wall > ${budget.wallOf!.times} x ${budget.wallOf!.endpoint}` : '',
      wallRatio > budget.wallRatio ? `source wall > ${budget.wallRatio}x` : '',
      bytecodeRatio > budget.bytecodeWallRatio ? `bytecode wall > ${budget.bytecodeWallRatio}x` : '',
      result.rssKb > budget.rssKb ? `RSS > ${budget.rssKb} KB` : '',
      budget.jsBytes !== undefined && result.jsBytes > budget.jsBytes ? `JS > ${budget.jsBytes} B` : '',
      budget.readOnly && result.loadedPatterns ? "a resource read loaded the body check's patterns" : '',
    ].filter(Boolean);
    over += failures.length;
    console.log(
      [
        endpoint.name.padEnd(25),
        result.wallMs.toFixed(2).padStart(9),
        wallRatio.toFixed(2).padStart(8),
        bytecodeMs.toFixed(2).padStart(12),
        bytecodeRatio.toFixed(2).padStart(8),
        floorMs.toFixed(2).padStart(10),
        String(result.rssKb).padStart(8),
        String(result.jsBytes).padStart(10),
        (result.instructions / 1e6).toFixed(1).padStart(10),
        failures.length ? `  OVER: ${failures.join(', ')}` : '  ok',
      ].join(' '),
    );
  }
  console.log("\ninstructions of each request's own qjs process, millions: compiled from source, and with wrtapi-bytecode");
  console.log('(cold: the first request after a boot, which fills the cache; ceiling: enforced by the tests; target: the aim)\n');
  console.log('request                           source  ceiling   target    bytecode  ceiling   target      cold  x source');
  const invocation = (request: (typeof COUNTED)[number]) => cgi(request, request.authenticated);
  const source = await countSequence(root, qjs, invocation, 'source');
  const bytecode = await countSequence(root, qjs, invocation, 'bytecode');
  const cache = cacheBytes(root);
  const cold = await countColdSequence(root, qjs, invocation, source.map((count) => count * COLD_LIMIT));
  await useColumn(root, 'source');
  const verdict = (count: number, limits: { ceiling: number; target: number }) =>
    count > limits.ceiling ? 'OVER the ceiling' : count > limits.target ? 'over the target' : 'ok';
  for (const [i, request] of COUNTED.entries()) {
    const [fromSource, fromCache, first] = [source[i], bytecode[i], cold[i]].map((count) => count / 1e6);
    if (fromSource > request.ceiling) over++;
    if (fromCache > request.bytecode.ceiling) over++;
    if (first > fromSource * COLD_LIMIT) over++;
    const column = (count: number, limits: { ceiling: number; target: number }) =>
      `${count.toFixed(1).padStart(8)} ${String(limits.ceiling).padStart(8)} ${String(limits.target).padStart(8)}`;
    console.log(
      `${request.name.padEnd(32)} ${column(fromSource, request)}    ${column(fromCache, request.bytecode)}  ${first.toFixed(1).padStart(8)} ${(first / fromSource).toFixed(3).padStart(9)}` +
        `   ${verdict(fromSource, request)} / ${verdict(fromCache, request.bytecode)}`,
    );
  }
  console.log(`\nthe bytecode cache after these requests: ${cache} bytes; for the whole inventory: ${await wholeInventoryCache(qjs)} bytes (every route of the document, read and written)`);
  console.log('\ncode each request compiles and never runs, bytes: the same bundle on Node, under V8\'s coverage (build/never-run.ts)\n');
  console.log('request                             loaded  never called   never run (blocks too)');
  for (const request of COUNTED) {
    const { loaded, uncalled, unrun } = neverRun(root, cgi(request, request.authenticated));
    const share = (bytes: number) => `${String(bytes).padStart(7)} ${`${Math.round((100 * bytes) / loaded)}%`.padStart(4)}`;
    console.log(`${request.name.padEnd(34)} ${String(loaded).padStart(7)} ${share(uncalled).padStart(13)} ${share(unrun).padStart(13)}`);
  }
  // The first fetch after a boot or an upgrade assembles the document; every later one reads the kept copy.
  for (const name of readdirSync(join(root, 'tmp'))) if (name.startsWith('wrtapi-openapi.')) rmSync(join(root, 'tmp', name));
  const assembled = countInstructions(root, qjs, cgi({ method: 'GET', path: '/openapi.json' }, false)) / 1e6;
  console.log(`\nGET /openapi.json, the first fetch, which assembles and keeps the document: ${assembled.toFixed(1)}M instructions`);
  console.log('\nGET /dhcp/leases as the lease file grows (the first page of 100; the lines past it are not parsed)\n');
  for (const count of [10, 100, 1000, 10000]) {
    writeLeaseFile(root, count);
    const millions = countInstructions(root, qjs, cgi({ method: 'GET', path: '/dhcp/leases' }, true)) / 1e6;
    console.log(`${String(count).padStart(5)} leases ${millions.toFixed(1).padStart(8)}M instructions`);
  }
  writeLeaseFile(root, 1000);
  process.exitCode = over ? 1 : 0;
} finally {
  rmSync(root, { recursive: true, force: true });
}
