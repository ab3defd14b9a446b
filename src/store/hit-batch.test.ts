import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { engines } from '../test-support/engines.js';
import { waitFor } from '../test-support/wait-for.js';
import { HitBatch } from './hit-batch.js';
import type { HitCount, HitCounter, Hits } from './hit-counter.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { RedisHitCounter } from './redis/redis-hit-counter.js';
import { redisAnswers } from '../test-support/redis.js';

const postgres = engines.find((e) => e.name === 'postgres');
const redisUp = await redisAnswers();

/** The counter, with every call it gets recorded (the batches as they reach the shared store). */
function recorded(counter: HitCounter): HitCounter & { calls: Hits[][] } {
  const calls: Hits[][] = [];
  return { where: counter.where, calls, count: (hits) => (calls.push([...hits]), counter.count(hits)) };
}

const counters: Array<{ name: string; skip: string | false; open: () => Promise<{ counter: HitCounter; close(): Promise<void> }> }> = [
  {
    name: 'PostgreSQL',
    skip: postgres ? false : 'TEST_DATABASE_URL is not set',
    open: async () => {
      const store = await PostgresStore.connect(postgres!.freshUrl());
      return { counter: store.hitCounter!, close: () => store.close() };
    },
  },
  {
    name: 'Redis',
    skip: redisUp ? false : 'no Redis answers at 127.0.0.1:6379',
    open: async () => {
      const counter = new RedisHitCounter('redis://127.0.0.1:6379', `rw-test-${randomBytes(5).toString('hex')}:`);
      await counter.connect();
      return { counter, close: () => counter.close() };
    },
  },
];

for (const c of counters) {
  describe(`shared hit counts, batched per turn (${c.name})`, { skip: c.skip }, () => {
    let opened: Awaited<ReturnType<(typeof c)['open']>> | undefined;
    after(() => opened?.close());

    test('hits of one turn go in one call; each key counts 1..n with no gap or repeat; two batchers (two nodes) share the counts', async () => {
      opened = await c.open();
      const spy = recorded(opened.counter);
      const a = new HitBatch(spy);
      const b = new HitBatch(spy);
      const keys = ['k1', 'k2', 'k3', 'k\u0000odd', 'k:5'];
      const counts = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit('p', keys[i % keys.length], 60_000)));
      // One turn: one call per batcher, each holding every key once.
      assert.equal(spy.calls.length, 2);
      for (const call of spy.calls) assert.deepEqual(call.map((h) => h.key).sort(), [...keys].sort());
      for (const [k, key] of keys.entries()) {
        const mine = counts.filter((_, i) => i % keys.length === k).map((h: HitCount) => h.count);
        assert.deepEqual(mine.sort((x, y) => x - y), Array.from({ length: 40 }, (_, i) => i + 1), `counts of ${JSON.stringify(key)}`);
      }
      for (const h of counts) assert.ok(h.resetMs > 0 && h.resetMs <= 60_000, `reset ${h.resetMs}`);
      // Another policy with the same key is another count.
      assert.equal((await a.hit('q', 'k1', 60_000)).count, 1);
    });

    test('a window starts at its first hit and ends on the store\'s clock; then the count starts again', async () => {
      opened ??= await c.open();
      const batch = new HitBatch(opened.counter);
      const first = await batch.hit('short', 'k', 300);
      assert.equal(first.count, 1);
      assert.ok(first.resetMs <= 300);
      const again = await waitFor(async () => {
        const h = await batch.hit('short', 'k', 300);
        return h.count === 1 && h;
      }, 'a new window');
      assert.ok(again.resetMs > 0 && again.resetMs <= 300);
    });
  });
}

test('a batch the counter refuses rejects every hit in it; the next batch goes out again', async () => {
  let fail = true;
  const counter: HitCounter = {
    where: 'nowhere',
    count: async (hits) => {
      if (fail) throw new Error('down');
      return hits.map((h) => ({ count: h.n, resetMs: 1000 }));
    },
  };
  const batch = new HitBatch(counter);
  const failed = await Promise.allSettled([batch.hit('p', 'a', 1000), batch.hit('p', 'a', 1000), batch.hit('p', 'b', 1000)]);
  assert.deepEqual(failed.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
  fail = false;
  assert.deepEqual((await Promise.all([batch.hit('p', 'a', 1000), batch.hit('p', 'a', 1000)])).map((h) => h.count), [1, 2]);
});
