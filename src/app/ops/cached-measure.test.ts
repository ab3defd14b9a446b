import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedMeasure } from './cached-measure.js';

/** A measurement the test answers by hand, and a clock it moves by hand. */
function rig(options: { maxAgeMs?: number; waitMs?: number } = {}) {
  let now = 0;
  const asked: Array<{ resolve: (v: number) => void; reject: (e: Error) => void }> = [];
  const errors: unknown[] = [];
  const measure = new CachedMeasure(() => new Promise<number>((resolve, reject) => asked.push({ resolve, reject })), {
    maxAgeMs: options.maxAgeMs ?? 10_000,
    waitMs: options.waitMs ?? 60_000,
    now: () => now,
    onError: (err) => errors.push(err),
  });
  return { measure, asked, errors, advance: (ms: number) => (now += ms) };
}

test('concurrent asks share one measurement, and asks within the age none', async () => {
  const { measure, asked, advance } = rig();
  const storm = Array.from({ length: 50 }, () => measure.get());
  assert.equal(asked.length, 1);
  asked[0]!.resolve(42);
  assert.deepEqual(new Set(await Promise.all(storm)), new Set([42]));
  advance(9_999);
  assert.equal(await measure.get(), 42);
  assert.equal(asked.length, 1);
  advance(1);
  const next = measure.get();
  assert.equal(asked.length, 2, 'once the figure is as old as maxAgeMs, the next ask measures again');
  asked[1]!.resolve(43);
  assert.equal(await next, 43);
  assert.equal(measure.measurements, 2);
});

test('a failed measurement leaves no figure and is not tried again before the age is reached', async () => {
  const { measure, asked, errors, advance } = rig();
  const first = measure.get();
  asked[0]!.resolve(7);
  assert.equal(await first, 7);
  advance(10_000);
  const failing = measure.get();
  asked[1]!.reject(new Error('the database does not answer'));
  assert.equal(await failing, undefined, 'a gap, not the stale figure');
  assert.equal(errors.length, 1);
  assert.equal(await measure.get(), undefined);
  assert.equal(asked.length, 2, 'a database that is down is not asked again at every scrape');
  measure.invalidate();
  void measure.get();
  assert.equal(asked.length, 3);
});

test('an ask waits for a slow measurement only so long; the measurement still lands for the next one', async () => {
  const { measure, asked, advance } = rig({ waitMs: 1 });
  assert.equal(await measure.get(), undefined, 'the scrape goes on without the figure');
  assert.equal(asked.length, 1);
  assert.equal(await measure.get(), undefined);
  assert.equal(asked.length, 1, 'still one measurement running, not a second');
  asked[0]!.resolve(5);
  // A turn of the event loop: the measurement's settlement has run.
  await new Promise((resolve) => setImmediate(resolve));
  advance(1);
  assert.equal(await measure.get(), 5);
  assert.equal(asked.length, 1);
});
