import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exitCode, startCgi, type CgiOptions, type Engine } from './engines.js';
import { apiPrefix, cgiEnvironment, httpAnswer, isApiRequest, type HttpAnswer } from './uhttpd.js';

/** uhttpd's default max_requests: CGI programs running at once; further requests wait their turn. */
export const maxRequests = 3;

export interface ServeOptions {
  root: string;
  engine: Engine;
  port: number;
  host?: string;
  /** The CGI program; the service's by default. */
  program?: string;
}

/** Serves the sandbox `root` over plain HTTP as uhttpd serves /api/v3; resolves once listening. */
export async function serve(options: ServeOptions): Promise<Server> {
  const limit = concurrencyLimit(maxRequests);
  const server = createServer((request, response) => {
    answer(request, response, options, limit).catch((error: Error) => send(response, serverError(error)));
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '127.0.0.1', done);
  });
  return server;
}

/** The base URL of a listening server, such as http://127.0.0.1:8080/api/v3. */
export function baseUrl(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}${apiPrefix}`;
}

async function answer(request: IncomingMessage, response: ServerResponse, options: ServeOptions, limit: Limit): Promise<void> {
  const body = await readBody(request);
  const url = request.url ?? '/';
  const env = isApiRequest(url)
    ? cgiEnvironment({
        method: request.method ?? 'GET',
        url,
        headers: lastValues(request.headersDistinct),
        httpVersion: request.httpVersion,
        remoteAddress: request.socket.remoteAddress ?? '',
        remotePort: request.socket.remotePort ?? 0,
        serverAddress: request.socket.localAddress ?? '',
        serverPort: request.socket.localPort ?? 0,
        https: false,
      })
    : undefined;
  if (!env) return send(response, notFound(url));
  await limit(() => relay(response, { root: options.root, engine: options.engine, env, body, program: options.program }));
}

/**
 * Runs the program and passes its answer on as it comes, as uhttpd relays a CGI program: the status
 * and headers once the program has printed them, the body as it is printed. When the client goes
 * away first, uhttpd SIGKILLs the program's own process, not the processes it started.
 */
async function relay(response: ServerResponse, cgi: CgiOptions): Promise<void> {
  const child = await startCgi(cgi);
  const hangUp = () => child.kill('SIGKILL');
  response.on('close', hangUp);
  let head = Buffer.alloc(0);
  // Before the header block is complete, then while relaying the body, then once a refused head ended the answer.
  let state = 'head' as 'head' | 'body' | 'ended';
  child.stdout!.on('data', (chunk: Buffer) => {
    if (state === 'body') response.write(chunk);
    if (state !== 'head') return;
    head = Buffer.concat([head, chunk]);
    if (!/\r?\n\r?\n/.test(head.toString('latin1'))) return;
    const answer = httpAnswer(head);
    state = writeHead(response, answer) ? 'body' : 'ended';
    if (state === 'body') response.write(answer.body);
  });
  await exitCode(child);
  response.off('close', hangUp);
  if (state === 'body') response.end();
  else if (state === 'head') send(response, httpAnswer(head));
}

function send(response: ServerResponse, result: HttpAnswer) {
  if (writeHead(response, result)) response.end(result.body);
}

/** The status line and headers; false when Node refused them and a 500 went out instead. */
function writeHead(response: ServerResponse, result: HttpAnswer): boolean {
  try {
    response.writeHead(result.status, result.reason, result.headers.flat());
    return true;
  } catch (error) {
    // Node refuses some answers uhttpd would pass on (a status outside 100-999, control characters).
    const refused = serverError(error as Error);
    response.writeHead(refused.status, refused.reason, refused.headers.flat());
    response.end(refused.body);
    return false;
  }
}

// uhttpd keeps the last of repeated headers; Node joins them.
function lastValues(headers: Record<string, string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values?.at(-1)]));
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Uint8Array[] = [];
    request.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks)));
    request.on('error', fail);
  });
}

function notFound(url: string): HttpAnswer {
  return {
    status: 404,
    reason: 'Not Found',
    headers: [['Content-Type', 'text/html']],
    body: Buffer.from(`<h1>Not Found</h1>The requested URL ${url} was not found on this server.`),
  };
}

function serverError(error: Error): HttpAnswer {
  return { status: 500, reason: 'Internal Server Error', headers: [['Content-Type', 'text/plain']], body: Buffer.from(`${error.message}\n`) };
}

type Limit = <T>(task: () => Promise<T>) => Promise<T>;

/** Runs at most `slots` tasks at once, the rest in arrival order. */
function concurrencyLimit(slots: number): Limit {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= slots) await new Promise<void>((start) => waiting.push(start));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
