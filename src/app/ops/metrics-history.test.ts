import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppMetrics } from './app-metrics.js';
import { histogramQuantile } from './histogram-quantile.js';
import { historyDocument } from './history-document.js';
import { routeGroup, type ReadingSources } from './history-reading.js';
import { MetricsHistory } from './metrics-history.js';
import { OutcomeTally } from './outcome-tally.js';

const RESOURCES = new Set(['characters', 'messages']);

/** A history over real AppMetrics, with a clock the test moves (readings are taken at `now`). */
function setup(options: { keepMs?: number; intervalMs?: number } = {}) {
  const metrics = new AppMetrics();
  let streams = 0;
  const sources: ReadingSources = {
    metrics,
    group: (route) => routeGroup(route, RESOURCES),
    resource: (route) => (RESOURCES.has(route.split('/')[1]!) ? route.split('/')[1] : undefined),
    openStreams: () => streams,
  };
  const history = new MetricsHistory(sources, { intervalMs: 10_000, keepMs: 60_000, ...options, nodeId: 'test-node' });
  return { metrics, history, setStreams: (n: number) => (streams = n) };
}

describe('metrics history', () => {
  test('a sample turns the counters since the last one into rates per second, by route group, status class and resource', async (t) => {
    const started = Date.now();
    t.mock.timers.enable({ apis: ['Date'], now: started });
    const { metrics, history, setStreams } = setup();
    const list = metrics.route('/characters');
    const item = metrics.route('/characters/:id');
    const missing = metrics.route('unmatched');
    for (let i = 0; i < 20; i++) list('GET', 200, 0.004);
    for (let i = 0; i < 10; i++) list('POST', 201, 0.02);
    item('DELETE', 204, 0.01);
    item('PATCH', 422, 0.01);
    missing('GET', 404, 0.001);
    list('GET', 500, 0.3);
    setStreams(3);
    t.mock.timers.tick(10_000);
    const first = (await history.sample())!;
    assert.equal(first.groups.records!.rate, 3.3, '33 record requests in 10 s');
    assert.equal(first.groups.unmatched!.rate, 0.1);
    assert.deepEqual(first.errors, { '4xx': 0.2, '5xx': 0.1 });
    assert.deepEqual(first.writes, { characters: 1.1 }, 'the 422 PATCH is not a write');
    assert.equal(first.streams, 3);
    assert.ok(first.groups.records!.p50Ms! > 2.5 && first.groups.records!.p50Ms! <= 5, `p50 within the 2.5–5 ms bucket: ${first.groups.records!.p50Ms}`);
    assert.ok(first.groups.records!.p99Ms! > 100, 'the slow 500 sets the p99');

    // Only what happened since the first sample counts in the second.
    for (let i = 0; i < 5; i++) list('GET', 200, 0.004);
    t.mock.timers.tick(5_000);
    const second = (await history.sample())!;
    assert.equal(second.groups.records!.rate, 1);
    assert.equal(second.groups.unmatched, undefined, 'a group with no request is left out');
    assert.deepEqual(second.errors, { '4xx': 0, '5xx': 0 });
    assert.deepEqual(second.writes, { characters: 0 });
    assert.equal(second.t, (started + 15_000) / 1000);
  });

  test('inbound deliveries per outcome and per source, outbound attempts per endpoint: success rate and latency', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { metrics, history } = setup();
    metrics.inboundDelivery('mail', 'accepted', 0.02);
    metrics.inboundDelivery('mail', 'accepted', 0.02);
    metrics.inboundDelivery('mail', 'unverified', 0.001);
    metrics.inboundDelivery('sms', 'accepted', 0.2);
    metrics.outboundAttempt('delivered', 'ep1', 0.05);
    metrics.outboundAttempt('http_error', 'ep1', 0.05);
    metrics.outboundAttempt('network_error', 'ep2', 1);
    t.mock.timers.tick(10_000);
    const s = (await history.sample())!;
    assert.deepEqual(s.inbound, { accepted: 0.3, unverified: 0.1 });
    assert.equal(s.sources.mail!.count, 3);
    assert.equal(s.sources.mail!.successRate, 0.667);
    assert.equal(s.sources.sms!.successRate, 1);
    assert.ok(s.sources.sms!.p50Ms! > 100 && s.sources.sms!.p50Ms! <= 250);
    assert.deepEqual({ ...s.endpoints.ep1, p50Ms: undefined, p99Ms: undefined }, { count: 2, successRate: 0.5, p50Ms: undefined, p99Ms: undefined });
    assert.equal(s.endpoints.ep2!.successRate, 0);
    assert.equal(s.outbound.delivered, 0.1);
    assert.equal(s.outbound.retrying, 0.2, 'no delivery was given up on, so both failures are retried');
    assert.equal(s.outbound.failed, 0);
    assert.ok(s.outbound.p99Ms! > 500, 'the slow network error is in the outbound latency');
  });

  test('keeps only `keep / interval` samples, oldest dropped first, and the document has one value per sample time', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { metrics, history } = setup({ intervalMs: 10_000, keepMs: 30_000 });
    assert.equal(history.capacity, 3);
    const route = metrics.route('/messages');
    for (let i = 1; i <= 5; i++) {
      for (let j = 0; j < i * 10; j++) route('GET', 200, 0.001);
      t.mock.timers.tick(10_000);
      await history.sample();
    }
    assert.equal(history.list().length, 3);
    const doc = historyDocument(history.node, history.intervalMs, history.capacity, history.list());
    assert.equal(doc.node.id, 'test-node');
    assert.equal(doc.keepSeconds, 30);
    assert.deepEqual(doc.requests.records!.rate, [3, 4, 5]);
    assert.deepEqual(doc.errors['5xx'], [0, 0, 0]);
    assert.deepEqual(doc.eventRows, [null, null, null], 'no store measure: nulls, not zeros');
    const since = historyDocument(history.node, history.intervalMs, history.capacity, history.list(), { since: doc.time[1]! });
    assert.deepEqual(since.time, [doc.time[2]]);
  });

  test('a source or endpoint filter keeps only its series', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { metrics, history } = setup();
    metrics.inboundDelivery('mail', 'accepted', 0.01);
    metrics.outboundAttempt('delivered', 'ep1', 0.01);
    metrics.outboundAttempt('delivered', 'ep2', 0.01);
    t.mock.timers.tick(1000);
    await history.sample();
    const doc = historyDocument(history.node, history.intervalMs, history.capacity, history.list(), { endpoint: 'ep2' });
    assert.deepEqual(Object.keys(doc.endpoints), ['ep2']);
    assert.deepEqual(doc.sources, {});
    assert.deepEqual(doc.endpoints.ep2!.successRate, [1]);
  });

  test('concurrent calls share one sample; start() samples on the interval and stop() ends it', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: Date.now() });
    const { history } = setup({ intervalMs: 1000, keepMs: 10_000 });
    const [a, b] = await Promise.all([history.sample(), history.sample()]);
    assert.equal(a, b);
    assert.equal(history.list().length, 1);
    const next = new Promise((resolve) => history.onSample(resolve));
    history.start();
    t.mock.timers.tick(1000);
    await next;
    assert.equal(history.list().length, 2);
    history.stop();
    t.mock.timers.tick(5000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(history.list().length, 2);
  });
});

