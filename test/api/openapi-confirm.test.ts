// What the OpenAPI document states of commit-confirm (issue 32): the parameters every configuration
// write takes, the headers of its answers, /confirm/{id}, and live answers held to them. What the
// window itself does is test/api/confirm.test.ts's.
import Ajv2020 from 'ajv/dist/2020.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WINDOW } from '../../src/config/armed.js';
import { newRouter, type Response, type Router } from '../support/router.js';

type Body = Record<string, any>;

const RULE = { name: 'Armed', target: 'ACCEPT', match: { src_zone: 'wan', proto: ['tcp'], dest_port: ['2222'] } };
const WINDOW_SECONDS = { type: 'integer', minimum: WINDOW.min, maximum: WINDOW.max };

let router: Router;
let document: Body;
let authorization: string;
test.before(async () => {
  router = await newRouter({ doc: true });
  document = (await router.request({ method: 'GET', path: '/openapi.json' })).json as Body;
  authorization = `Bearer ${await router.mint('admin', ['*:rw'])}`;
});
test.after(async () => {
  await router.cleanup();
});

/** Checks a live answer against a schema whose references point into the served document. */
function conforms(response: Response, schema: Body): void {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, 'openapi.json');
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/')));
  assert.ok(validate(response.json), `${response.body}\n${JSON.stringify(validate.errors)}`);
}

test('the operations that take dry_run, and only they, take confirm_within and confirm_id, and their answers name the window', () => {
  const takes = (operation: Body, name: string) => (operation.parameters ?? []).some((parameter: Body) => parameter.$ref === `#/components/parameters/${name}`);
  let writes = 0;
  for (const [path, item] of Object.entries(document.paths as Record<string, Body>)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const write = takes(operation, 'DryRun');
      assert.equal([takes(operation, 'ConfirmWithin'), takes(operation, 'ConfirmId')], [write, write], `${method} ${path}`);
      if (!write) continue;
      writes++;
      // The dry run's own answer (a reference to components/responses/DryRun) arms nothing.
      for (const [status, answer] of Object.entries(operation.responses as Record<string, Body>)) {
        if (!status.startsWith('2') || answer.$ref) continue;
        assert.equal(answer.headers['X-Confirm-Id'], { $ref: '#/components/headers/XConfirmId' }, `${method} ${path} ${status}`);
        assert.equal(answer.headers['X-Confirm-Deadline'], { $ref: '#/components/headers/XConfirmDeadline' }, `${method} ${path} ${status}`);
      }
    }
  }
  assert.ok(writes > 0);
  const { ConfirmWithin, ConfirmId } = document.components.parameters;
  assert.equal([ConfirmWithin.in, ConfirmWithin.name, ConfirmWithin.schema], ['query', 'confirm_within', WINDOW_SECONDS]);
  assert.equal([ConfirmId.in, ConfirmId.name, ConfirmId.schema], ['query', 'confirm_id', document.components.headers.XConfirmId.schema]);
});

test('/confirm/{id}: GET, POST to confirm or with extend to renew, DELETE to roll back; the armed change and the 423 that names it', () => {
  const item = document.paths['/confirm/{id}'];
  assert.equal(Object.keys(item).filter((key) => key !== 'description' && key !== 'parameters'), ['get', 'post', 'delete']);
  assert.equal(item.parameters[0].schema, document.components.parameters.ConfirmId.schema);
  assert.equal(Object.keys(item.get.responses), ['200', '400', '401', '403', '404', '429', '500', '503']);
  assert.equal(Object.keys(item.post.responses), ['200', '204', '400', '401', '403', '404', '409', '423', '429', '500', '503']);
  assert.equal(Object.keys(item.delete.responses), ['204', '400', '401', '403', '404', '423', '429', '500', '503']);
  for (const answer of [item.get.responses[200], item.post.responses[200]]) assert.equal(answer.content['application/json'].schema, { $ref: '#/components/schemas/ArmedChange' });
  const extend = item.post.parameters.find((parameter: Body) => parameter.name === 'extend');
  assert.equal([extend.in, extend.schema], ['query', WINDOW_SECONDS]);
  assert.equal(document.components.schemas.ArmedChange.required, ['id', 'token', 'armed_at', 'expires_at', 'packages', 'services']);
  assert.match(document.components.responses.Locked.description, '`confirm_id`');
  assert.ok(document.components.schemas.Error.properties.confirm_id && document.components.schemas.Error.properties.expires_at);
});

test('live answers conform: an armed write, the 423 it makes of another write, and /confirm/{id} until confirmed', async () => {
  const call = (method: string, path: string, body?: unknown) => router.request({ method, path, headers: { authorization }, body });
  const armed = await call('POST', '/firewall/rules?confirm_within=60', RULE);
  assert.is(armed.status, 200, armed.body);
  conforms(armed, document.paths['/firewall/rules'].post.responses[200].content['application/json'].schema);
  const id = armed.headers['x-confirm-id'];
  const deadline = armed.headers['x-confirm-deadline'];
  assert.match(id, new RegExp(document.components.headers.XConfirmId.schema.pattern));
  assert.match(deadline, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

  const refused = await call('PATCH', '/firewall/defaults', { syn_flood: true });
  assert.is(refused.status, 423, refused.body);
  assert.is(refused.headers['retry-after'], '1');
  conforms(refused, { $ref: '#/components/responses/Locked/content/application~1json/schema' });
  const envelope = refused.json as Body;
  assert.equal([envelope.confirm_id, envelope.expires_at], [id, deadline]);

  const shown = await call('GET', `/confirm/${id}`);
  assert.is(shown.status, 200, shown.body);
  conforms(shown, { $ref: '#/components/schemas/ArmedChange' });
  const change = shown.json as Body;
  assert.equal([change.id, change.expires_at, change.packages], [id, deadline, ['firewall']]);
  const extended = await call('POST', `/confirm/${id}?extend=120`);
  assert.is(extended.status, 200, extended.body);
  conforms(extended, document.paths['/confirm/{id}'].post.responses[200].content['application/json'].schema);
  assert.is((await call('POST', `/confirm/${id}`)).status, 204);
  const gone = await call('GET', `/confirm/${id}`);
  assert.is(gone.status, 404);
  conforms(gone, { $ref: '#/components/responses/NotFound/content/application~1json/schema' });
});

test.run();
