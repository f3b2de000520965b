import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDir, projectRoot } from './project.js';

/** `wasm`: Bellard QuickJS 2025-09-13 in WebAssembly, the router's version. `native`: a real qjs 2021-03-27. */
export type Engine = 'wasm' | 'native';

export const engines: Engine[] = ['wasm', 'native'];

/** The QuickJS program uhttpd runs for /api/v3. */
export const cgiProgram = join(bundleDir, 'wrtapi.js');

/** The token CLI, `qjs -m wrtapi-token.js ARGS...` on the router. */
export const tokenProgram = join(bundleDir, 'wrtapi-token.js');

export interface ProgramOptions {
  root: string;
  engine: Engine;
  /** The program's entry module, for example {@link cgiProgram}. */
  program: string;
  args?: string[];
  /** The program's environment besides PATH and WRTAPI_ROOT, which are always set. */
  env?: Record<string, string>;
  cwd?: string;
  stdio: StdioOptions;
}

/**
 * Starts one fresh QuickJS process running `program` against the sandbox `root`, with a cleared
 * environment like uhttpd's CGI: only `env`, PATH=/sbin:/usr/sbin:/bin:/usr/bin, WRTAPI_ROOT, and
 * WRTAPI_EMU_ENGINE, which wrtapi never reads: the sandbox's `qjs` runs what wrtapi starts with it
 * on the same engine, and an emulated reboot finds the router's processes by it.
 */
export async function startProgram(options: ProgramOptions): Promise<ChildProcess> {
  const env = { ...options.env, PATH: '/sbin:/usr/sbin:/bin:/usr/bin', WRTAPI_ROOT: resolve(options.root), WRTAPI_EMU_ENGINE: options.engine };
  // Its own process group, which the processes it starts and leaves running join: see settled().
  const spawnOptions = { env, cwd: options.cwd, stdio: options.stdio, detached: true };
  const programArgs = [resolve(options.program), ...(options.args ?? [])];
  if (options.engine === 'native') return spawn(await nativeQjs(), ['-m', ...programArgs], spawnOptions);
  // V8's optimising wasm compiler costs more than it saves in a process that lives for one request:
  // GET /healthz took about 200 ms without --liftoff-only and 100 ms with it.
  return spawn(process.execPath, ['--liftoff-only', wasmRunner, ...programArgs], spawnOptions);
}

export interface ProgramResult {
  /** The exit status, or 128 + the signal number for a killed program, as a shell reports it. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion with `input` on its stdin and collects what it printed. */
export async function runProgram(options: Omit<ProgramOptions, 'stdio'>, input = ''): Promise<ProgramResult> {
  const child = await startProgram({ ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.on('error', () => {});
  child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await exitCode(child);
  return { code, stdout, stderr };
}

/** Resolves when the program has exited and its output streams are closed. */
export function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => done(code ?? 128 + osConstants.signals[signal!]));
  });
}

export interface CgiOptions {
  root: string;
  engine: Engine;
  /** The CGI variables uhttpd would set (see cgiEnvironment). */
  env: Record<string, string>;
  body?: Buffer | string;
  program?: string;
}

/**
 * Starts one CGI request as uhttpd does: the program in the document root /www, the body on stdin,
 * stderr passed through to ours.
 */
export async function startCgi(options: CgiOptions): Promise<ChildProcess> {
  const child = await startProgram({
    root: options.root,
    engine: options.engine,
    program: options.program ?? cgiProgram,
    env: options.env,
    cwd: join(options.root, 'www'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // A program that exits without reading its body makes the write fail; uhttpd ignores that too.
  child.stdin!.on('error', () => {});
  child.stdin!.end(options.body ?? '');
  return child;
}

/** Runs one CGI request (see startCgi); resolves to the raw CGI answer (status and header lines, blank line, body). */
export async function runCgi(options: CgiOptions): Promise<Buffer> {
  const child = await startCgi(options);
  const chunks: Uint8Array[] = [];
  child.stdout!.on('data', (chunk: Uint8Array) => chunks.push(chunk));
  const code = await exitCode(child);
  await settled(child.pid!);
  const output = Buffer.concat(chunks);
  // uhttpd answers 502 then and says no more; the emulator also tells how the program ended.
  if (!output.length) process.stderr.write(`wrtapi-emu: ${options.engine} program exited ${code} without output (${options.env.REQUEST_METHOD} ${options.env.REQUEST_URI})\n`);
  return output;
}

/**
 * Resolves once every process the program left running (a `logger` it did not wait for) has ended,
 * so what a test reads next is what the request wrote. uhttpd does not wait for them, and neither
 * does the emulator's server.
 */
async function settled(processGroup: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; groupRuns(processGroup); ) {
    if (Date.now() > deadline) throw new Error(`processes of group ${processGroup} still run 10 s after their program ended`);
    await new Promise((done) => setTimeout(done, 1));
  }
}

function groupRuns(processGroup: number): boolean {
  try {
    process.kill(-processGroup, 0);
  } catch {
    return false;
  }
  // kill() also finds a zombie, which an init that does not reap (a container's) keeps for good.
  return readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(group) === processGroup && state !== 'Z';
    } catch {
      return false;
    }
  });
}

