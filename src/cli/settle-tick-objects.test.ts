import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SETTLING_TICKS, settleTickObjects } from './settle-tick-objects.js';

test('settleTickObjects makes its count of ticks through process.nextTick, every one run by the time it resolves', async () => {
  const real = process.nextTick;
  let scheduled = 0;
  let ran = 0;
  process.nextTick = ((callback: () => void) =>
    real(() => {
      ran++;
      callback();
    })) as typeof process.nextTick;
  try {
    const settled = settleTickObjects(500).then(() => {
      scheduled = ran;
    });
    process.nextTick = real;
    await settled;
  } finally {
    process.nextTick = real;
  }
  assert.equal(scheduled, 500);
  assert.ok(SETTLING_TICKS >= 10_000, 'enough calls for V8 to optimize nextTick');
});
