import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { SharedCounts } from '../../auth/shared-counts.js';
import { RedisHitCounter } from '../../store/redis/redis-hit-counter.js';
import { EndpointRates } from './endpoint-rate.js';
import { redisAnswers } from '../../test-support/redis.js';

const redisUp = await redisAnswers();

const LIMIT = { limit: 3, windowMs: 60_000 };

/** Shared counts on a Redis at `url` (its own key prefix), and how to close them. */
async function sharedOn(url: string, failOpen: boolean): Promise<SharedCounts> {
  const counter = new RedisHitCounter(url, `rw-test-${randomBytes(5).toString('hex')}:`);
  await counter.connect();
  return new SharedCounts(counter, failOpen);
}

test('two dispatchers sharing counts send an endpoint its limit together, then are told when the shared window ends', { skip: redisUp ? false : 'no Redis answers at 127.0.0.1:6379' }, async () => {
  const shared = await sharedOn('redis://127.0.0.1:6379', true);
  try {
    const [a, b] = [new EndpointRates(shared), new EndpointRates(shared)];
    const now = Date.now();
    const taken = [];
    for (let i = 0; i < 6; i++) taken.push(await (i % 2 ? a : b).take('ep_1', LIMIT, now));
    assert.deepEqual(taken.slice(0, 3), [undefined, undefined, undefined]);
    for (const later of taken.slice(3)) assert.ok(typeof later === 'number' && later > now + 50_000 && later <= now + 60_000, `deferred to ${later}`);
    // Another endpoint has its own window; no limit is never counted.
    assert.equal(await a.take('ep_2', LIMIT, now), undefined);
    assert.equal(a.take('ep_1', null, now), undefined);
  } finally {
    await shared.close();
  }
});

test('the shared counter unreachable: fail open counts on this node, fail closed puts deliveries back for a few seconds', async () => {
  // Nothing listens on port 1.
  const open = await sharedOn('redis://127.0.0.1:1', true);
  const closed = await sharedOn('redis://127.0.0.1:1', false);
  try {
    const now = Date.now();
    const rates = new EndpointRates(open);
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await rates.take('ep_1', LIMIT, now));
    assert.deepEqual(taken, [undefined, undefined, undefined, now + 60_000], 'this node alone allows the limit, then defers to its own window');
    assert.equal(await new EndpointRates(closed).take('ep_1', LIMIT, now), now + 5000);
  } finally {
    await open.close();
    await closed.close();
  }
});
