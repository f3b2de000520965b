// What every write test asks of an answer: a write that went through reloaded these init scripts in
// this order and said so in its headers; a refused one answered the error envelope, changed no file
// under /etc (byte for byte, modes included) and reloaded nothing.
import { existsSync, readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import type { RequestOptions, Response, Router } from './router.js';

type Body = Record<string, any>;

export interface WriteChecks {
  /** A request with the test's bearer. */
  call(options: RequestOptions): Promise<Response>;
  /** The lines of var/log/init.log: `<service> <verb>`, one per init script run. */
  initLog(): string[];
  /** The field errors of a 422 as sorted `field:code` strings. */
  fieldErrors(response: Response): string[];
  /**
   * A write that went through: 200 with an ETag (204 with no body for DELETE), X-Reload-Status ok,
   * X-Reload-Services naming `services`, and exactly these reloads appended to init.log in this order.
   */
  written(request: RequestOptions, services: string[]): Promise<Body>;
  /**
   * A refused write: `status`, the envelope (JSON, request_id, message) with these field errors
   * (`field:code`, then its code is validation_failed) or this top-level code, no reload headers,
   * every file under /etc as before and nothing reloaded. Resolves to the envelope.
   */
  refused(request: RequestOptions, status: number, expected: string[] | string): Promise<Body>;
}

/** The checks for the router and bearer a test's `before.each` set up (read at each call). */
export function writeChecks(current: () => { router: Router; authorization: string }): WriteChecks {
  const call = (options: RequestOptions) => current().router.request({ ...options, headers: { authorization: current().authorization, ...options.headers } });
  const initLog = () => {
    const path = current().router.path('/var/log/init.log');
    return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
  };
  const fieldErrors = (response: Response) => ((response.json as Body).errors as Body[]).map((error) => `${error.field}:${error.code}`).sort();
  const label = (request: RequestOptions) => `${request.method} ${request.path} ${typeof request.body === 'string' ? request.body : JSON.stringify(request.body) ?? ''}`;

  async function written(request: RequestOptions, services: string[]): Promise<Body> {
    const mark = initLog().length;
    const response = await call(request);
    assert.is(response.status, request.method === 'DELETE' ? 204 : 200, `${label(request)}: ${response.body}`);
    assert.is(response.headers['x-reload-status'], 'ok');
    assert.is(response.headers['x-reload-services'], services.join(','));
    assert.equal(initLog().slice(mark), services.map((service) => `${service} reload`), 'init scripts reloaded, in order');
    if (response.status === 200) assert.match(response.headers.etag, /^"[0-9a-f]{16}"$/);
    else assert.is(response.body, '');
    return response.json as Body;
  }

  async function refused(request: RequestOptions, status: number, expected: string[] | string): Promise<Body> {
    const before = current().router.snapshot();
    const mark = initLog().length;
    const response = await call(request);
    assert.is(response.status, status, `${label(request)}: ${response.body}`);
    const body = response.json as Body;
    assert.is(response.headers['content-type'], 'application/json');
    assert.is(body.request_id, response.headers['x-request-id']);
    assert.type(body.message, 'string');
    if (typeof expected === 'string') assert.is(body.code, expected);
    else {
      assert.is(body.code, 'validation_failed');
      assert.equal(fieldErrors(response), [...expected].sort(), label(request));
      for (const error of body.errors as Body[]) assert.type(error.message, 'string');
    }
    assert.is(response.headers['x-reload-status'], undefined);
    assert.equal(current().router.snapshot(), before, 'every file under /etc unchanged');
    assert.is(initLog().length, mark, 'nothing reloaded');
    return body;
  }

  return { call, initLog, fieldErrors, written, refused };
}
