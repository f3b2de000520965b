import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

let router: Router;
test.before.each(async () => {
  router = await newRouter();
});
test.after.each(async () => {
  await router.cleanup();
});

function metricValue(text: string, series: string, labels: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series}{${labels}} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

test('concurrent requests drain the bucket exactly: burst passes, the rest get 429 with Retry-After', async () => {
  const limited = await router.mint('limited', ['*:ro'], ['--rate', '1', '--burst', '3']);
  const responses = await Promise.all(
    Array.from({ length: 8 }, () => router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${limited}` } })),
  );
  const statuses = responses.map((response) => response.status).sort();
  assert.equal(statuses, [200, 200, 200, 429, 429, 429, 429, 429]);
  for (const response of responses.filter((candidate) => candidate.status === 429)) {
    assert.is((response.json as { code: string }).code, 'too_many_requests');
    assert.match(response.headers['retry-after'], /^[1-9]\d*$/);
  }
  const reader = await router.mint('reader', ['wrtapi:metrics:ro']);
  const metrics = await router.request({ method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${reader}` } });
  assert.is(metricValue(metrics.body, 'wrtapi_rate_limit_drops_total', 'token_id="limited"'), 5);
});

test('the global ratelimit section applies to tokens without their own rate', async () => {
  const path = router.path('/etc/config/wrtapi');
  writeFileSync(path, readFileSync(path, 'utf8').replace("option burst '200'", "option burst '2'").replace("option rate '100'", "option rate '1'"));
  const plain = await router.mint('plain', ['*:ro']);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    statuses.push((await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${plain}` } })).status);
  }
  assert.equal(statuses, [200, 200, 429]);
});

test('revoking a token reaps its bucket, so a new token of the same name starts full', async () => {
  const first = await router.mint('reused', ['*:ro'], ['--rate', '1', '--burst', '1']);
  const whoami = (bearer: string) => router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${bearer}` } });
  assert.is((await whoami(first)).status, 200);
  assert.is((await whoami(first)).status, 429);
  assert.is((await router.token(['revoke', 'reused'])).code, 0);
  const second = await router.mint('reused', ['*:ro'], ['--rate', '1', '--burst', '1']);
  assert.is((await whoami(second)).status, 200);
});

test('GET /metrics counts every concurrent request exactly, in exposition format 0.0.4', async () => {
  const bearer = await router.mint('load', ['*:ro']);
  await Promise.all(
    Array.from({ length: 24 }, () => router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${bearer}` } })),
  );
  await router.request({ method: 'GET', path: '/nowhere' });
  const metrics = await router.request({ method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${bearer}` } });
  assert.is(metrics.status, 200);
  assert.is(metrics.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.is(metrics.headers['strict-transport-security'], undefined);
  const text = metrics.body;
  assert.is(metricValue(text, 'wrtapi_requests_total', 'method="GET",path="/auth/whoami",status="200",token_id="load"'), 24);
  assert.is(metricValue(text, 'wrtapi_requests_total', 'method="GET",path="-",status="401",token_id="-"'), 1);
  assert.is(metricValue(text, 'wrtapi_request_duration_seconds_count', 'method="GET",path="/auth/whoami"'), 24);
  assert.is(metricValue(text, 'wrtapi_request_duration_seconds_bucket', 'method="GET",path="/auth/whoami",le="+Inf"'), 24);
  for (const series of ['wrtapi_requests_total', 'wrtapi_request_duration_seconds', 'wrtapi_rate_limit_drops_total', 'wrtapi_lock_contention_total', 'wrtapi_validate_errors_total']) {
    assert.match(text, `# TYPE ${series} `);
  }
  const again = await router.request({ method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${bearer}` } });
  assert.is(metricValue(again.body, 'wrtapi_requests_total', 'method="GET",path="/metrics",status="200",token_id="load"'), 1);
  assert.is(metricValue(again.body, 'wrtapi_requests_total', 'method="GET",path="/auth/whoami",status="200",token_id="load"'), 24);
});

test('lock contention is counted by lock type', async () => {
  const admin = await router.mint('admin', ['*:rw']);
  router.lock('/var/lock/wrtapi.wrtapi.lock');
  const locked = await router.request({ method: 'POST', path: '/tokens', headers: { authorization: `Bearer ${admin}` }, body: { name: 'n', scopes: ['*:ro'] } });
  assert.is(locked.status, 423);
  const metrics = await router.request({ method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${admin}` } });
  assert.is(metricValue(metrics.body, 'wrtapi_lock_contention_total', 'lock_type="package"'), 1);
});

test('ACCESS lines follow the access option; 4xx other than auth are never logged', async () => {
  const bearer = await router.mint('reader', ['*:ro']);
  const path = router.path('/etc/config/wrtapi');
  await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${bearer}` } });
  await router.request({ method: 'GET', path: '/tokens/x/y', headers: { authorization: `Bearer ${bearer}` } });
  assert.is(readFileSync(router.path('/var/log/messages'), 'utf8'), '');
  writeFileSync(path, readFileSync(path, 'utf8').replace("option access '0'", "option access '1'"));
  const read = await router.request({ method: 'GET', path: '/auth/whoami', headers: { authorization: `Bearer ${bearer}` } });
  await router.request({ method: 'GET', path: '/healthz' });
  assert.is(
    readFileSync(router.path('/var/log/messages'), 'utf8'),
    `daemon.info wrtapi: ${read.headers['x-request-id']} reader ACCESS - GET /auth/whoami 200 ${/ (\d+)ms/.exec(readFileSync(router.path('/var/log/messages'), 'utf8'))![1]}ms\n`,
  );
});

test.run();
