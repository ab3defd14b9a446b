import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };

for (const engine of engines) {
  describe(`event log (${engine.name})`, () => {
    let server: RestwellServer;
    let reader: Record<string, string>;
    // The log carries every resource's data, so reading it needs the events:read scope.
    const inject = (opts: Record<string, any>) => server.app.inject({ ...opts, headers: { ...reader, ...opts.headers } } as any);
    const allEvents = async (query = '') => {
      const out: any[] = [];
      let url = `/events?limit=3${query}`;
      for (;;) {
        const page = (await inject({ method: 'GET', url })).json();
        out.push(...page._embedded.events);
        if (!page._links.next) return out;
        url = page._links.next.href;
      }
    };
    before(async () => {
      server = await testServer(engine);
      reader = await bearer(server, ['events:read']);
    });
    after(() => server.close());

    test('an id that cannot be an event id is 404 before any query (a NUL used to be a 500 on PostgreSQL)', async () => {
      for (const id of ['%00', 'evt_%00', 'x']) {
        const res = await inject({ method: 'GET', url: `/events/${id}` });
        assert.equal(res.statusCode, 404, id);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      }
      const admin = await bearer(server);
      for (const id of ['%00', 'whd_%00']) assert.equal((await inject({ method: 'GET', url: `/webhooks/mail/events/${id}`, headers: admin })).statusCode, 404, id);
    });

    test('one event per change, in order, carrying the representation; none for rejected requests', async () => {
      const c = (await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Homer' } })).json();
      await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Homer' } }); // 409
      await inject({ method: 'POST', url: '/characters', headers: json, payload: { nope: 1 } }); // 422
      await inject({ method: 'PUT', url: `/characters/${c.id}`, headers: json, payload: { name: 'Homer', number: '1' } });
      await inject({ method: 'PUT', url: `/characters/${c.id}`, headers: json, payload: { name: 'Homer', number: '1' } }); // unchanged
      await inject({ method: 'PATCH', url: `/characters/${c.id}`, headers: { 'content-type': 'application/merge-patch+json', 'if-match': '"0.x"' }, payload: { number: '2' } }); // 412
      await inject({ method: 'PATCH', url: `/characters/${c.id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { number: '2' } });
      await inject({ method: 'DELETE', url: `/characters/${c.id}` });
      await inject({ method: 'DELETE', url: `/characters/${c.id}` }); // 404

      const events = await allEvents();
      assert.deepEqual(events.map((e) => e.type), ['characters.created', 'characters.updated', 'characters.updated', 'characters.deleted']);
      assert.ok(events.every((e) => e.recordId === c.id && e.resource === 'characters'));
      assert.deepEqual(events.map((e) => e.data.version), [1, 2, 3, 3], 'a delete carries the last representation');
      assert.equal(events[2].data.number, '2');
      assert.equal(events[0]._links.record.href, `/characters/${c.id}`);
      const one = await inject({ method: 'GET', url: `/events/${events[0].id}` });
      assert.equal(one.statusCode, 200);
      assert.equal(one.json().type, 'characters.created');
      assert.equal((await inject({ method: 'GET', url: '/events/evt_nope' })).statusCode, 404);
    });

    test('type filter, cursor resumes exactly, bad parameters are 400', async () => {
      await inject({ method: 'POST', url: '/messages', headers: json, payload: { subject: 'a' } });
      const created = await allEvents('&type=characters.created,messages.created');
      assert.ok(created.length >= 2);
      assert.ok(created.every((e) => e.type.endsWith('.created')));
      const page = (await inject({ method: 'GET', url: '/events?limit=2' })).json();
      const rest = (await inject({ method: 'GET', url: page._links.next.href })).json();
      const all = await allEvents();
      assert.deepEqual([...page._embedded.events, ...rest._embedded.events].map((e: any) => e.id), all.slice(0, 2 + rest.count).map((e) => e.id));
      assert.equal((await inject({ method: 'GET', url: '/events?cursor=zzz' })).statusCode, 400);
      assert.equal((await inject({ method: 'GET', url: '/events?limit=0' })).statusCode, 400);
      assert.equal((await inject({ method: 'GET', url: '/events?colour=1' })).statusCode, 400);
    });

    test('reading the log needs the events:read scope', async () => {
      assert.equal((await server.app.inject({ method: 'GET', url: '/events' })).statusCode, 401);
      const writer = await bearer(server, ['characters:write']);
      assert.equal((await server.app.inject({ method: 'GET', url: '/events', headers: writer })).statusCode, 403);
    });
  });
}
