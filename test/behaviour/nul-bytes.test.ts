import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';
import { signStripe } from '../../src/webhooks/inbound/verifiers/index.js';
import { SECRETS, WEBHOOK_CONFIG } from './webhooks-support.js';

// PostgreSQL text cannot hold NUL: every path where a client's NUL could reach a query must answer as
// SQLite does (found by the fuzz suite: these were 500s on PostgreSQL).
for (const engine of engines) {
  describe(`NUL bytes never reach the database (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    before(async () => {
      server = await testServer(engine, WEBHOOK_CONFIG);
      admin = await bearer(server);
    });
    after(() => server.close());

    test('an id with NUL names no OAuth client, API key or inbox delivery: 404', async () => {
      for (const url of ['/oauth/clients/a%00b', '/api-keys/key_%00', '/webhooks/stripe/events/whd_%00']) {
        for (const method of ['GET', 'DELETE'] as const) {
          if (method === 'DELETE' && url.startsWith('/webhooks')) continue;
          const res = await server.app.inject({ method, url, headers: admin });
          assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        }
      }
    });

    test('a log filter with NUL is 400 on every log, as on a resource list', async () => {
      const ep = await server.app.inject({ method: 'POST', url: '/webhook-endpoints', headers: admin, payload: { url: 'https://example.com/hook' } });
      assert.equal(ep.statusCode, 201, ep.body);
      const logs = ['/events?type=a%00b', '/events?type=characters.created,%00', '/webhooks/stripe/events?status=%00', `${ep.headers.location}/deliveries?eventType=x%00`, `${ep.headers.location}/deliveries?status=failed%00`];
      for (const url of logs) {
        const res = await server.app.inject({ method: 'GET', url, headers: admin });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.match(res.json().detail, /NUL/);
      }
    });

    test('a signed delivery whose event id holds NUL is stored once and de-duplicated by that id', async () => {
      const body = JSON.stringify({ id: 'evt_\u0000nul', type: 'charge.succeeded', data: {} });
      const send = () =>
        server.app.inject({ method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signStripe(SECRETS.stripe, body) }, payload: body });
      const first = await send();
      assert.equal(first.statusCode, 200, first.body);
      const again = await send();
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, first.json().id, 'the redelivery is the same delivery');
      const list = await server.app.inject({ method: 'GET', url: '/webhooks/stripe/events', headers: admin });
      assert.equal(list.json()._embedded.deliveries.length, 1);
    });
  });
}
