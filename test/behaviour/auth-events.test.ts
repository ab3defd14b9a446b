import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { signStandardWebhooks } from '../../src/webhooks/inbound/verifiers/index.js';
import { apiKey, AUTH_CONFIG, bearer } from './auth-support.js';
import { eventually, SECRETS } from './webhooks-support.js';

/** Owner-only notes, public characters, scoped secrets, and a webhook source that emits events. */
const CONFIG = {
  resources: {
    ...AUTH_CONFIG.resources,
    secrets: { fields: { text: { type: 'string' } }, access: { read: ['secrets:read'], write: ['secrets:write'] } },
  },
  webhooks: { sources: { hooks: { provider: 'standard-webhooks', verify: { secret: SECRETS.standard }, actions: [{ emit: true }] } } },
};

for (const engine of engines) {
  describe(`auth: the event log follows the read rules (${engine.name})`, () => {
    let server: RestwellServer;
    let alice: Record<string, string>;
    let bob: Record<string, string>;
    let carol: Record<string, string>;
    let admin: Record<string, string>;
    const inject = (headers: Record<string, string>, method: string, url: string, payload?: unknown) =>
      server.app.inject({ method: method as 'GET', url, headers: payload === undefined ? { authorization: headers.authorization } : headers, payload: payload as object });
    /** Every event the caller sees, following next links (pages of `limit`) until there is none; `next` is then the poll link, for what comes later. */
    const walk = async (who: Record<string, string>, query = '', limit = 2) => {
      const out: any[] = [];
      let url = `/events?limit=${limit}${query}`;
      for (;;) {
        const res = await inject(who, 'GET', url);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json();
        out.push(...page._embedded.events);
        if (!page._links.next) return { events: out, next: page._links.poll.href as string };
        url = page._links.next.href;
      }
    };
    const summary = (events: any[]) => events.map((e) => `${e.type} ${e.data.text ?? e.data.name ?? e.data.eventId ?? ''}`.trim());

    before(async () => {
      server = await testServer(engine, CONFIG);
      alice = bearer(await apiKey(server, ['events:read'], 'alice'));
      bob = bearer(await apiKey(server, ['events:read'], 'bob'));
      carol = bearer(await apiKey(server, ['events:read', 'secrets:read'], 'carol'));
      admin = bearer(await apiKey(server, ['*'], 'admin'));
      assert.equal((await inject(admin, 'POST', '/characters', { name: 'Homer' })).statusCode, 201);
      const a1 = (await inject(alice, 'POST', '/notes', { text: 'alice 1' })).headers.location as string;
      const a2 = (await inject(alice, 'POST', '/notes', { text: 'alice 2' })).headers.location as string;
      assert.equal((await inject(bob, 'POST', '/notes', { text: 'bob 1' })).statusCode, 201);
      assert.equal((await inject(admin, 'POST', '/secrets', { text: 'launch codes' })).statusCode, 201);
      assert.equal((await inject(alice, 'PUT', a1, { text: 'alice 1b' })).statusCode, 200);
      assert.equal((await inject(alice, 'DELETE', a2)).statusCode, 204);
      const body = '{"type":"ping"}';
      const hook = await server.app.inject({ method: 'POST', url: '/webhooks/hooks', headers: { 'content-type': 'application/json', ...signStandardWebhooks({ secret: SECRETS.standard, id: 'msg_1', body }) }, payload: body });
      assert.equal(hook.statusCode, 200, hook.body);
      await eventually(async () => (await walk(admin, '&type=webhook.hooks.received')).events.length === 1, 'the webhook event');
    });
    after(() => server.close());

    test('each caller sees only events of records it could read; an admin sees all', async () => {
      assert.deepEqual(summary((await walk(alice)).events), ['characters.created Homer', 'notes.created alice 1', 'notes.created alice 2', 'notes.updated alice 1b', 'notes.deleted alice 2']);
      assert.deepEqual(summary((await walk(bob)).events), ['characters.created Homer', 'notes.created bob 1']);
      assert.deepEqual(summary((await walk(carol)).events), ['characters.created Homer', 'secrets.created launch codes'], 'a scope opens a resource, not other people’s notes');
      assert.deepEqual(summary((await walk(admin)).events), [
        'characters.created Homer', 'notes.created alice 1', 'notes.created alice 2', 'notes.created bob 1', 'secrets.created launch codes',
        'notes.updated alice 1b', 'notes.deleted alice 2', 'webhook.hooks.received msg_1',
      ]);
      assert.deepEqual(summary((await walk(bob, '&type=notes.created,secrets.created')).events), ['notes.created bob 1']);
    });

    test('an event the caller could not read is 404, exactly like one that does not exist', async () => {
      const all = (await walk(admin)).events;
      const aliceNote = all.find((e) => e.data.text === 'alice 1');
      const secret = all.find((e) => e.type === 'secrets.created');
      const hook = all.find((e) => e.type === 'webhook.hooks.received');
      const status = async (who: Record<string, string>, id: string) => (await inject(who, 'GET', `/events/${id}`)).statusCode;
      assert.deepEqual([await status(alice, aliceNote.id), await status(bob, aliceNote.id), await status(admin, aliceNote.id)], [200, 404, 200]);
      assert.deepEqual([await status(carol, secret.id), await status(alice, secret.id)], [200, 404]);
      assert.deepEqual([await status(admin, hook.id), await status(alice, hook.id)], [200, 404], 'webhook inboxes are admin-only, so are their events');
      const hidden = (await inject(bob, 'GET', `/events/${aliceNote.id}`)).json();
      const missing = (await inject(bob, 'GET', '/events/evt_00000000000000000000000000000000')).json();
      assert.equal(hidden.title, missing.title);
      assert.equal(hidden.detail.replace(aliceNote.id, 'ID'), missing.detail.replace('evt_00000000000000000000000000000000', 'ID'));
    });

    test('paging walks past runs of hidden events: pages stay full and the cursor moves on to what comes next', async () => {
      const before = await walk(bob, '', 1);
      for (let i = 0; i < 5; i++) assert.equal((await inject(alice, 'POST', '/notes', { text: `alice burst ${i}` })).statusCode, 201);
      const page = (await inject(bob, 'GET', before.next)).json();
      assert.equal(page.count, 0, 'nothing new for bob');
      assert.equal((await inject(bob, 'POST', '/notes', { text: 'bob 2' })).statusCode, 201);
      assert.equal(page._links.next, undefined, 'an empty page has no next');
      const resumed = (await inject(bob, 'GET', page._links.poll.href)).json();
      assert.deepEqual(summary(resumed._embedded.events), ['notes.created bob 2'], 'found behind five hidden events');
      // A page of 2 from the start is full of visible events, however many hidden ones lie between them.
      const first = (await inject(bob, 'GET', '/events?limit=2')).json();
      assert.deepEqual(summary(first._embedded.events), ['characters.created Homer', 'notes.created bob 1']);
      const second = (await inject(bob, 'GET', first._links.next.href)).json();
      assert.deepEqual(summary(second._embedded.events), ['notes.created bob 2']);
    });
  });
}
