// Webhook endpoints owned by subscribers who are not admins (`webhooks:own`), on every engine: two
// subscribers on an owner-ruled resource each receive exactly their own records' events (and those
// of resources their scopes read) on real receivers; the management routes show each only its own
// endpoints (another's is 404); revoking a subscriber's API key disables its endpoint with a reason;
// an operator's endpoint still receives everything; /me, the scope catalog and OpenAPI know the scope.
import { RecordingReceiver } from './recording-receiver.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { rawSql } from '../../src/test-support/raw-sql.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';

/** The webhook-ids delivered at one endpoint's path, sorted. */
class Receiver extends RecordingReceiver {
  ids(path: string): string[] {
    return this.at(path).map((r) => String(r.headers['webhook-id'])).sort();
  }
}

const CONFIG = {
  resources: {
    // Owner-ruled: each subject reads only its own notes, and so do its endpoints.
    notes: { fields: { text: { type: 'string', required: true } }, access: { read: 'owner', write: 'owner' } },
    // Read by scope: an endpoint receives these only if its owner holds tags:read.
    tags: { fields: { name: { type: 'string', required: true } }, access: { read: ['tags:read'], write: ['*'] } },
  },
  webhooks: { outbound: { allowNetworks: ['127.0.0.1'], retrySchedule: ['100ms'], pollInterval: '50ms' } },
  events: { stream: { credentialCheck: '200ms' } },
};

