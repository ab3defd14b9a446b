// The dispatcher's policy over a real receiver on loopback, on every engine: retries on the
// schedule, giving up, 410 Gone and disableAfter disabling an endpoint, resuming once enabled,
// the per-endpoint rate limit, redelivery by a user, rotated secrets and inbound emit fan-out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { EndpointInput, WebhookEndpoint } from '../../src/store/outbox.js';
import { signStandardWebhooks } from '../../src/webhooks/inbound/verifiers/standard-webhooks.js';
import { generateEndpointSecret } from '../../src/webhooks/outbound/secrets.js';
import { adminKey, eventually } from './webhooks-support.js';
import { RecordingReceiver } from './recording-receiver.js';

const OUTBOUND = { allowNetworks: ['127.0.0.1'], retrySchedule: ['100ms', '100ms'], pollInterval: '50ms' };
const HOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const CONFIG = {
  resources: { characters: { fields: { name: { type: 'string', required: true } }, access: { read: 'public', write: 'public' } } },
  webhooks: { outbound: OUTBOUND, sources: { hooks: { provider: 'standard-webhooks', verify: { secret: HOOK_SECRET }, actions: [{ emit: true }] } } },
};

for (const engine of engines) {
  describe(`outbound dispatcher (${engine.name})`, () => {
    let server: RestwellServer;
    const receiver = new RecordingReceiver();
    before(async () => {
      await receiver.start();
      server = await testServer(engine, CONFIG);
      await server.app.ready();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const endpoint = async (path: string, extra: Partial<EndpointInput> = {}, secrets = [{ secret: generateEndpointSecret(), createdAt: new Date().toISOString() }]) => {
      const input: EndpointInput = { url: receiver.base + path, description: null, eventTypes: ['characters.*'], enabled: true, headers: {}, rateLimit: null, sealedSecrets: server.context.outbound.secrets.seal(secrets), ...extra };
      return { endpoint: await server.store.outbox.createEndpoint(input, null), secrets: secrets.map((s) => s.secret) };
    };
    const create = async (name: string) => {
      const res = await server.app.inject({ method: 'POST', url: '/characters', payload: { name } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const deliveries = (e: WebhookEndpoint) => server.store.outbox.listDeliveries(e.id, { limit: 100 });
    const current = async (e: WebhookEndpoint) => (await server.store.outbox.getEndpoint(e.id))!;

    test('a failing receiver is retried on the schedule until a 2xx; the same webhook-id every time, signed each time', async () => {
      const { endpoint: e, secrets } = await endpoint('/retry');
      receiver.script('/retry', [500, 503]);
      await create('Retry');
      const [d] = await eventually(async () => ((await deliveries(e))[0]?.status === 'delivered' ? deliveries(e) : undefined), 'the delivery succeeds on the third attempt');
      const got = receiver.at('/retry');
      assert.equal(got.length, 3);
      assert.deepEqual(new Set(got.map((r) => r.id)), new Set([d!.eventId]), 'webhook-id is the event id on every attempt');
      for (const r of got) assert.doesNotThrow(() => new Webhook(secrets[0]!).verify(r.raw, r.headers as Record<string, string>));
      assert.equal(got[2]!.body.id, d!.eventId, 'the body is the event');
      const attempts = await server.store.outbox.listAttempts(d!.id);
      assert.deepEqual(attempts.map((a) => [a.number, a.statusCode, a.trigger]), [[1, 500, 'automatic'], [2, 503, 'automatic'], [3, 204, 'automatic']]);
      assert.equal(attempts[0]!.responseExcerpt, 'answer 500');
      assert.equal((await current(e)).failingSince, null, 'a success clears the failing state');
    });

    test('a delivery is given up on after the last retry; the endpoint is marked failing, not disabled', async () => {
      const { endpoint: e } = await endpoint('/down');
      receiver.script('/down', [500, 500, 500]);
      await create('Down');
      const [d] = await eventually(async () => ((await deliveries(e))[0]?.status === 'failed' ? deliveries(e) : undefined), 'given up after 1 + 2 retries');
      assert.equal(d!.attempts, 3);
      assert.equal(d!.nextAttemptAt, null);
      const after = await current(e);
      assert.ok(after.failingSince, 'failing since the first failure');
      assert.equal(after.enabled, true);

      // A user's redelivery makes one attempt now and records it as manual.
      const attempt = await server.context.outbound.attempts.attemptNow(e.id, d!.id);
      assert.ok(attempt && attempt !== 'busy');
      assert.equal(attempt.trigger, 'manual');
      assert.equal(attempt.statusCode, 204);
      assert.equal((await server.store.outbox.getDelivery(e.id, d!.id))!.status, 'delivered');
      assert.equal((await current(e)).failingSince, null);
      assert.equal(await server.context.outbound.attempts.attemptNow(e.id, 'msg_nope'), undefined);
    });

    test('410 Gone disables the endpoint with a reason; events meanwhile are delivered once it is enabled again', async () => {
      const { endpoint: e } = await endpoint('/gone');
      receiver.script('/gone', [410]);
      await create('Gone');
      const disabled = await eventually(async () => {
        const now = await current(e);
        return now.enabled ? undefined : now;
      }, 'the endpoint is disabled');
      assert.match(disabled.disabledReason ?? '', /410 Gone/);
      assert.equal((await deliveries(e))[0]!.status, 'failed', 'no retry after a 410');
      await create('While disabled');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.at('/gone').length, 1, 'nothing is sent to a disabled endpoint');
      await server.store.outbox.updateEndpoint(e.id, (c) => ({ put: { ...c!, enabled: true } }));
      const resumed = await eventually(async () => (receiver.at('/gone').length === 2 ? receiver.at('/gone') : undefined), 'the missed event is delivered');
      assert.equal(resumed[1]!.body.data.name, 'While disabled');
      assert.equal((await current(e)).disabledReason, null);
    });

    test('only subscribed event types are delivered, with the endpoint\'s headers', async () => {
      const { endpoint: e } = await endpoint('/created-only', { eventTypes: ['characters.created'], headers: { 'x-tenant': 'blue' } });
      const c = await create('Typed');
      await server.app.inject({ method: 'DELETE', url: `/characters/${c.id}` });
      await create('Typed 2');
      const got = await eventually(async () => (receiver.at('/created-only').length === 2 ? receiver.at('/created-only') : undefined), 'two created events');
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(receiver.at('/created-only').map((r) => r.body.type), ['characters.created', 'characters.created']);
      assert.equal(got[0]!.headers['x-tenant'], 'blue');
      assert.equal((await deliveries(e)).length, 2);
    });

    test('a rate-limited endpoint gets at most its limit per window; the rest wait, and none is lost', async () => {
      const { endpoint: e } = await endpoint('/slow', { rateLimit: { limit: 2, windowMs: 1000 } });
      for (let i = 0; i < 5; i++) await create(`Rate ${i}`);
      const got = await eventually(async () => (receiver.at('/slow').length === 5 ? receiver.at('/slow') : undefined), 'all five delivered');
      // A lower bound only, which load cannot break: five at two a second need the third window.
      const span = Math.max(...got.map((r) => r.at)) - Math.min(...got.map((r) => r.at));
      assert.ok(span >= 1000, `five deliveries at two a second took ${span} ms`);
      assert.equal(new Set(got.map((r) => r.id)).size, 5);
      // The receiver has the fifth request before the dispatcher records its outcome: wait for the record.
      const ds = await eventually(async () => {
        const now = await deliveries(e);
        return now.length === 5 && now.every((d) => d.status === 'delivered') ? now : undefined;
      }, 'all five recorded as delivered');
      assert.ok(ds.every((d) => d.attempts === 1), 'a deferral is not an attempt');
    });

    test('during a rotation overlap both secrets sign; an expired secret signs no more', async () => {
      const old = generateEndpointSecret();
      const fresh = generateEndpointSecret();
      const now = Date.now();
      const { endpoint: e } = await endpoint('/rotated', {}, [
        { secret: old, createdAt: new Date(now - 1000).toISOString(), expiresAt: new Date(now + 60_000).toISOString() },
        { secret: fresh, createdAt: new Date(now).toISOString() },
      ]);
      await create('Rotated');
      const [r] = await eventually(async () => (receiver.at('/rotated').length ? receiver.at('/rotated') : undefined), 'delivered');
      assert.equal(String(r!.headers['webhook-signature']).split(' ').length, 2);
      for (const s of [old, fresh]) assert.doesNotThrow(() => new Webhook(s).verify(r!.raw, r!.headers as Record<string, string>));

      await server.store.outbox.updateEndpoint(e.id, (c) => ({ put: { ...c!, sealedSecrets: server.context.outbound.secrets.seal([{ secret: old, createdAt: new Date(now - 1000).toISOString(), expiresAt: new Date(now - 1).toISOString() }, { secret: fresh, createdAt: new Date(now).toISOString() }]) } }));
      await create('Rotated again');
      const [, r2] = await eventually(async () => (receiver.at('/rotated').length === 2 ? receiver.at('/rotated') : undefined), 'delivered again');
      assert.equal(String(r2!.headers['webhook-signature']).split(' ').length, 1);
      assert.throws(() => new Webhook(old).verify(r2!.raw, r2!.headers as Record<string, string>));
      assert.doesNotThrow(() => new Webhook(fresh).verify(r2!.raw, r2!.headers as Record<string, string>));
    });

    test('a received webhook with an emit action fans out to the endpoints subscribed to it', async () => {
      await endpoint('/inbound', { eventTypes: ['webhook.*'] });
      const body = JSON.stringify({ type: 'invoice.paid', amount: 12 });
      const res = await server.app.inject({ method: 'POST', url: '/webhooks/hooks', headers: { 'content-type': 'application/json', ...signStandardWebhooks({ secret: HOOK_SECRET, id: 'msg_in_1', body }) }, payload: body });
      assert.equal(res.statusCode, 200, res.body);
      const [r] = await eventually(async () => (receiver.at('/inbound').length ? receiver.at('/inbound') : undefined), 'the emitted event is sent on');
      const event = r!.body;
      assert.equal(event.type, 'webhook.hooks.received');
      assert.equal(event.data.eventId, 'msg_in_1');
      assert.deepEqual(event.data.payload, { type: 'invoice.paid', amount: 12 });
    });
  });
}

describe('a node with webhooks.outbound.dispatch: false sends nothing', () => {
  test('deliveries wait for a node that dispatches', async () => {
    const receiver = new RecordingReceiver();
    await receiver.start();
    const server = await testServer(engines[0], { ...CONFIG, webhooks: { outbound: { ...OUTBOUND, dispatch: false } } });
    try {
      await server.app.ready();
      const sealedSecrets = server.context.outbound.secrets.seal([{ secret: generateEndpointSecret(), createdAt: new Date().toISOString() }]);
      const e = await server.store.outbox.createEndpoint({ url: `${receiver.base}/idle`, description: null, eventTypes: null, enabled: true, headers: {}, rateLimit: null, sealedSecrets }, null);
      await server.app.inject({ method: 'POST', url: '/characters', payload: { name: 'Idle' } });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.got.length, 0);
      assert.equal((await server.store.outbox.listDeliveries(e.id, { limit: 10 })).length, 0, 'not even derived');
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});

for (const engine of engines) {
  describe(`a replay starts the dispatcher at once (${engine.name})`, () => {
    test('replayed deliveries are sent without waiting for the poll, and so are the events the endpoint never had', async () => {
      const receiver = new RecordingReceiver();
      await receiver.start();
      // A poll far beyond the test's patience: only a commit signal or the replay itself can start a pass.
      const server = await testServer(engine, { ...CONFIG, webhooks: { outbound: { ...OUTBOUND, pollInterval: '1h' } } });
      try {
        await server.app.ready();
        const create = async (name: string) => assert.equal((await server.app.inject({ method: 'POST', url: '/characters', payload: { name } })).statusCode, 201);
        const since = new Date(Date.now() - 1000).toISOString();
        // Before the endpoint exists: its replay derives this one's delivery (the cursor moves back).
        await create('Before');
        const sealedSecrets = server.context.outbound.secrets.seal([{ secret: generateEndpointSecret(), createdAt: new Date().toISOString() }]);
        const e = await server.store.outbox.createEndpoint({ url: `${receiver.base}/replayed`, description: null, eventTypes: null, enabled: true, headers: {}, rateLimit: null, sealedSecrets }, null);
        await create('After');
        await eventually(async () => receiver.at('/replayed').length === 1, 'the write after the endpoint was made is delivered (its commit signal)');
        const key = await adminKey(server);
        const res = await server.app.inject({ method: 'POST', url: `/webhook-endpoints/${e.id}/replays`, headers: { authorization: `Bearer ${key}` }, payload: { since } });
        assert.equal(res.statusCode, 202, res.body);
        assert.equal(res.json().queued, 1, 'the delivered one is queued again');
        const got = await eventually(async () => (receiver.at('/replayed').length >= 3 ? receiver.at('/replayed') : undefined), 'the replayed delivery and the one derived for the earlier event, before any poll');
        const names = got.map((r) => r.body.data.name as string);
        assert.deepEqual(names.slice(1).sort(), ['After', 'Before']);
      } finally {
        await server.close();
        await receiver.close();
      }
    });
  });
}
