// What an operator can alert on about outbound webhooks, on every engine: the pending deliveries
// and the backlog's age per endpoint (read from the store at scrape time), the deliveries given up
// on (a counter per endpoint and a warning line each), and the line shutdown writes about what it left pending.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { parseExposition, sampleValue, type Exposition } from '../../src/test-support/prometheus-text.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { WebhookEndpoint } from '../../src/store/outbox.js';
import { generateEndpointSecret } from '../../src/webhooks/outbound/secrets.js';
import { eventually } from './webhooks-support.js';

const config = (retrySchedule: string[]) => ({
  server: { metrics: 'public' },
  auth: { rateLimit: false },
  resources: { characters: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } } },
  webhooks: { outbound: { allowNetworks: ['127.0.0.1'], retrySchedule, pollInterval: '50ms' } },
});

/** A server whose JSON log lines are kept. */
async function loggedServer(engine: (typeof engines)[number], retrySchedule: string[]): Promise<{ server: RestwellServer; lines: any[] }> {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const server = await testServer(engine, config(retrySchedule), {}, { level: 'warn', stream });
  await server.app.ready();
  return { server, lines };
}

/** A loopback URL nothing listens on (a port just closed): every delivery to it is refused at once. */
async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}/gone`;
}

/** A receiver that answers 204 to everything. */
async function liveReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, server };
}

async function endpoint(server: RestwellServer, url: string): Promise<WebhookEndpoint> {
  const sealedSecrets = server.context.outbound.secrets.seal([{ secret: generateEndpointSecret(), createdAt: new Date().toISOString() }]);
  return server.store.outbox.createEndpoint({ url, description: null, eventTypes: null, enabled: true, headers: { authorization: 'Bearer receiver-credential' }, rateLimit: null, sealedSecrets }, null);
}

async function write(server: RestwellServer, name: string): Promise<void> {
  const res = await server.app.inject({ method: 'POST', url: '/characters', payload: { name } });
  assert.equal(res.statusCode, 201, res.body);
}

async function scrape(server: RestwellServer): Promise<Exposition> {
  const res = await server.app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200);
  return parseExposition(res.body);
}

for (const engine of engines) {
  describe(`outbox observability (${engine.name})`, () => {
    test('pending deliveries and the backlog age per endpoint: a dead endpoint shows its backlog, a healthy one 0; shutdown says what it left pending', async () => {
      const { server, lines } = await loggedServer(engine, ['1h']);
      const live = await liveReceiver();
      try {
        const dead = await endpoint(server, await deadUrl());
        const healthy = await endpoint(server, live.url);
        const started = Date.now();
        for (const name of ['Ada', 'Grace', 'Edsger']) await write(server, name);
        // The dead endpoint's three are tried once each, then wait an hour for their retry; the healthy endpoint's are delivered.
        await eventually(async () => {
          const dels = await server.store.outbox.listDeliveries(dead.id, { limit: 10 });
          const sent = await server.store.outbox.listDeliveries(healthy.id, { limit: 10, status: 'delivered' });
          return dels.length === 3 && dels.every((d) => d.attempts === 1 && d.lastError) && sent.length === 3;
        }, 'three failed first attempts to the dead endpoint, three deliveries to the healthy one');
        const metrics = await scrape(server);
        assert.equal(metrics.types.get('restwell_webhook_deliveries_pending'), 'gauge');
        assert.equal(metrics.types.get('restwell_webhook_oldest_pending_delivery_age_seconds'), 'gauge');
        assert.equal(sampleValue(metrics, 'restwell_webhook_deliveries_pending', { endpoint: dead.id }), 3);
        assert.equal(sampleValue(metrics, 'restwell_webhook_deliveries_pending', { endpoint: healthy.id }), 0);
        assert.ok(metrics.samples.some((s) => s.name === 'restwell_webhook_deliveries_pending' && s.labels.endpoint === healthy.id), 'an endpoint with nothing pending is reported as 0, not left out');
        const age = sampleValue(metrics, 'restwell_webhook_oldest_pending_delivery_age_seconds', { endpoint: dead.id });
        assert.ok(age >= 0 && age <= (Date.now() - started) / 1000 + 1, `the backlog is as old as the first write at most: ${age}`);
        assert.equal(sampleValue(metrics, 'restwell_webhook_oldest_pending_delivery_age_seconds', { endpoint: healthy.id }), 0);
        for (const s of metrics.samples.filter((x) => x.name.startsWith('restwell_webhook_deliveries_pending') || x.name.startsWith('restwell_webhook_oldest'))) {
          assert.deepEqual(Object.keys(s.labels), ['endpoint'], 'one series per endpoint, nothing per delivery');
        }
        assert.equal(sampleValue(metrics, 'restwell_webhook_deliveries_given_up_total', { endpoint: dead.id }), 0, 'nothing is given up while retries remain');
      } finally {
        await server.close();
        await new Promise((r) => live.server.close(r));
      }
      const stopped = lines.filter((l) => /webhook dispatcher stopped/.test(l.msg));
      assert.equal(stopped.length, 1, JSON.stringify(lines));
      assert.equal(stopped[0].level, 40, 'a warning when deliveries are left pending');
      assert.equal(stopped[0].pending, 3);
      assert.equal(stopped[0].endpoints, 1);
    });

    test('a delivery given up on counts for its endpoint and writes one warning naming it, without the payload, URL or credentials', async () => {
      const { server, lines } = await loggedServer(engine, ['10ms']);
      try {
        const dead = await endpoint(server, await deadUrl());
        await write(server, 'Barbara');
        const [given] = await eventually(async () => {
          const dels = await server.store.outbox.listDeliveries(dead.id, { limit: 10, status: 'failed' });
          return dels.length ? dels : undefined;
        }, 'the delivery is given up on after its one retry');
        const warned = await eventually(async () => {
          const found = lines.filter((l) => /given up/.test(l.msg));
          return found.length ? found : undefined;
        }, 'the give-up line');
        assert.equal(warned.length, 1);
        const line = warned[0];
        assert.equal(line.level, 40);
        assert.equal(line.endpoint, dead.id);
        assert.equal(line.delivery, given!.id);
        assert.equal(line.eventType, 'characters.created');
        assert.equal(line.attempts, 2);
        assert.equal(line.lastStatus, null);
        assert.match(line.lastError, /refused/);
        const text = JSON.stringify(line);
        assert.ok(!text.includes('Barbara') && !text.includes('/gone') && !text.includes('receiver-credential'), text);
        const metrics = await scrape(server);
        assert.equal(metrics.types.get('restwell_webhook_deliveries_given_up_total'), 'counter');
        assert.equal(sampleValue(metrics, 'restwell_webhook_deliveries_given_up_total', { endpoint: dead.id }), 1);
        assert.equal(sampleValue(metrics, 'restwell_webhook_deliveries_pending', { endpoint: dead.id }), 0);
      } finally {
        await server.close();
      }
      const stopped = lines.filter((l) => /webhook dispatcher stopped/.test(l.msg));
      assert.equal(stopped.length, 0, 'nothing pending: the shutdown line is info, below this logger\'s warn level');
    });
  });
}
