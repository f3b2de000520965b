import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isoTime, windowSeconds } from '../../src/config/armed.js';
import { ApiError } from '../../src/http/errors.js';

test('a window is whole seconds from 10 to 3600', () => {
  for (const [value, seconds] of [['10', 10], ['3600', 3600], ['0060', 60]] as const) assert.is(windowSeconds('confirm_within', value), seconds);
  for (const value of [undefined, '', '9', '3601', '60s', '1e2', '-10', '60.0', ' 60', '99999']) {
    try {
      windowSeconds('extend', value);
      assert.unreachable(`extend=${value}`);
    } catch (error) {
      assert.instance(error, ApiError);
      assert.equal([(error as ApiError).status, (error as ApiError).code, (error as ApiError).message], [400, 'bad_request', 'extend must be a whole number of seconds from 10 to 3600']);
    }
  }
});

test('deadlines are RFC 3339 in UTC, to the second', () => {
  assert.is(isoTime(0), '1970-01-01T00:00:00Z');
  assert.is(isoTime(1795947570), '2026-11-29T10:19:30Z');
});

test.run();
