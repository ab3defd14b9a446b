import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { opsState } from '../../src/app/ops/ops-state.js';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';

/** The public demo plus a webhook source that takes anything (verify: none), to count deliveries. */
const CONFIG = { ...PUBLIC_DEMO, webhooks: { sources: { ...PUBLIC_DEMO.webhooks.sources, plain: { provider: 'generic', verify: 'none' } } } };

for (const engine of engines) {
  describe(`GET /metrics/history (${engine.name})`, () => {
    let server: RestwellServer;
    let token: Record<string, string>;
    before(async () => {
      server = await testServer(engine, CONFIG);
      token = await bearer(server, ['metrics:read']);
    });
    after(() => server.close());
    const get = (url: string, headers: Record<string, string> = token) => server.app.inject({ method: 'GET', url, headers });

    test('needs what /metrics needs: 401 without a token, 403 without metrics:read', async () => {
      assert.equal((await get('/metrics/history', {})).statusCode, 401);
      const other = await get('/metrics/history', await bearer(server, ['characters:write']));
      assert.equal(other.statusCode, 403);
      assert.match(String(other.headers['www-authenticate']), /metrics:read/);
    });

    test('bad query parameters are 400 problems that say what to send', async () => {
      for (const [url, detail] of [
        ['/metrics/history?from=1', /unknown query parameter "from"; use since, endpoint, source/],
        ['/metrics/history?since=yesterday', /since: "yesterday" is not a time in seconds/],
        ['/metrics/history?since=1&since=2', /"since" is given more than once/],
        ['/metrics/history?endpoint=', /endpoint: empty/],
      ] as const) {
        const res = await get(url);
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
        assert.match(res.json().detail, detail);
      }
    });

    test('answers this node\'s samples as columns: requests, errors, writes and inbound deliveries from the traffic since the last sample', async () => {
      const history = opsState(server.context).history!;
      await history.sample();
      const before = (await get('/metrics/history')).json();
      for (let i = 0; i < 3; i++) assert.equal((await server.app.inject({ method: 'POST', url: '/characters', payload: { name: `Sample ${engine.name} ${i}` } })).statusCode, 201);
      assert.equal((await server.app.inject({ method: 'GET', url: '/no-such-thing' })).statusCode, 404);
      assert.equal((await server.app.inject({ method: 'POST', url: '/webhooks/plain', payload: { hello: 'world' } })).statusCode, 200);
      const sample = await history.sample();
      assert.ok(sample);

      const res = await get('/metrics/history');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      const doc = res.json();
      assert.equal(doc.node.id, server.context.outbound.attempts.node);
      assert.equal(doc.intervalSeconds, 10);
      assert.equal(doc.keepSeconds, 3600);
      assert.equal(doc.time.length, before.time.length + 1);
      const last = (series: Array<number | null>) => series[series.length - 1];
      for (const series of [doc.errors['4xx'], doc.writes.characters, doc.inbound.accepted, doc.requests.records.rate, doc.requests.unmatched.rate, doc.requests.inbound.rate, doc.sources.plain.count]) {
        assert.equal(series.length, doc.time.length);
        assert.ok((last(series) ?? 0) > 0, JSON.stringify(doc));
      }
      assert.equal(last(doc.sources.plain.successRate), 1);
      assert.ok(last(doc.databaseBytes) > 0, 'the store measured its size');
      // A sample after the last one we have: nothing new yet.
      const since = (await get(`/metrics/history?since=${last(doc.time)}&source=plain`)).json();
      assert.deepEqual(since.time, []);
      assert.deepEqual(since.endpoints, {});
    });
  });
}

describe('GET /metrics/history follows server.metrics', () => {
  test('public: anyone may read it; off: there is none (404) and nothing is sampled', async () => {
    const open = await testServer(engines[0], { ...PUBLIC_DEMO, server: { metrics: 'public', metricsHistory: { interval: '1s', keep: '1m' } } });
    const off = await testServer(engines[0], { ...PUBLIC_DEMO, server: { metrics: 'off' } });
    try {
      const res = await open.app.inject({ method: 'GET', url: '/metrics/history' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual([res.json().intervalSeconds, res.json().keepSeconds], [1, 60]);
      assert.equal((await off.app.inject({ method: 'GET', url: '/metrics/history' })).statusCode, 404);
      assert.equal(opsState(off.context).history, undefined);
    } finally {
      await open.close();
      await off.close();
    }
  });

  test('a history that would keep more than 10000 samples is refused at start-up', async () => {
    await assert.rejects(testServer(engines[0], { ...PUBLIC_DEMO, server: { metricsHistory: { interval: '100ms', keep: '1h' } } }), /server\.metricsHistory: keeping 1h at one sample every 100ms is more than 10000 samples/);
  });
});
