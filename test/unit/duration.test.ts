import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDuration } from '../../src/auth/duration.js';

test('each unit', () => {
  assert.is(parseDuration('1s'), 1);
  assert.is(parseDuration('90s'), 90);
  assert.is(parseDuration('15m'), 900);
  assert.is(parseDuration('2h'), 7200);
  assert.is(parseDuration('30d'), 2592000);
  assert.is(parseDuration('365d'), 31536000);
});

test('malformed durations', () => {
  for (const text of ['', '0s', '0d', '-1s', '+1s', '1', '10', 's', '1.5h', '1e3s', '01m', '1 s', ' 1s', '1s ', '1S', '1w', '1ms', '1hm', '1h30m', '0x10s', '１s', '1s\n']) {
    assert.is(parseDuration(text), undefined, JSON.stringify(text));
  }
});

test('absurdly large values are refused rather than rounded', () => {
  assert.is(parseDuration('99999999999999999999d'), undefined);
  assert.is(parseDuration(`${Number.MAX_SAFE_INTEGER}s`), Number.MAX_SAFE_INTEGER);
});

test.run();
