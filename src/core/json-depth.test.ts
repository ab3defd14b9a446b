import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exceedsDepth } from './json-depth.js';

const nested = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels));

test('scalars and shallow values are within any limit', () => {
  assert.equal(exceedsDepth(1, 0), false);
  assert.equal(exceedsDepth({ a: [1, { b: 2 }] }, 3), false);
  assert.equal(exceedsDepth({ a: [1, { b: 2 }] }, 2), true);
});

test('a value nested 100,000 levels is measured without overflowing the stack', () => {
  assert.equal(exceedsDepth(nested(100_000), 64), true);
  assert.equal(exceedsDepth(nested(64), 64), false);
  assert.equal(exceedsDepth(nested(65), 64), true);
});