const wasmRunner = fileURLToPath(new URL('./wasm-runner.js', import.meta.url));

const QJS_VERSION = '2021-03-27';
const qjsSources = join(projectRoot, 'node_modules/qjsc/deps/quickjs_2021_03_27');
const buildDir = join(projectRoot, `node_modules/.cache/wrtapi/quickjs-${QJS_VERSION}`);
const qjsPath = join(buildDir, 'qjs');
const qjsFlags = ['-O2', '-D_GNU_SOURCE', `-DCONFIG_VERSION="${QJS_VERSION}"`, '-DCONFIG_BIGNUM', '-w'];
let qjsBuild: Promise<string> | undefined;

/** The native qjs, built from the qjsc package's QuickJS sources on first use and cached. */
export function nativeQjs(): Promise<string> {
  qjsBuild ??= existsSync(qjsPath) ? Promise.resolve(qjsPath) : buildQjs();
  return qjsBuild;
}

async function buildQjs(): Promise<string> {
  return builtApart(qjsPath, async (work, qjs) => {
    const libraries = ['-lm', '-ldl', '-lpthread'];
    const units = ['quickjs', 'libregexp', 'libunicode', 'cutils', 'libbf', 'quickjs-libc'];
    const objects = units.map((unit) => join(work, `${unit}.o`));
    const compile = (unit: string) => run('gcc', [...qjsFlags, '-c', join(qjsSources, `${unit}.c`), '-o', join(work, `${unit}.o`)]);
    await Promise.all([...units, 'qjsc', 'qjs'].map(compile));
    await run('gcc', [...qjsFlags, '-o', join(work, 'qjsc'), join(work, 'qjsc.o'), ...objects, ...libraries]);
    await Promise.all([
      run(join(work, 'qjsc'), ['-c', '-o', join(work, 'repl.c'), '-m', join(qjsSources, 'repl.js')]),
      run(join(work, 'qjsc'), ['-fbignum', '-c', '-o', join(work, 'qjscalc.c'), join(qjsSources, 'qjscalc.js')]),
    ]);
    // -rdynamic as QuickJS's own Makefile links it, and so OpenWrt's: a native module (wrtapi-bytecode) calls into qjs.
    await run('gcc', [...qjsFlags, '-rdynamic', '-o', qjs, join(work, 'qjs.o'), join(work, 'repl.c'), join(work, 'qjscalc.c'), ...objects, ...libraries]);
  });
}

// What the module is built from: its C, and the header they share, a change to which must rebuild it too.
const bytecodeFiles = ['bytecode.c', 'entry.c', 'objects.c', 'files.c', 'sha256.c', 'hash64.c', 'spawn.c', 'entry.h', 'files.h'].map((name) => join(projectRoot, 'packaging/wrtapi-bytecode/src', name));
const bytecodeSources = bytecodeFiles.filter((file) => file.endsWith('.c'));
let bytecodeBuild: Promise<string> | undefined;

/**
 * wrtapi-bytecode's module for the native qjs, built against the same QuickJS sources, and again
 * whenever its sources change.
 */
export function bytecodeModule(): Promise<string> {
  bytecodeBuild ??= (async () => {
    const hash = createHash('sha256');
    for (const file of bytecodeFiles) hash.update(readFileSync(file));
    const digest = hash.digest('hex').slice(0, 12);
    const module = join(buildDir, `bytecode-${digest}.so`);
    if (existsSync(module)) return module;
    return builtApart(module, (_work, output) =>
      run('gcc', ['-O2', '-Wall', '-Werror', '-shared', '-fPIC', `-I${qjsSources}`, `-DWRTAPI_QJS_VERSION="${QJS_VERSION}"`, '-o', output, ...bytecodeSources]),
    );
  })();
  return bytecodeBuild;
}

/** Where wrtapi-bytecode installs its module on a router (shims/qjs/launch.ts loads it from there). */
export const BYTECODE_MODULE_PATH = 'usr/lib/wrtapi/bytecode.so';

/** Installs wrtapi-bytecode in the emulated router `root`, as its package would. */
export async function installBytecodeModule(root: string): Promise<void> {
  const target = join(root, BYTECODE_MODULE_PATH);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(await bytecodeModule(), target);
}

/** Builds `output` in a folder of its own, renamed into place, so a process racing us never runs a half-written binary. */
async function builtApart(output: string, build: (work: string, output: string) => Promise<void>): Promise<string> {
  mkdirSync(buildDir, { recursive: true });
  const work = mkdtempSync(join(buildDir, 'build-'));
  try {
    const built = join(work, basename(output));
    await build(work, built);
    renameSync(built, output);
    return output;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}
