import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { eventStreams } from '../../src/events/stream/event-streams.js';
import { engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { apiKey, AUTH_CONFIG, bearer, goodClaims, signWithServerKey } from './auth-support.js';
import { listen, openStream, until, type SseStream } from './stream-support.js';

/** Public characters and owner-only notes; events need `events:read`; a short heartbeat, a small cap and buffer. */
const CONFIG = {
  ...AUTH_CONFIG,
  events: { stream: { heartbeat: '100ms', maxClients: 6, bufferSize: '64kb' } },
};

for (const engine of engines) {
  describe(`GET /events/stream over a real socket (${engine.name})`, () => {
    let server: RestwellServer;
    let port: number;
    let admin: Record<string, string>;
    let reader: Record<string, string>;
    let alice: Record<string, string>;
    let bob: Record<string, string>;
    const open: SseStream[] = [];
    const stream = async (headers: Record<string, string>, path = '/events/stream') => {
      const s = await openStream(port, path, { authorization: headers.authorization });
      open.push(s);
      return s;
    };
    const post = async (who: Record<string, string>, url: string, payload: object) => {
      const res = await server.app.inject({ method: 'POST', url, headers: who, payload });
      assert.equal(res.statusCode, 201, res.body);
      return res;
    };
    const character = (name: string) => post(admin, '/characters', { name });
    const names = (s: SseStream) => s.events.map((e) => e.data.data.name ?? e.data.data.text);
    /** Ends every stream a test opened, so the next test starts with none counted against maxClients. */
    const closeAll = async () => {
      for (const s of open.splice(0)) s.close();
      await until(() => eventStreams(server.context, server.app.log).size === 0, 'the streams to close');
    };

    before(async () => {
      server = await testServer(engine, CONFIG);
      port = await listen(server);
      admin = bearer(await apiKey(server, ['*'], 'admin'));
      reader = bearer(await apiKey(server, ['events:read'], 'reader'));
      alice = bearer(await apiKey(server, ['events:read'], 'alice'));
      bob = bearer(await apiKey(server, ['events:read'], 'bob'));
      await character('Before');
    });
    after(() => server.close());

    test('starts at the end of the log and delivers each new event as GET /events/{id} serves it', async () => {
      const s = await stream(reader);
      assert.equal(s.status, 200);
      assert.equal(s.headers['content-type'], 'text/event-stream; charset=utf-8');
      assert.equal(s.headers['cache-control'], 'no-store');
      assert.equal(s.headers['x-accel-buffering'], 'no');
      await until(() => s.retry !== undefined, 'the retry field');
      assert.ok(s.text.startsWith('retry: '), 'retry comes first');
      await character('Live 1');
      await character('Live 2');
      const [first, second] = await s.waitFor(2);
      assert.deepEqual(names(s), ['Live 1', 'Live 2'], 'nothing from before the stream opened');
      assert.equal(first.id, first.data.id);
      const served = await server.app.inject({ method: 'GET', url: `/events/${second.id}`, headers: reader });
      assert.deepEqual(second.data, served.json());
      await closeAll();
    });

    test('Last-Event-ID resumes with exactly the missed events, then goes live without a repeat', async () => {
      const s = await stream(reader);
      await character('Seen');
      const [seen] = await s.waitFor(1);
      s.close();
      for (const n of ['Missed 1', 'Missed 2', 'Missed 3']) await character(n);
      const resumed = await openStream(port, '/events/stream', { authorization: reader.authorization, 'last-event-id': seen.id });
      open.push(resumed);
      await resumed.waitFor(3);
      await character('After');
      await resumed.waitFor(4);
      assert.deepEqual(names(resumed), ['Missed 1', 'Missed 2', 'Missed 3', 'After']);
      // ?lastEventId= for clients that cannot set headers; the header, fresher after a reconnect, wins.
      const byQuery = await stream(reader, `/events/stream?lastEventId=${resumed.events[1].id}`);
      await byQuery.waitFor(2);
      assert.deepEqual(names(byQuery), ['Missed 3', 'After']);
      const both = await openStream(port, `/events/stream?lastEventId=${seen.id}`, { authorization: reader.authorization, 'last-event-id': resumed.events[2].id });
      open.push(both);
      await both.waitFor(1);
      assert.deepEqual(names(both), ['After']);
      await closeAll();
    });

    test('a resume racing a burst of writes gets every event once, in log order', async () => {
      const s = await stream(reader);
      await character('Mark');
      const [mark] = await s.waitFor(1);
      s.close();
      const burst = Array.from({ length: 150 }, (_, i) => `Burst ${i}`);
      let written = 0;
      const writing = (async () => {
        for (const n of burst) {
          await character(n);
          written++;
        }
      })();
      // Opened while the burst is being written (once some of it is): part comes from the log, part live, with the hand-off in between.
      await until(() => written >= 10, 'the burst to be under way');
      const resumed = await openStream(port, '/events/stream', { authorization: reader.authorization, 'last-event-id': mark.id });
      open.push(resumed);
      await writing;
      await resumed.waitFor(burst.length);
      await character('Tail');
      await resumed.waitFor(burst.length + 1);
      assert.deepEqual(names(resumed), [...burst, 'Tail']);
      assert.equal(new Set(resumed.events.map((e) => e.id)).size, resumed.events.length, 'no event twice');
      await closeAll();
    });

    test('type= filters as on GET /events', async () => {
      const s = await stream(admin, '/events/stream?type=characters.updated,notes.created');
      const created = await character('Filtered');
      await server.app.inject({ method: 'PATCH', url: created.headers.location as string, headers: { ...admin, 'content-type': 'application/merge-patch+json' }, payload: { number: '7' } });
      await post(alice, '/notes', { text: 'a note' });
      await s.waitFor(2);
      assert.deepEqual(s.events.map((e) => e.data.type), ['characters.updated', 'notes.created']);
      await closeAll();
    });

    test('each reader sees only events of records it could read, owner rules included', async () => {
      const [a, b, r] = [await stream(alice), await stream(bob), await stream(reader)];
      await post(alice, '/notes', { text: 'alice note' });
      await post(bob, '/notes', { text: 'bob note' });
      await character('Everyone');
      await Promise.all([a.waitFor(2), b.waitFor(2), r.waitFor(1)]);
      assert.deepEqual(names(a), ['alice note', 'Everyone']);
      assert.deepEqual(names(b), ['bob note', 'Everyone']);
      assert.deepEqual(names(r), ['Everyone']);
      // Nor can anyone resume from an event they could not read: it is unknown to them.
      const hidden = a.events[0].id;
      const refused = await stream(bob, `/events/stream?lastEventId=${hidden}`);
      assert.equal(refused.status, 400);
      await closeAll();
    });

    test('401 without a token, 403 without events:read, 406 when Accept excludes event streams', async () => {
      const anonymous = await openStream(port);
      await anonymous.closed.catch(() => undefined);
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.headers['www-authenticate'] ?? '', /^Bearer/);
      const noScope = bearer(await apiKey(server, ['characters:write'], 'writer'));
      const forbidden = await openStream(port, '/events/stream', { authorization: noScope.authorization });
      assert.equal(forbidden.status, 403);
      const json = await openStream(port, '/events/stream', { authorization: reader.authorization, accept: 'application/json' });
      assert.equal(json.status, 406);
      await until(() => json.text.length > 0, 'the problem body');
      assert.match(JSON.parse(json.text).type, /\/problems\/not-acceptable$/);
      for (const s of [anonymous, forbidden, json]) s.close();
    });

    test('a Last-Event-ID that names no event is a 400 problem saying so', async () => {
      for (const id of ['nonsense', 'evt_00000000000000000000000000000000']) {
        const s = await openStream(port, '/events/stream', { authorization: reader.authorization, 'last-event-id': id });
        assert.equal(s.status, 400);
        await until(() => s.text.length > 0, 'the problem body');
        const problem = JSON.parse(s.text);
        assert.match(problem.type, /\/problems\/invalid-last-event-id$/);
        assert.match(problem.detail, /Last-Event-ID/);
        s.close();
      }
    });

    test('an idle stream gets keep-alive comments', async () => {
      const s = await stream(reader);
      await until(() => s.comments.length >= 2, 'two heartbeats');
      assert.deepEqual([...new Set(s.comments)], ['keep-alive']);
      await closeAll();
    });

    test('more than maxClients streams get 503 with Retry-After', async () => {
      for (let i = 0; i < 6; i++) assert.equal((await stream(reader)).status, 200);
      const refused = await stream(reader);
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      await until(() => refused.text.length > 0, 'the problem body');
      assert.match(JSON.parse(refused.text).type, /\/problems\/too-many-streams$/);
      await closeAll();
      assert.equal((await stream(reader)).status, 200, 'a slot frees when a stream closes');
      await closeAll();
    });

    test('a stream ends when its access token expires, so the client must come back with a valid one', async () => {
      const base = `http://127.0.0.1:${port}`;
      const { clientId } = (await server.context.auth.clients.create({ name: 'expiring', scopes: ['events:read'] })).info;
      const token = await signWithServerKey(server, goodClaims(clientId, 'events:read', { iss: base, aud: base, exp: Math.floor(Date.now() / 1000) + 2 }));
      const s = await stream(bearer(token));
      assert.equal(s.status, 200);
      await s.closed;
      const again = await stream(bearer(token));
      assert.equal(again.status, 401);
      await closeAll();
    });

    test('a client that stops reading is dropped once its buffer passes bufferSize; the others keep receiving', async () => {
      const healthy = await stream(reader);
      // A raw socket that sends the request and then reads nothing: the server's send queue can only grow.
      const stalled = connect(port, '127.0.0.1');
      stalled.write(`GET /events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: ${reader.authorization}\r\n\r\n`);
      await until(() => eventStreams(server.context, server.app.log).size === 2, 'both streams to open');
      stalled.pause();
      let stalledClosed = false;
      stalled.on('close', () => (stalledClosed = true));
      stalled.on('error', () => undefined);
      const big = 'x'.repeat(50_000);
      const count = 200;
      for (let i = 0; i < count; i++) await post(admin, '/characters', { name: `Big ${i}`, number: big });
      await until(() => eventStreams(server.context, server.app.log).size === 1, 'the stalled client to be dropped');
      stalled.resume();
      await until(() => stalledClosed, 'the stalled socket to close');
      await healthy.waitFor(count);
      assert.equal(healthy.events.length, count, 'the reading client got every event');
      assert.equal((await server.app.inject({ method: 'GET', url: '/', headers: reader })).statusCode, 200, 'the server stays healthy');
      await closeAll();
    });
  });

  describe(`GET /events/stream and the server's lifetime (${engine.name})`, () => {
    test('no server timeout cuts a long stream, and closing the server ends every stream at once', async () => {
      const config = { ...PUBLIC_DEMO, server: { headersTimeout: '1s', requestTimeout: '1s', keepAliveTimeout: '1s' }, events: { stream: { heartbeat: '1h' } } };
      const server = await testServer(engine, config);
      const port = await listen(server);
      const { authorization } = bearer(await apiKey(server, ['events:read']));
      const streams = [await openStream(port, '/events/stream', { authorization }), await openStream(port, '/events/stream', { authorization })];
      await new Promise((r) => setTimeout(r, 2500));
      assert.equal(streams.some((s) => s.isClosed), false, 'still open past every timeout');
      await server.app.inject({ method: 'POST', url: '/characters', payload: { name: 'Late' } });
      await Promise.all(streams.map((s) => s.waitFor(1)));
      await server.close();
      await Promise.all(streams.map((s) => s.closed));
    });
  });

  describe(`GET /events/stream across nodes (${engine.name})`, { skip: engine.name === 'postgres' ? false : 'only PostgreSQL is shared by several nodes' }, () => {
    test('a stream on one node gets the events written through another, once each, in log order', async () => {
      const url = engine.freshUrl();
      const shared = { ...engine, freshUrl: () => url };
      const [a, b] = [await testServer(shared), await testServer(shared)];
      try {
        const port = await listen(a);
        const { authorization } = bearer(await apiKey(a, ['events:read']));
        const s = await openStream(port, '/events/stream', { authorization });
        const names = ['on b 1', 'on a', 'on b 2'];
        for (const [i, name] of names.entries()) {
          const res = await (i === 1 ? a : b).app.inject({ method: 'POST', url: '/characters', payload: { name } });
          assert.equal(res.statusCode, 201, res.body);
        }
        await s.waitFor(3);
        assert.deepEqual(s.events.map((e) => e.data.data.name), names);
        s.close();
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
