import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allResources } from '../../src/engine/tables.js';
import { installDaemons } from '../support/daemons.js';
import { newRouter, type Router } from '../support/router.js';

const RESOURCES = await allResources();

// /etc lives on the router's flash: a read, however often a client polls it, must leave every file
// there as it was, the token store with its last-use stamps included.
let router: Router;
test.before(async () => {
  router = await newRouter();
  // The daemon packages' resources read their shipped configuration.
  await installDaemons(router);
});
test.after(async () => {
  await router.cleanup();
});

test('every kind of read, over and over with two tokens, leaves every file under /etc byte-identical', async () => {
  const admin = await router.mint('admin', ['*:rw']);
  const reader = await router.mint('reader', ['*:ro']);
  const before = router.snapshot();
  const paths = ['/healthz', '/openapi.json', '/schema', '/auth/whoami', '/metrics', '/diagnostics', '/diagnostics?validate=1', '/tokens', '/tokens/reader'];
  for (const resource of RESOURCES) {
    paths.push(`/${resource.path}`, `/schema/${resource.path.includes('/') ? resource.path : `${resource.path}/${resource.type}`}`);
  }
  let reads = 0;
  // The first round is the one that would stamp; the slow engine repeats it less.
  const rounds = router.engine === 'native' ? 3 : 1;
  for (let round = 0; round < rounds; round++) {
    for (const bearer of [admin, reader]) {
      const authorization = `Bearer ${bearer}`;
      const items: string[] = [];
      // Token reads need wrtapi:tokens:rw: the reader's are refused, which must not write either.
      for (const path of paths) {
        const response = await router.request({ method: 'GET', path, headers: { authorization } });
        const resource = RESOURCES.find((entry) => `/${entry.path}` === path);
        // A singleton of a daemon package the stock router lacks (mwan3/globals) has no section to read.
        const uninstalled = resource?.kind === 'singleton' && !existsSync(router.path(`/etc/config/${resource.package}`)) && response.status === 404;
        assert.ok(response.status === 200 || uninstalled || (path.startsWith('/tokens') && bearer === reader && response.status === 403), `${path}: ${response.status} ${response.body}`);
        reads++;
        if (resource?.kind === 'collection') for (const item of response.json as { id: string }[]) items.push(`${path}/${item.id}`);
      }
      for (const path of items) {
        const response = await router.request({ method: 'GET', path, headers: { authorization } });
        assert.is(response.status, 200, path);
        const conditional = await router.request({ method: 'GET', path, headers: { authorization }, query: { if_none_match: response.headers.etag } });
        assert.is(conditional.status, 304, path);
        reads += 2;
      }
    }
  }
  assert.ok(reads > 60 * rounds, `only ${reads} reads`);
  const after = router.snapshot();
  assert.equal([...after.keys()].sort(), [...before.keys()].sort());
  for (const [path, text] of before) assert.ok(after.get(path) === text, `${path} changed`);
});

test.run();
