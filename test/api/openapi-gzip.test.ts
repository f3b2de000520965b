import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRouter, type Router } from '../support/router.js';

// GET /openapi.json keeps the document in /tmp with a gzip of it (busybox's gzip on a router, the
// emulator's stand-in here), and answers the gzip to a client whose Accept-Encoding admits it.
let router: Router;
let kept: string;
test.before(async () => {
  router = await newRouter();
  const first = await router.request({ method: 'GET', path: '/openapi.json', headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(first.status, 200, first.body);
  // The fetch that assembles the document answers it as it is, and keeps it with its gzip.
  assert.is(first.headers['content-encoding'], undefined);
  const names = keptNames();
  assert.equal(names.length, 2, names.join(' '));
  kept = router.path(`/tmp/${names.find((name) => name.endsWith('.json'))}`);
  assert.equal(names, [kept.slice(kept.lastIndexOf('/') + 1), `${kept.slice(kept.lastIndexOf('/') + 1)}.gz`]);
  assert.is(first.body, readFileSync(kept, 'utf8'));
});
test.after(async () => {
  await router.cleanup();
});

/** The names in /tmp that the document's keeping made, its own temporaries included. */
const keptNames = () => readdirSync(router.path('/tmp')).filter((name) => name.includes('wrtapi-openapi.')).sort();

const fetchDocument = (acceptEncoding?: string) =>
  router.request({ method: 'GET', path: '/openapi.json', headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } });

test('a client admitting gzip gets the kept gzip, which unzips to the kept document byte for byte', async () => {
  for (const header of ['gzip', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8, *;q=0.1', 'x-gzip', '*', 'identity, *;q=0.5']) {
    const response = await fetchDocument(header);
    assert.is(response.status, 200, header);
    assert.is(response.headers['content-encoding'], 'gzip', header);
    assert.is(response.headers['content-type'], 'application/json');
    assert.is(response.headers.vary, 'Accept-Encoding');
    assert.ok(response.bytes.equals(readFileSync(`${kept}.gz`)), header);
    assert.ok(gunzipSync(response.bytes).equals(readFileSync(kept)), header);
  }
  const size = readFileSync(`${kept}.gz`).length;
  assert.ok(size * 5 < readFileSync(kept).length, `the gzip is ${size} bytes`);
});

test('a client that does not admit gzip gets the document as it is, and told that the answer varies with Accept-Encoding', async () => {
  for (const header of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip;q=0, *', '*;q=0', 'x-gzip;q=0.000']) {
    const response = await fetchDocument(header);
    assert.is(response.status, 200, header);
    assert.is(response.headers['content-encoding'], undefined, header);
    assert.is(response.headers.vary, 'Accept-Encoding');
    assert.is(response.body, readFileSync(kept, 'utf8'), header);
  }
});

test('through the HTTP server: a client that decodes gzip reads the same document', async () => {
  const base = await router.serve();
  const response = await fetch(`${base}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
  assert.is(response.headers.get('content-encoding'), 'gzip');
  assert.is(await response.text(), readFileSync(kept, 'utf8'));
});

test('without gzip the document alone is kept and answered to every client; a killed maker\'s copies go at the next assembly', async () => {
  for (const name of keptNames()) rmSync(router.path(`/tmp/${name}`));
  // What a maker SIGKILLed between its gzip and its renames leaves, named for a process that is gone.
  writeFileSync(router.path('/tmp/.wrtapi-openapi.999999999.json'), '{}');
  writeFileSync(router.path('/tmp/.wrtapi-openapi.999999999.json.gz'), 'x');
  const gzip = router.path('/bin/gzip');
  const standIn = readFileSync(gzip);
  rmSync(gzip);
  try {
    const first = await fetchDocument('gzip');
    assert.is(first.status, 200, first.body);
    assert.equal(keptNames(), [kept.slice(kept.lastIndexOf('/') + 1)]);
    const again = await fetchDocument('gzip');
    assert.is(again.headers['content-encoding'], undefined);
    assert.is(again.body, readFileSync(kept, 'utf8'));
  } finally {
    writeFileSync(gzip, standIn, { mode: 0o755 });
  }
  assert.not.ok(existsSync(`${kept}.gz`));
});

test.run();