describe('histogramQuantile', () => {
  const bounds = [1, 2, 4];
  test('interpolates within the bucket the rank falls in', () => {
    assert.equal(histogramQuantile(0.5, bounds, [0, 10, 0, 0]), 1.5);
    assert.equal(histogramQuantile(0.5, bounds, [10, 0, 0, 0]), 0.5);
    assert.equal(histogramQuantile(0.99, bounds, [50, 0, 50, 0]), 3.96);
  });
  test('nothing counted is undefined; the open last bucket gives the highest bound', () => {
    assert.equal(histogramQuantile(0.5, bounds, [0, 0, 0, 0]), undefined);
    assert.equal(histogramQuantile(0.5, bounds, [0, 0, 0, 5]), 4);
  });
});

describe('OutcomeTally', () => {
  test('counts per key up to its cap of keys, then ignores new keys', () => {
    const tally = new OutcomeTally([1], 2);
    tally.count('a', true, 0.5);
    tally.count('b', false, 2);
    tally.count('c', true, 0.5);
    tally.count('a', false, 0.5);
    assert.deepEqual(Object.fromEntries(tally.snapshot()), { a: { count: 2, ok: 1, buckets: [2, 0] }, b: { count: 1, ok: 0, buckets: [0, 1] } });
  });
});

describe('routeGroup', () => {
  test('classifies route patterns into a handful of groups', () => {
    const g = (r: string) => routeGroup(r, RESOURCES);
    assert.deepEqual(
      ['/characters/:id', '/webhooks/:source', '/webhook-endpoints/:id/deliveries', '/events/stream', '/oauth/token', '/_/:asset', '/metrics/history', 'unmatched', '/openapi.json'].map(g),
      ['records', 'inbound', 'outbound', 'events', 'auth', 'console', 'ops', 'unmatched', 'other'],
    );
  });
});
