// The routes the console's outbound-webhook and event pages need, on every engine: the catalog of
// event types an endpoint may subscribe to, the test message (signed, sent to a real receiver on
// loopback), and the event log newest first, filtered by type and by resource.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { RestwellServer } from '../../src/app/server.js';
import { ConformanceChecker, type Exchange } from '../../src/test-support/openapi-conformance.js';
import { bearer, engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';

const CONFIG = {
  ...PUBLIC_DEMO,
  webhooks: { ...PUBLIC_DEMO.webhooks, outbound: { allowNetworks: ['127.0.0.1'], pollInterval: '50ms', retrySchedule: ['1h'], timeout: '5s' } },
};

for (const engine of engines) {
  describe(`webhook event types, test messages and the event log newest first (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    let receiver: Server;
    let receiverUrl: string;
    let status = 204;
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const exchanges: Exchange[] = [];

    async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const all = { ...admin, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers };
      const res = await server.app.inject({ method: method as 'GET', url, headers: all, payload });
      exchanges.push({ method, url, ...(payload === undefined ? {} : { requestType: all['content-type'], requestBody: payload }), status: res.statusCode, headers: res.headers as Exchange['headers'], body: res.body });
      assert.ok(res.statusCode < 500, `${method} ${url} → ${res.statusCode} ${res.body}`);
      return res;
    }

    before(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      server = await testServer(engine, CONFIG);
      await server.app.ready();
      admin = await bearer(server);
    });
    after(async () => {
      await server.close();
      await new Promise((resolve) => receiver.close(resolve));
    });

    test('GET /webhook-endpoints/event-types lists every type the config emits and the patterns eventTypes accepts', async () => {
      const res = await call('GET', '/webhook-endpoints/event-types');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      for (const type of ['characters.created', 'characters.updated', 'characters.deleted', 'messages.created']) assert.ok(body.eventTypes.includes(type), type);
      // The demo's sources store and reply, but none emits: their webhook.<source>.received never happens.
      assert.ok(!body.eventTypes.some((t: string) => t.startsWith('webhook.')), 'no source of the demo emits');
      assert.ok(!body.eventTypes.includes('webhook.test'), 'the test message is not subscribable');
      assert.equal(body.testEventType, 'webhook.test');
      for (const pattern of ['*', 'characters.*']) assert.ok(body.patterns.includes(pattern), pattern);
      // Every pattern listed is accepted by POST, so a form built from the list never meets a 422.
      const ep = await call('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: body.patterns.slice(0, 50) });
      assert.equal(ep.statusCode, 201, ep.body);
      assert.equal((await call('DELETE', `/webhook-endpoints/${ep.json().id}`)).statusCode, 204);
      const anonymous = await server.app.inject({ url: '/webhook-endpoints/event-types' });
      assert.equal(anonymous.statusCode, 401);
      assert.match(String(anonymous.headers['content-type']), /problem\+json/);
      const reader = await bearer(server, ['characters:read']);
      assert.equal((await server.app.inject({ url: '/webhook-endpoints/event-types', headers: reader })).statusCode, 403);
    });

    test('POST /webhook-endpoints/{id}/test sends a signed webhook.test message and answers what came back, recording nothing', async () => {
      const ep = (await call('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: ['characters.created'], headers: { 'x-team': 'blue' } })).json();
      const before = received.length;
      const res = await call('POST', `/webhook-endpoints/${ep.id}/test`);
      assert.equal(res.statusCode, 200, res.body);
      const outcome = res.json();
      assert.equal(outcome.ok, true);
      assert.equal(outcome.statusCode, 204);
      assert.equal(outcome.eventType, 'webhook.test');
      assert.match(outcome.webhookId, /^evt_[0-9a-f]{32}$/);
      assert.equal(outcome.error, null);
      assert.equal(outcome._links.endpoint.href, `/webhook-endpoints/${ep.id}`);
      assert.equal(received.length, before + 1);
      const got = received.at(-1)!;
      assert.equal(got.headers['webhook-id'], outcome.webhookId);
      assert.equal(got.headers['x-team'], 'blue');
      // The receiver verifies it with the secret it was given, as any delivery.
      const verified = new Webhook(ep.secret.slice('whsec_'.length)).verify(got.body, got.headers as Record<string, string>) as Record<string, any>;
      assert.equal(verified.type, 'webhook.test');
      assert.equal(verified.data.endpointId, ep.id);
      assert.equal((await call('GET', `/webhook-endpoints/${ep.id}/deliveries`)).json().count, 0, 'a test is not a delivery');

      // A receiver's failure is the outcome, not an error of the request; a disabled endpoint can still be tested.
      status = 500;
      assert.equal((await call('PATCH', `/webhook-endpoints/${ep.id}`, { enabled: false }, { 'content-type': 'application/merge-patch+json' })).statusCode, 200);
      const failed = (await call('POST', `/webhook-endpoints/${ep.id}/test`)).json();
      status = 204;
      assert.equal(failed.ok, false);
      assert.equal(failed.statusCode, 500);
      assert.equal(failed.responseExcerpt, 'answered 500');
      assert.match(failed.error, /HTTP 500/);
      const missing = await call('POST', '/webhook-endpoints/ep_nothing/test');
      assert.equal(missing.statusCode, 404);
      assert.match(missing.json().detail, /no webhook endpoint has id ep_nothing/);
      assert.equal((await call('POST', `/webhook-endpoints/${ep.id}/test`, undefined, { 'if-match': '"x"' })).statusCode, 412);
    });

    test('GET /events?order=newest reads the log backwards, page after page; resource and type filter; bad values are 400', async () => {
      for (const name of ['Newest One', 'Newest Two', 'Newest Three']) assert.equal((await call('POST', '/characters', { name })).statusCode, 201);
      assert.equal((await call('POST', '/messages', { subject: 'filtered out' })).statusCode, 201);
      const oldest: string[] = [];
      for (let url: string | undefined = '/events?resource=characters&limit=2'; url; url = (await call('GET', url)).json()._links.next?.href) {
        oldest.push(...(await call('GET', url)).json()._embedded.events.map((e: { id: string }) => e.id));
      }
      const newest: string[] = [];
      let url: string | undefined = '/events?resource=characters&order=newest&limit=2';
      while (url) {
        const page = (await call('GET', url)).json();
        assert.equal(page._links.poll.href, '/events?resource=characters&order=newest&limit=2', 'newer events appear on the first page');
        for (const e of page._embedded.events) {
          assert.equal(e.resource, 'characters');
          newest.push(e.id);
        }
        url = page._links.next?.href;
      }
      assert.ok(newest.length >= 3);
      assert.deepEqual(newest, [...oldest].reverse(), 'the same events, newest first');
      const first = (await call('GET', '/events?order=newest&limit=1')).json()._embedded.events[0];
      assert.equal(first.type, 'messages.created', 'the last write comes first');
      const typed = (await call('GET', '/events?order=newest&type=messages.created&resource=messages')).json()._embedded.events;
      assert.ok(typed.length >= 1 && typed.every((e: { type: string }) => e.type === 'messages.created'));
      assert.equal((await call('GET', '/events?resource=characters&type=messages.created')).json().count, 0);
      for (const [query, detail] of [
        ['order=sideways', /order must be oldest or newest/],
        ['resource=nothing', /resource: "nothing" is not one of characters/],
        ['resource=characters,nope', /"nope"/],
      ] as const) {
        const res = await call('GET', `/events?${query}`);
        assert.equal(res.statusCode, 400, query);
        assert.match(res.json().detail, detail);
      }
      // A cursor of one order is refused by the other rather than read the wrong way.
      const next = (await call('GET', '/events?limit=1')).json()._links.next.href as string;
      const cursor = new URL(next, 'http://x').searchParams.get('cursor');
      assert.equal((await call('GET', `/events?order=newest&cursor=${cursor}`)).statusCode, 400);
      const webhookEvents = await call('GET', '/events?resource=webhooks/mail/events');
      assert.equal(webhookEvents.statusCode, 200);
    });

    test('every exchange above conforms to /openapi.json', async () => {
      const doc = (await server.app.inject({ url: '/openapi.json' })).json();
      const checker = await ConformanceChecker.create(doc);
      const violations = (await Promise.all(exchanges.map((ex) => checker.check(ex)))).flat();
      assert.deepEqual(violations, [], violations.join('\n'));
    });
  });
}
