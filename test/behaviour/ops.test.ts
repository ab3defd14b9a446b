import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import type { RestwellServer } from '../../src/app/server.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { parseExposition, sampleValue, type Exposition } from '../../src/test-support/prometheus-text.js';
import { bearer, engines, listeningServer, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { opsState } from '../../src/app/ops/ops-state.js';
import { createServer as createHttpServer } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { loggerFromEnv, prettyLogs } from '../../src/app/ops/logger-from-env.js';
import { loggableUrl } from '../../src/app/ops/loggable-url.js';
import { generateEndpointSecret } from '../../src/webhooks/outbound/secrets.js';
import { eventually } from './webhooks-support.js';

/** The public demo plus a webhook source that takes anything (verify: none), to count deliveries. */
const CONFIG = { ...PUBLIC_DEMO, webhooks: { sources: { ...PUBLIC_DEMO.webhooks.sources, plain: { provider: 'generic', verify: 'none' } } } };

for (const engine of engines) {
  describe(`probes (${engine.name})`, () => {
    let server: RestwellServer;
    before(async () => {
      server = await testServer(engine, CONFIG);
    });
    after(() => server.close());

    test('GET /healthz is 200 {"status":"ok"}, public and never cached', async () => {
      const res = await server.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal((await server.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode, 200);
    });

    test('GET /readyz is 200 while the database answers', async () => {
      const res = await server.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    test('GET /readyz is a 503 problem naming the cause when the database does not answer, and /healthz stays 200', async () => {
      const ping = server.store.ping;
      server.store.ping = async () => {
        throw new StoreUnavailableError('the database cannot be reached (ECONNREFUSED); retry shortly');
      };
      try {
        const res = await server.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.ok(res.headers['retry-after']);
        assert.match(res.json().detail, /database does not answer: .*ECONNREFUSED/);
        assert.equal((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      } finally {
        server.store.ping = ping;
      }
    });

    test('GET /readyz is 503 shutting-down once the server drains', async () => {
      const state = opsState(server.context);
      state.draining = true;
      try {
        const res = await server.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.match(res.json().type, /\/problems\/shutting-down$/);
      } finally {
        state.draining = false;
      }
    });

    test('the store answers ping() itself', async () => {
      await server.store.ping();
    });
  });

  describe(`Prometheus metrics over a socket (${engine.name})`, () => {
    let server: RestwellServer;
    let base: string;
    let token: Record<string, string>;
    before(async () => {
      ({ server, base } = await listeningServer(engine, CONFIG));
      token = await bearer(server, ['metrics:read']);
    });
    after(() => server.close());

    const call = async (method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) => {
      const res = await request(base + path, { method: method as any, headers: options.headers, body: options.body });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    };
    const scrape = async (): Promise<Exposition> => {
      const res = await call('GET', '/metrics', { headers: token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-store');
      return parseExposition(res.text);
    };
    const requests = (m: Exposition, labels: Record<string, string>) => sampleValue(m, 'restwell_http_requests_total', labels);

    test('needs a token with metrics:read by default: 401 without one, 403 with another scope', async () => {
      const anonymous = await call('GET', '/metrics');
      assert.equal(anonymous.status, 401);
      assert.match(String(anonymous.headers['www-authenticate']), /^Bearer/);
      const other = await call('GET', '/metrics', { headers: await bearer(server, ['characters:write']) });
      assert.equal(other.status, 403);
      assert.match(String(other.headers['www-authenticate']), /metrics:read/);
      assert.equal((await call('GET', '/metrics', { headers: await bearer(server, ['*']) })).status, 200);
    });

    test('counters move with requests, labelled by route pattern, method and status, never by URL', async () => {
      const before = await scrape();
      const created = await call('POST', '/characters', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Ops ${engine.name} ${Date.now()}` }) });
      assert.equal(created.status, 201);
      const id = JSON.parse(created.text).id;
      for (let i = 0; i < 3; i++) assert.equal((await call('GET', `/characters/${id}`)).status, 200);
      assert.equal((await call('GET', '/characters/999999')).status, 404);
      assert.equal((await call('GET', '/no/such/path-123')).status, 404);
      assert.equal((await call('GET', '/another-unknown-path?x=1')).status, 404);
      const after = await scrape();

      const delta = (labels: Record<string, string>) => requests(after, labels) - requests(before, labels);
      assert.equal(delta({ method: 'POST', route: '/characters', status: '201' }), 1);
      assert.equal(delta({ method: 'GET', route: '/characters/:id', status: '200' }), 3);
      assert.equal(delta({ method: 'GET', route: '/characters/:id', status: '404' }), 1);
      assert.equal(delta({ method: 'GET', route: 'unmatched', status: '404' }), 2);
      const routes = new Set(after.samples.filter((s) => s.name === 'restwell_http_requests_total').map((s) => s.labels.route));
      for (const route of routes) assert.ok(!/\d{3,}|unknown-path|no\/such/.test(route!), `a raw URL became a label: ${route}`);
      assert.equal(after.types.get('restwell_http_requests_total'), 'counter');
    });

    test('the latency histogram has cumulative buckets consistent with its count and sum', async () => {
      await call('GET', '/characters');
      const m = await scrape();
      assert.equal(m.types.get('restwell_http_request_duration_seconds'), 'histogram');
      const labels = { method: 'GET', route: '/characters' };
      const buckets = m.samples
        .filter((s) => s.name === 'restwell_http_request_duration_seconds_bucket' && s.labels.method === 'GET' && s.labels.route === '/characters')
        .map((s) => ({ le: s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), value: s.value }));
      assert.ok(buckets.length >= 10);
      for (let i = 1; i < buckets.length; i++) {
        assert.ok(buckets[i]!.le > buckets[i - 1]!.le, 'buckets in increasing order of le');
        assert.ok(buckets[i]!.value >= buckets[i - 1]!.value, 'buckets are cumulative');
      }
      const count = sampleValue(m, 'restwell_http_request_duration_seconds_count', labels);
      assert.equal(buckets.at(-1)!.le, Infinity);
      assert.equal(buckets.at(-1)!.value, count);
      assert.ok(count >= 1);
      const sum = sampleValue(m, 'restwell_http_request_duration_seconds_sum', labels);
      assert.ok(sum > 0 && sum < count * 10);
      // Counted alike: the requests counter over every status equals the histogram's count.
      const total = m.samples.filter((s) => s.name === 'restwell_http_requests_total' && s.labels.method === 'GET' && s.labels.route === '/characters').reduce((n, s) => n + s.value, 0);
      assert.equal(total, count);
    });

    test('inbound webhook deliveries are counted by configured source and outcome', async () => {
      const before = await scrape();
      const send = (path: string, body: string) => call('POST', path, { headers: { 'content-type': 'application/json' }, body });
      assert.equal((await send('/webhooks/plain', '{"id":"evt_1"}')).status, 200);
      assert.equal((await send('/webhooks/plain', '{"id":"evt_2"}')).status, 200);
      assert.equal((await send('/webhooks/mail', '{}')).status, 401);
      assert.equal((await send('/webhooks/nonexistent-source', '{}')).status, 404);
      const after = await scrape();
      const delta = (labels: Record<string, string>) => sampleValue(after, 'restwell_webhook_deliveries_received_total', labels) - sampleValue(before, 'restwell_webhook_deliveries_received_total', labels);
      assert.equal(delta({ source: 'plain', outcome: 'accepted' }), 2);
      assert.equal(delta({ source: 'mail', outcome: 'unverified' }), 1);
      assert.ok(!after.samples.some((s) => s.labels.source === 'nonexistent-source'));
    });

    test('process metrics, the outbound attempts counter and the commit batch histogram are exposed', async () => {
      const m = await scrape();
      assert.ok(m.samples.some((s) => s.name === 'process_cpu_user_seconds_total'));
      assert.ok(m.samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds'));
      assert.equal(m.types.get('restwell_webhook_delivery_attempts_total'), 'counter');
      assert.equal(m.types.get('restwell_store_commit_batch_size'), 'histogram');
      if (server.store.onCommitBatch) assert.ok(sampleValue(m, 'restwell_store_commit_batch_size_count') >= 1, 'the writes above were committed in batches');
    });
  });
}

describe('metrics access from the config', () => {
  test('server.metrics: public serves /metrics to anyone; off serves none (404) and documents none', async () => {
    const open = await testServer(engines[0], { ...PUBLIC_DEMO, server: { metrics: 'public' } });
    const off = await testServer(engines[0], { ...PUBLIC_DEMO, server: { metrics: 'off' } });
    try {
      const res = await open.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 200);
      assert.ok(parseExposition(res.body).samples.length > 0);
      assert.equal((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
      const doc = (await off.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.equal(doc.paths['/metrics'], undefined);
      assert.ok(doc.paths['/healthz'] && doc.paths['/readyz']);
      const secured = (await open.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.deepEqual(secured.paths['/metrics'].get.security ?? [], []);
    } finally {
      await open.close();
      await off.close();
    }
  });

  test('two servers in one process keep separate registries', async () => {
    const a = await testServer(engines[0], { ...PUBLIC_DEMO, server: { metrics: 'public' } });
    const b = await testServer(engines[0], { ...PUBLIC_DEMO, server: { metrics: 'public' } });
    try {
      for (let i = 0; i < 3; i++) await a.app.inject({ method: 'GET', url: '/healthz' });
      const count = async (s: RestwellServer) => sampleValue(parseExposition((await s.app.inject({ method: 'GET', url: '/metrics' })).body), 'restwell_http_requests_total', { route: '/healthz' });
      assert.equal(await count(a), 3);
      assert.equal(await count(b), 0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('request log', () => {
  test('one info line per request: method, URL without secrets, status, time and request id; never Authorization', async () => {
    const lines: any[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const server = await testServer(engines[0], PUBLIC_DEMO, {}, { level: 'info', stream });
    try {
      await server.app.inject({ method: 'GET', url: '/characters?limit=2&access_token=sekrit-value', headers: { authorization: 'Bearer rw_supersecret' } });
      await server.app.inject({ method: 'GET', url: '/nowhere' });
      const requests = lines.filter((l) => l.url !== undefined);
      assert.equal(requests.length, 2, JSON.stringify(lines));
      const [first, second] = requests;
      assert.equal(first.level, 30);
      assert.equal(first.method, 'GET');
      assert.equal(first.url, '/characters?limit=2&access_token=[redacted]');
      assert.equal(first.status, 401);
      assert.equal(typeof first.ms, 'number');
      assert.ok(first.reqId);
      assert.match(first.msg, /^GET \/characters\?limit=2&access_token=\[redacted\] 401 [\d.]+ms$/);
      assert.equal(second.status, 404);
      const all = JSON.stringify(lines);
      assert.ok(!all.includes('rw_supersecret') && !all.includes('sekrit-value'), all);
    } finally {
      await server.close();
    }
  });

  test('LOG_LEVEL=warn writes no request lines', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
    const server = await testServer(engines[0], PUBLIC_DEMO, {}, { level: 'warn', stream });
    try {
      await server.app.inject({ method: 'GET', url: '/characters' });
      assert.deepEqual(lines, []);
    } finally {
      await server.close();
    }
  });
});

describe('outbound webhook attempts in the metrics', () => {
  test('each attempt the dispatcher makes is counted by outcome', async () => {
    const statuses = [500];
    const receiver = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(statuses.shift() ?? 204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const server = await testServer(engines[0], {
      resources: { characters: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } } },
      server: { metrics: 'public' },
      webhooks: { outbound: { allowNetworks: ['127.0.0.1'], retrySchedule: ['100ms'], pollInterval: '50ms' } },
    });
    try {
      await server.app.ready();
      const secrets = server.context.outbound.secrets.seal([{ secret: generateEndpointSecret(), createdAt: new Date().toISOString() }]);
      await server.store.outbox.createEndpoint({ url, description: null, eventTypes: ['characters.*'], enabled: true, headers: {}, rateLimit: null, sealedSecrets: secrets }, null);
      assert.equal((await server.app.inject({ method: 'POST', url: '/characters', payload: { name: 'Sent' } })).statusCode, 201);
      const metrics = async () => parseExposition((await server.app.inject({ method: 'GET', url: '/metrics' })).body);
      const m = await eventually(async () => {
        const now = await metrics();
        return sampleValue(now, 'restwell_webhook_delivery_attempts_total', { outcome: 'delivered' }) === 1 ? now : undefined;
      }, 'the retry is delivered');
      assert.equal(sampleValue(m, 'restwell_webhook_delivery_attempts_total', { outcome: 'http_error' }), 1);
    } finally {
      await server.close();
      receiver.close();
    }
  });
});

describe('log format from the environment', () => {
  test('pretty in a terminal, JSON lines in a pipe, in production or when LOG_FORMAT=json; LOG_LEVEL sets the level', () => {
    assert.ok(prettyLogs({}, true), 'a terminal gets pretty lines');
    assert.ok(!prettyLogs({}, false));
    assert.ok(!prettyLogs({ NODE_ENV: 'production' }, true));
    assert.ok(!prettyLogs({ LOG_FORMAT: 'json' }, true));
    assert.ok(prettyLogs({ LOG_FORMAT: 'pretty' }, false));
    // JSON lines go through the buffered destination, which the shutdown and exit paths empty.
    const json = loggerFromEnv({}, false).stream as { flush?: unknown; flushSync?: unknown } | undefined;
    assert.equal(typeof json?.flush, 'function');
    assert.equal(typeof json?.flushSync, 'function');
    assert.ok(loggerFromEnv({ LOG_FORMAT: 'pretty' }, false).stream);
    assert.equal(loggerFromEnv({ LOG_LEVEL: 'debug' }, false).level, 'debug');
    assert.equal(loggerFromEnv({}, false).level, 'info');
  });

  test('credential-like query parameters are redacted from logged URLs, others kept as sent', () => {
    assert.equal(loggableUrl('/characters?name=Homer&limit=2'), '/characters?name=Homer&limit=2');
    assert.equal(loggableUrl('/x?token=abc&a=1&API_KEY=k&%74oken=z&flag'), '/x?token=[redacted]&a=1&API_KEY=[redacted]&%74oken=[redacted]&flag');
    assert.equal(loggableUrl('/plain'), '/plain');
  });
});

describe('draining over a socket', () => {
  test('once draining, a request on a connection kept alive is a 503 shutting-down problem and the connection closes', async () => {
    const server = await testServer(engines[0], PUBLIC_DEMO);
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (server.app.server.address() as { port: number }).port;
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d));
      const closed = once(socket, 'close');
      socket.write('GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await eventually(async () => text.includes('{"status":"ok"}') || undefined, 'the first answer');
      opsState(server.context).draining = true;
      text = '';
      socket.write('GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await closed;
      assert.match(text, /^HTTP\/1.1 503 /);
      assert.match(text, /content-type: application\/problem\+json/i);
      assert.match(text, /connection: close/i);
      assert.match(text, /retry-after: 5/i);
      assert.match(text, /"type":"http:\/\/127\.0\.0\.1:\d+\/problems\/shutting-down"/);
      opsState(server.context).draining = false;
    } finally {
      await server.close();
    }
  });
});
