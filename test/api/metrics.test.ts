// GET /metrics' commit-confirm gauges (issue 32), read from the armed change's state at each scrape.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

const RULE = { name: 'Armed', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2222'] } };

let router: Router;
let authorization: string;
test.before(async () => {
  router = await newRouter();
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after(async () => {
  await router.cleanup();
});

const call = (method: string, path: string, body?: unknown) => router.request({ method, path, headers: { authorization }, body });

async function scrape(): Promise<string> {
  const response = await call('GET', '/metrics');
  assert.is(response.status, 200, response.body);
  return response.body;
}

/** The deadline series' value, or undefined when the scrape has none. */
const deadlineOf = (text: string) => /^wrtapi_confirm_deadline_seconds (\d+)$/m.exec(text)?.[1];

test('wrtapi_confirm_pending is 1 and wrtapi_confirm_deadline_seconds the deadline while a change awaits confirmation, and both follow it', async () => {
  const idle = await scrape();
  assert.match(idle, /^# TYPE wrtapi_confirm_pending gauge\nwrtapi_confirm_pending 0$/m);
  assert.match(idle, /^# TYPE wrtapi_confirm_deadline_seconds gauge$/m);
  assert.is(deadlineOf(idle), undefined);

  const armed = await call('POST', '/firewall/rules?confirm_within=60', RULE);
  assert.is(armed.status, 200, armed.body);
  const id = armed.headers['x-confirm-id'];
  const pending = await scrape();
  assert.match(pending, /^wrtapi_confirm_pending 1$/m);
  assert.is(Number(deadlineOf(pending)), Date.parse(armed.headers['x-confirm-deadline']) / 1000);

  const extended = await call('POST', `/confirm/${id}?extend=600`);
  assert.is(extended.status, 200, extended.body);
  assert.is(Number(deadlineOf(await scrape())), Date.parse((extended.json as { expires_at: string }).expires_at) / 1000);

  assert.is((await call('POST', `/confirm/${id}`)).status, 204);
  const confirmed = await scrape();
  assert.match(confirmed, /^wrtapi_confirm_pending 0$/m);
  assert.is(deadlineOf(confirmed), undefined);
});

test.run();
