// Which Accept-Encoding headers admit the kept gzip of /openapi.json (RFC 9110 12.5.3).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptsGzip } from '../../src/handlers/openapi.js';

test('gzip is admitted when named, as x-gzip, or through *, with a q above 0', () => {
  for (const header of ['gzip', 'GZIP', 'deflate, gzip', 'gzip;q=1', 'gzip; q=0.001', 'x-gzip', '*', 'br, *;q=0.1', 'gzip;q=0.5, *;q=0']) {
    assert.ok(acceptsGzip(header), header);
  }
});

test('gzip is refused when absent, or given q=0, which a * does not override', () => {
  for (const header of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip;q=0.0, *', 'x-gzip; q=0', '*;q=0', 'gzipped', 'gzip;q=nonsense']) {
    assert.not.ok(acceptsGzip(header), String(header));
  }
});

test.run();
