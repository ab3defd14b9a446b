import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicLengthEqualAny, safeEqual, safeEqualAny } from './safe-equal.js';

test('safeEqual and safeEqualAny compare values of any length', () => {
  assert.equal(safeEqual('secret', 'secret'), true);
  assert.equal(safeEqual('secret', 'secre'), false);
  assert.equal(safeEqualAny('b', ['a', 'b']), true);
  assert.equal(safeEqualAny('c', ['a', 'b']), false);
});

test('publicLengthEqualAny finds the expected value among candidates; other lengths never match', () => {
  const expected = 'q3/9R0xWJ9u8rRcdYbF5qj0Sm0tC7N3pHXk1H4a5VZE=';
  assert.equal(publicLengthEqualAny(expected, ['short', expected]), true);
  assert.equal(publicLengthEqualAny(expected, [`${expected}x`, expected.slice(1)]), false);
  assert.equal(publicLengthEqualAny(expected, [expected.replace('q', 'Q')]), false);
  assert.equal(publicLengthEqualAny(expected, []), false);
});
