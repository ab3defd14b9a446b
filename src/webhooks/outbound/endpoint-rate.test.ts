import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EndpointRates } from './endpoint-rate.js';

test('an endpoint gets its limit per window; the rest are told when its window ends', () => {
  const rates = new EndpointRates();
  const limit = { limit: 2, windowMs: 1000 };
  assert.equal(rates.take('ep_a', limit, 0), undefined);
  assert.equal(rates.take('ep_a', limit, 10), undefined);
  assert.equal(rates.take('ep_a', limit, 20), 1000, 'the third waits for the next window');
  assert.equal(rates.take('ep_b', limit, 20), undefined, 'endpoints are counted apart');
  assert.equal(rates.take('ep_a', limit, 1000), undefined, 'a new window');
  assert.equal(rates.take('ep_a', null, 1001), undefined, 'no limit');
});
