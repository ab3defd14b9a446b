import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearer, engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';

/** The public demo keeping the newest five events; the worker's own timer is far off, so each pass here is run by the test. */
const KEEP_FIVE = { ...PUBLIC_DEMO, events: { retention: { maxCount: 5, maxAge: 'off', partitionSize: 10 } }, retention: { interval: '1h', batchSize: 2 } };

for (const engine of engines) {
  test(`a reader behind what retention pruned gets 410 events-expired, naming the oldest event kept (${engine.name})`, async () => {
    const server = await testServer(engine, KEEP_FIVE);
    try {
      const admin = await bearer(server);
      await server.app.ready();
      for (let i = 0; i < 24; i++) {
        assert.equal((await server.app.inject({ method: 'POST', url: '/characters', payload: { name: `c${i}` } })).statusCode, 201);
      }
      // A reader that stopped after the second event: its cursor and its Last-Event-ID.
      const first = (await server.app.inject({ url: '/events?limit=2', headers: admin })).json();
      const next = first._links.next.href as string;
      const lastSeen = first._embedded.events[1].id as string;
      assert.equal((await server.app.inject({ url: next, headers: admin })).statusCode, 200, 'nothing is pruned yet');

      // Passes run here, not on the worker's timer. A partitioned log needs one to make its partitions
      // before one can drop them, and a busy machine can make a drop wait past its lock timeout (the
      // pass then leaves it to the next): so passes run until one has pruned.
      await server.context.retention.runOnce();
      await server.app.inject({ method: 'POST', url: '/characters', payload: { name: 'c-late' } });
      await waitFor(async () => {
        const report = await server.context.retention.runOnce();
        return !!report && report.events + report.eventPartitions > 0;
      }, 'a pass that prunes');
      const kept = (await server.app.inject({ url: '/events', headers: admin })).json()._embedded.events;
      assert.ok(kept.length >= 5 && kept.length < 25, `the newest events are kept (${kept.length})`);

      const page = await server.app.inject({ url: next, headers: admin });
      assert.equal(page.statusCode, 410);
      assert.match(page.headers['content-type'] as string, /^application\/problem\+json/);
      const problem = page.json();
      assert.match(problem.type, /\/problems\/events-expired$/);
      assert.match(problem.detail, new RegExp(`oldest event kept is ${kept[0].id}`));
      assert.match(problem.detail, /page GET \/events without a cursor/);

      const stream = await server.app.inject({ url: '/events/stream', headers: { ...admin, accept: 'text/event-stream', 'last-event-id': lastSeen } });
      assert.equal(stream.statusCode, 410);
      assert.match(stream.json().detail, /reconnect without Last-Event-ID/);

      // Without a cursor the log is read from the oldest event kept; a kept Last-Event-ID still resumes; an unknown id is still a 400.
      assert.equal((await server.app.inject({ url: '/events', headers: admin })).statusCode, 200);
      const unknown = await server.app.inject({ url: '/events/stream', headers: { ...admin, accept: 'text/event-stream', 'last-event-id': `evt_${'f'.repeat(32)}` } });
      assert.equal(unknown.statusCode, 400);
      const problemPage = await server.app.inject({ url: '/problems/events-expired' });
      assert.equal(problemPage.statusCode, 200);
    } finally {
      await server.close();
    }
  });
}

for (const engine of engines) {
  test(`the server's own worker prunes in the background and stops with the server (${engine.name})`, async () => {
    const config = { ...PUBLIC_DEMO, events: { retention: { maxCount: 3, maxAge: 'off', partitionSize: 10 } }, retention: { interval: '20ms', batchSize: 2 } };
    const server = await testServer(engine, config);
    let closed = false;
    try {
      const admin = await bearer(server);
      await server.app.ready();
      for (let i = 0; i < 25; i++) await server.app.inject({ method: 'POST', url: '/characters', payload: { name: `w${i}` } });
      // Nobody calls a pass here: the worker started with the app does it on its own timer.
      // It may have pruned while the writes went on; it carries on until the log is back within retention.
      const through = await waitFor(async () => {
        const seq = (await server.store.retention.eventsPrunedThrough())?.seq ?? 0;
        return seq >= (engine.name === 'postgres' ? 10 : 22) && seq;
      }, 'the worker to prune');
      assert.ok(through <= 22, `never past the newest three (pruned through ${through})`);
      const kept = (await server.app.inject({ url: '/events?limit=100', headers: admin })).json()._embedded.events;
      assert.ok(kept.length < 25 && kept.at(-1).data.name === 'w24', `the newest events are kept (${kept.length})`);
      await server.close();
      closed = true;
      assert.equal(await server.context.retention.runOnce().then(() => 'ran', () => 'refused'), 'ran', 'a pass after close fails inside the worker, never as an unhandled rejection');
    } finally {
      if (!closed) await server.close();
    }
  });
}