for (const engine of engines) {
  describe(`webhook endpoints owned by subscribers (${engine.name})`, () => {
    let server: RestwellServer;
    const receiver = new Receiver();
    const keys: Record<string, { key: string; id: string }> = {};
    const auth = (who: string) => ({ authorization: `Bearer ${keys[who]!.key}` });
    const call = (who: string, method: string, url: string, payload?: unknown) =>
      server.app.inject({ method: method as 'GET', url, headers: { ...auth(who), ...(payload === undefined ? {} : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }) }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
    const endpoints: Record<string, any> = {};

    before(async () => {
      await receiver.start();
      server = await testServer(engine, CONFIG);
      await server.app.ready();
      const make = async (who: string, scopes: string[]) => {
        const { key, info } = await server.context.auth.apiKeys.create({ name: who, scopes, subject: who });
        keys[who] = { key, id: info.id };
      };
      await make('admin', ['*']);
      await make('alice', ['webhooks:own', 'tags:read']);
      await make('bob', ['webhooks:own']);
      await make('nobody', ['tags:read']);
      for (const who of ['alice', 'bob', 'admin']) {
        const res = await call(who, 'POST', '/webhook-endpoints', { url: `${receiver.base}/${who}`, eventTypes: ['notes.*', 'tags.*'] });
        assert.equal(res.statusCode, 201, res.body);
        endpoints[who] = res.json();
      }
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    test('each subscriber receives exactly its own records\' events, and those its scopes read; an operator\'s endpoint receives all', async () => {
      const write = async (who: string, url: string, payload: unknown) => {
        const res = await call(who, 'POST', url, payload);
        assert.equal(res.statusCode, 201, res.body);
        return res.json();
      };
      await write('alice', '/notes', { text: 'alice 1' });
      await write('bob', '/notes', { text: 'bob 1' });
      await write('alice', '/notes', { text: 'alice 2' });
      await write('admin', '/tags', { name: 'red' });
      await write('bob', '/notes', { text: 'bob 2' });
      const events = await server.store.listEvents({ limit: 100 });
      assert.equal(events.length, 5);
      const idsOf = (pred: (e: (typeof events)[number]) => boolean) => events.filter(pred).map((e) => e.id).sort();

      // Every endpoint's cursor past the last event: whatever it was to get has been derived.
      const last = events.at(-1)!.seq;
      await waitFor(async () => {
        for (const who of ['alice', 'bob', 'admin']) if ((await server.store.outbox.getEndpoint(endpoints[who].id))!.cursor < last) return false;
        return receiver.ids('/admin').length === 5;
      }, 'every endpoint derived past the last event');
      const expected = {
        alice: idsOf((e) => (e.resource === 'notes' && e.owner === 'alice') || e.resource === 'tags'),
        bob: idsOf((e) => e.resource === 'notes' && e.owner === 'bob'),
        admin: idsOf(() => true),
      };
      for (const who of ['alice', 'bob'] as const) {
        await waitFor(() => receiver.ids(`/${who}`).length >= expected[who].length, `${who}'s deliveries arrive`);
        const deliveries = await server.store.outbox.listDeliveries(endpoints[who].id, { limit: 100 });
        assert.deepEqual(deliveries.map((d) => d.eventId).sort(), expected[who], `${who}'s endpoint has a delivery for exactly its events`);
      }
      await waitFor(async () => (await server.store.outbox.listDeliveries(endpoints.bob.id, { limit: 100 })).every((d) => d.status === 'delivered'), 'bob\'s delivered');
      assert.deepEqual(receiver.ids('/alice'), expected.alice);
      assert.deepEqual(receiver.ids('/bob'), expected.bob);
      assert.deepEqual(receiver.ids('/admin'), expected.admin);
    });

    test('the management routes show a subscriber only its own endpoints; another\'s is 404 on every route', async () => {
      const list = (who: string) => call(who, 'GET', '/webhook-endpoints').then((r) => (assert.equal(r.statusCode, 200, r.body), r.json()._embedded['webhook-endpoints'].map((e: any) => e.id)));
      assert.deepEqual(await list('alice'), [endpoints.alice.id]);
      assert.deepEqual(await list('bob'), [endpoints.bob.id]);
      assert.deepEqual((await list('admin')).sort(), [endpoints.alice.id, endpoints.bob.id, endpoints.admin.id].sort());
      assert.equal(endpoints.alice.owner, 'alice');

      const own = `/webhook-endpoints/${endpoints.alice.id}`;
      const [delivery] = await server.store.outbox.listDeliveries(endpoints.alice.id, { limit: 1 });
      const attempts = `${own}/deliveries/${delivery!.id}/attempts`;
      const routes: Array<[string, string, unknown?]> = [
        ['GET', own],
        ['PUT', own, { url: `${receiver.base}/stolen` }],
        ['PATCH', own, { enabled: false }],
        ['POST', `${own}/secrets`, {}],
        ['POST', `${own}/test`],
        ['GET', `${own}/deliveries`],
        ['GET', `${own}/deliveries/${delivery!.id}`],
        ['GET', attempts],
        ['GET', `${attempts}/1`],
        ['POST', attempts],
        ['POST', `${own}/replays`, { since: '2020-01-01T00:00:00Z' }],
        ['DELETE', own],
      ];
      for (const [method, url, body] of routes) {
        const res = await call('bob', method, url, body);
        assert.equal(res.statusCode, 404, `${method} ${url} as bob: ${res.statusCode} ${res.body}`);
      }
      for (const [method, url] of routes.filter(([m]) => m === 'GET')) assert.equal((await call('alice', method, url)).statusCode, 200, `${method} ${url} as alice`);
      assert.equal((await call('admin', 'GET', own)).statusCode, 200, 'an admin sees every endpoint');
      assert.equal((await call('alice', 'GET', '/webhook-endpoints/event-types')).statusCode, 200, 'a subscriber may see what it can subscribe to');
      assert.equal((await call('nobody', 'GET', '/webhook-endpoints')).statusCode, 403, 'without webhooks:own (or read), no endpoints at all');
      assert.equal((await server.store.outbox.getEndpoint(endpoints.alice.id))!.url, `${receiver.base}/alice`, 'bob changed nothing');

      // The owner's own change keeps the endpoint its own, with its rights as of now.
      const patched = await call('alice', 'PATCH', own, { description: 'mine' });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().owner, 'alice');
      assert.deepEqual((await server.store.outbox.getEndpoint(endpoints.alice.id))!.ownerAccess?.scopes, ['tags:read', 'webhooks:own']);
    });

    test('/me and the scope catalog know webhooks:own; OpenAPI lists it as an alternative on every endpoint operation', async () => {
      const me = await call('bob', 'GET', '/me');
      assert.equal(me.json().webhooksOwn, true);
      assert.equal(me.json().webhooks, false);
      assert.equal((await call('nobody', 'GET', '/me')).json().webhooksOwn, false);
      const doc = (await server.app.inject({ url: '/openapi.json' })).json();
      let checked = 0;
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        if (!path.startsWith('/webhook-endpoints')) continue;
        for (const op of Object.values<any>(item)) {
          // OPTIONS is open to anyone; every other operation is guarded.
          if (!op?.operationId || !op.security?.length) continue;
          assert.ok(op.security.some((s: any) => s.oauth2?.includes('webhooks:own')), `${op.operationId} lists webhooks:own`);
          checked += 1;
        }
      }
      assert.ok(checked >= 15, `${checked} operations checked`);
      assert.ok(doc.components.securitySchemes.oauth2.flows.clientCredentials.scopes['webhooks:own']);
    });

    test('revoking the owner\'s API key disables its endpoint with a reason', async () => {
      const res = await call('admin', 'DELETE', `/api-keys/${keys.bob!.id}`);
      assert.equal(res.statusCode, 204, res.body);
      const ep = await waitFor(async () => {
        const e = await server.store.outbox.getEndpoint(endpoints.bob.id);
        return e && !e.enabled ? e : undefined;
      }, 'bob\'s endpoint is disabled');
      assert.match(ep.disabledReason ?? '', /API key of its owner was revoked/);
      const shown = (await call('admin', 'GET', `/webhook-endpoints/${endpoints.bob.id}`)).json();
      assert.equal(shown.enabled, false);
      assert.match(shown.disabledReason, /revoked/);
      assert.equal((await server.store.outbox.getEndpoint(endpoints.alice.id))!.enabled, true, 'others stay as they were');
    });
  });

  describe(`webhook endpoints of an earlier version's database (${engine.name})`, () => {
    test('the owner_access column is added, and the endpoints there stay operators\' endpoints', async () => {
      const url = engine.freshUrl();
      const text = engine.name === 'sqlite' ? 'TEXT' : 'text';
      await rawSql(engine, url, `CREATE TABLE _rw_hook_endpoints (
        id ${text} PRIMARY KEY, url ${text} NOT NULL, description ${text}, event_types ${text}, enabled ${engine.name === 'sqlite' ? 'INTEGER' : 'boolean'} NOT NULL, disabled_reason ${text},
        headers ${text} NOT NULL, rate_limit ${text}, secrets ${text} NOT NULL, cursor bigint NOT NULL, failing_since ${text},
        version bigint NOT NULL, created_at ${text} NOT NULL, updated_at ${text} NOT NULL, owner ${text});
        INSERT INTO _rw_hook_endpoints VALUES ('ep_00000000000000000000000000000001', 'https://example.com/h', NULL, NULL, ${engine.name === 'sqlite' ? 1 : 'true'}, NULL, '{}', NULL, 'sealed', 0, NULL, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'someone');`);
      const server = await testServer({ name: engine.name, freshUrl: () => url }, CONFIG);
      try {
        const ep = await server.store.outbox.getEndpoint('ep_00000000000000000000000000000001');
        assert.equal(ep?.owner, 'someone');
        assert.equal(ep?.ownerAccess, null);
        assert.deepEqual(await server.store.outbox.ownedEndpoints(), []);
      } finally {
        await server.close();
      }
    });
  });
}
