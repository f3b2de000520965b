// A fresh emulated router per test: a sandbox in a temporary directory, requests sent to the CGI
// program as uhttpd would run it (the same environment builder as `wrtapi-emu serve`), and a real
// HTTP server on demand. The engine comes from WRTAPI_ENGINE (wasm by default).
import { killRouterProcesses, reboot } from '../../shims/emu/power.js';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installBytecodeModule, runCgi, runProgram, tokenProgram, type Engine, type ProgramResult } from '../../shims/emu/engines.js';
import { initSandbox, installDoc, type PackageManager } from '../../shims/emu/sandbox.js';
import { baseUrl, serve } from '../../shims/emu/server.js';
import { apiPrefix, httpAnswer, lanRequestEnvironment } from '../../shims/emu/uhttpd.js';
import { installDaemons } from './daemons.js';

export interface RequestOptions {
  method: string;
  /** Below the base URL, as in `/firewall/rules?limit=5`. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A string or bytes are sent as they are; anything else as JSON with Content-Type application/json. */
  body?: unknown;
  /** The client address; a LAN client, 192.168.1.100, by default. */
  remote?: string;
  /** Whether the request came over TLS; true by default. */
  https?: boolean;
}

export interface Response {
  status: number;
  /** By lower-case name; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The body's bytes as sent, for a body that is not text (a gzip). */
  bytes: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface Router {
  root: string;
  engine: Engine;
  /** The real path of a router path, for example path('/etc/config/network'). */
  path(routerPath: string): string;
  request(options: RequestOptions): Promise<Response>;
  /** Runs the token CLI (`qjs -m wrtapi-token.js ARGS...`) against this router. */
  token(args: string[]): Promise<ProgramResult>;
  /** Creates a token with the token CLI and resolves to its bearer. */
  mint(name: string, scopes: string[], extraArgs?: string[]): Promise<string>;
  /** Starts an HTTP server on a free loopback port; resolves to its base URL (…/api/v3). */
  serve(): Promise<string>;
  /**
   * Makes a lock as wrtapi makes one (a symbolic link naming its owner) at a router path: by default
   * owned by the running test process, which holds it for as long as the test needs.
   */
  lock(routerPath: string, owner?: string): void;
  /** What a killed writer may leave, as router paths: temporaries, child stdio files, locks, mutexes. */
  leftovers(): string[];
  /** Every file below a router directory (`/etc` by default) with its mode and bytes, to compare before and after. */
  snapshot(routerDir?: string): Map<string, string>;
  /** Every file below these router directories as one text, to search for what must never be written (a secret). */
  texts(...routerDirs: string[]): string;
  /** Restarts the router as `wrtapi-emu reboot` does: its processes killed, RAM cleared, the boot hooks run. */
  reboot(): Promise<void>;
  /** Stops the servers and the router's processes, and removes the sandbox. */
  cleanup(): Promise<void>;
}

/** A process's identity as wrtapi's locks record it: its pid and its start time (field 22 of its stat). */
export function processIdentity(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return `${pid}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

/** The owner of a lock left by a killed writer: a pid no process has. */
export const DEAD_OWNER = '999999999:1';

const BEARER = /wrtapi_[0-9a-f]{32}/g;

/** What a router's requests produced, and the secrets that must never appear in it. */
interface Audit {
  outputs: string[];
  secrets: Set<string>;
}

/** The files below a directory; with `links`, symbolic links (wrtapi's locks) too. */
function filesBelow(dir: string, links = false): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(dir, entry.name), links) : entry.isFile() || (links && entry.isSymbolicLink()) ? [join(dir, entry.name)] : [],
  );
}

/**
 * Every test's router ends here: no answer (but the one minting a token), no log line and no state
 * file may hold a bearer, nor a salt or hash of the token store.
 */
function auditSecrets(root: string, audit: Audit): void {
  const store = existsSync(join(root, 'etc/config/wrtapi')) && statSync(join(root, 'etc/config/wrtapi')).isFile() ? readFileSync(join(root, 'etc/config/wrtapi'), 'utf8') : '';
  for (const match of store.matchAll(/option (?:salt|hash) '([0-9a-f]+)'/g)) audit.secrets.add(match[1]);
  const produced = [...audit.outputs, ...['var/log', 'tmp', 'var/lock'].flatMap((dir) => filesBelow(join(root, dir)).map((file) => readFileSync(file, 'utf8')))];
  for (const secret of audit.secrets) {
    if (produced.some((text) => text.includes(secret))) throw new Error(`a secret (${secret.slice(0, 10)}...) leaked into an answer, a log or a state file`);
  }
}

/**
 * A router with wrtapi-doc and the document it serves, an admin bearer whose rate no test can exhaust, and the
 * daemon packages curated resources drive installed (init scripts, shipped files), so every write reaches
 * the checks instead of the 503 for a missing daemon.
 */
export async function documentedRouter(admin: string): Promise<{ router: Router; document: Record<string, any>; authorization: string }> {
  const router = await newRouter({ doc: true });
  await installDaemons(router);
  const document = (await router.request({ method: 'GET', path: '/openapi.json' })).json as Record<string, any>;
  const authorization = `Bearer ${await router.mint(admin, ['*:rw'], ['--rate', '100000', '--burst', '100000'])}`;
  return { router, document, authorization };
}

/**
 * A fresh router: OpenWrt 24.10 with opkg, or with `packageManager: 'apk'` 25.12 with apk; wrtapi
 * wired into uhttpd as its package wires it, unless `wired` is false; with `doc`, wrtapi-doc installed.
 */
export async function newRouter(options: { packageManager?: PackageManager; wired?: boolean; doc?: boolean } = {}): Promise<Router> {
  const root = mkdtempSync(join(tmpdir(), 'wrtapi-router-'));
  initSandbox(root, options);
  if (options.doc) installDoc(root);
  // The suite's third pass: every router has wrtapi-bytecode installed (npm test runs it on the native engine).
  if (process.env.WRTAPI_BYTECODE === '1') await installBytecodeModule(root);
  const engine = (process.env.WRTAPI_ENGINE ?? 'wasm') as Engine;
  const servers: Server[] = [];
  const audit: Audit = { outputs: [], secrets: new Set() };
  async function token(args: string[]): Promise<ProgramResult> {
    const result = await runProgram({ root, engine, program: tokenProgram, args });
    const bearers = result.stdout.match(BEARER) ?? [];
    for (const bearer of bearers) audit.secrets.add(bearer);
    if (!bearers.length) audit.outputs.push(result.stdout);
    audit.outputs.push(result.stderr);
    return result;
  }
  return {
    root,
    engine,
    path: (routerPath) => join(root, routerPath),
    async request(options) {
      const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      let body: string | Buffer | undefined;
      if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const query = options.query ? new URLSearchParams(options.query).toString() : '';
      const url = apiPrefix + options.path + (query ? (options.path.includes('?') ? '&' : '?') + query : '');
      const env = lanRequestEnvironment({ method: options.method, url, headers, remote: options.remote, https: options.https });
      if (!env) throw new Error(`malformed %-escape in ${url}`);
      const answer = httpAnswer(await runCgi({ root, engine, env, body }));
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of answer.headers) {
        const key = name.toLowerCase();
        responseHeaders[key] = key in responseHeaders ? `${responseHeaders[key]}, ${value}` : value;
      }
      const text = answer.body.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const shownOnce = (json as { bearer?: unknown } | undefined)?.bearer;
      if (typeof shownOnce === 'string') audit.secrets.add(shownOnce);
      else audit.outputs.push(JSON.stringify(answer.headers) + text);
      return { status: answer.status, headers: responseHeaders, body: text, bytes: answer.body, json };
    },
    token,
    async mint(name, scopes, extraArgs = []) {
      const created = await token(['create', '--name', name, ...scopes.flatMap((scope) => ['--scope', scope]), ...extraArgs, '--json']);
      if (created.code !== 0) throw new Error(`token create ${name} failed: ${created.stderr}`);
      return (JSON.parse(created.stdout) as { bearer: string }).bearer;
    },
    lock(routerPath, owner = processIdentity(process.pid)) {
      mkdirSync(dirname(join(root, routerPath)), { recursive: true });
      symlinkSync(owner, join(root, routerPath));
    },
    texts(...routerDirs) {
      return routerDirs.flatMap((dir) => filesBelow(join(root, dir)).map((path) => readFileSync(path, 'utf8'))).join('\n');
    },
    snapshot(routerDir = '/etc') {
      return new Map(filesBelow(join(root, routerDir)).map((path) => [path, `${statSync(path).mode} ${readFileSync(path, 'latin1')}`]));
    },
    leftovers() {
      return ['etc', 'tmp', 'var/lock']
        .flatMap((dir) => filesBelow(join(root, dir), true))
        .map((path) => path.slice(root.length))
        .filter((path) => /\.tmp$|\/\.wrtapi-run\.|^\/var\/lock\/|\.lock$/.test(path));
    },
    async serve() {
      const server = await serve({ root, engine, port: 0 });
      servers.push(server);
      return baseUrl(server);
    },
    reboot: () => reboot(root, engine),
    async cleanup() {
      await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
      killRouterProcesses(root);
      try {
        auditSecrets(root, audit);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
