import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, resolveConfig } from './load.js';

const base = { resources: { notes: { fields: { text: { type: 'string' } } } } };

test('retention defaults: a month or a million events, a month of inbox and outbound deliveries, a pass a minute', () => {
  const r = resolveConfig(base, { env: {} }).retention;
  assert.deepEqual(r, {
    intervalMs: 60_000,
    batchSize: 1000,
    events: { maxAgeMs: 30 * 86_400_000, maxCount: 1_000_000, partitionSize: 100_000 },
    inbox: { maxAgeMs: 30 * 86_400_000, sources: {} },
    outbound: { maxAgeMs: 30 * 86_400_000 },
  });
});

test('retention keys: durations, off, per source, worker settings', () => {
  const config = {
    ...base,
    events: { retention: { maxAge: '12h', maxCount: 'off', partitionSize: 5000 } },
    retention: { interval: '500ms', batchSize: 5000 },
    webhooks: {
      retention: 'off',
      outbound: { retention: '7d' },
      sources: { hooks: { provider: 'generic', verify: 'none', retention: '2d' } },
    },
  };
  const r = resolveConfig(config, { env: {} }).retention;
  assert.deepEqual(r, {
    intervalMs: 500,
    batchSize: 5000,
    events: { maxAgeMs: 12 * 3_600_000, maxCount: null, partitionSize: 5000 },
    inbox: { maxAgeMs: null, sources: { hooks: 2 * 86_400_000 } },
    outbound: { maxAgeMs: 7 * 86_400_000 },
  });
});

test('bad retention values name their key', () => {
  const bad = [
    [{ events: { retention: { maxAge: 'forever' } } }, /events\.retention\.maxAge|events\/retention\/maxAge/],
    [{ events: { retention: { maxCount: 0 } } }, /maxCount/],
    [{ retention: { batchSize: 100_000 } }, /batchSize/],
    [{ webhooks: { retention: '0d' } }, /webhooks.*retention/],
  ] as const;
  for (const [extra, key] of bad) {
    assert.throws(() => resolveConfig({ ...base, ...extra }, { env: {} }), (err: unknown) => err instanceof ConfigError && key.test(err.problems.join('\n')), JSON.stringify(extra));
  }
});
