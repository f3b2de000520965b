// A fresh emulated router per test: a sandbox in a temporary directory, requests sent to the CGI
// program as uhttpd would run it (the same environment builder as `wrtapi-emu serve`), and a real
// HTTP server on demand. The engine comes from WRTAPI_ENGINE (wasm by default).
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCgi, runProgram, tokenProgram, type Engine, type ProgramResult } from '../../shims/emu/engines.js';
import { initSandbox } from '../../shims/emu/sandbox.js';
import { baseUrl, serve } from '../../shims/emu/server.js';
import { apiPrefix, cgiEnvironment, httpAnswer } from '../../shims/emu/uhttpd.js';

export interface RequestOptions {
  method: string;
  /** Below the base URL, as in `/firewall/rules?limit=5`. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON with Content-Type application/json. */
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
  /** Stops the servers and removes the sandbox. */
  cleanup(): Promise<void>;
}

export async function newRouter(): Promise<Router> {
  const root = mkdtempSync(join(tmpdir(), 'wrtapi-router-'));
  initSandbox(root);
  const engine = (process.env.WRTAPI_ENGINE ?? 'wasm') as Engine;
  const servers: Server[] = [];
  return {
    root,
    engine,
    path: (routerPath) => join(root, routerPath),
    async request(options) {
      const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      let body: string | undefined;
      if (typeof options.body === 'string') body = options.body;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const query = options.query ? new URLSearchParams(options.query).toString() : '';
      const url = apiPrefix + options.path + (query ? (options.path.includes('?') ? '&' : '?') + query : '');
      const https = options.https ?? true;
      headers.host ??= '192.168.1.1';
      const env = cgiEnvironment({
        method: options.method,
        url,
        headers,
        httpVersion: '1.1',
        remoteAddress: options.remote ?? '192.168.1.100',
        remotePort: 50000 + Math.floor(Math.random() * 10000),
        serverAddress: '192.168.1.1',
        serverPort: https ? 443 : 80,
        https,
      });
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
      return { status: answer.status, headers: responseHeaders, body: text, json };
    },
    token: (args) => runProgram({ root, engine, program: tokenProgram, args }),
    async mint(name, scopes, extraArgs = []) {
      const args = ['create', '--name', name, ...scopes.flatMap((scope) => ['--scope', scope]), ...extraArgs, '--json'];
      const created = await runProgram({ root, engine, program: tokenProgram, args });
      if (created.code !== 0) throw new Error(`token create ${name} failed: ${created.stderr}`);
      return (JSON.parse(created.stdout) as { bearer: string }).bearer;
    },
    async serve() {
      const server = await serve({ root, engine, port: 0 });
      servers.push(server);
      return baseUrl(server);
    },
    async cleanup() {
      await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
