import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rawSql } from '../../src/test-support/raw-sql.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { apiKey, AUTH_CONFIG, bearer } from './auth-support.js';

/** The event table as versions before event owners made it (per engine), holding one event. */
const OLD_EVENTS = {
  sqlite: 'CREATE TABLE _rw_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, resource TEXT NOT NULL, record_id TEXT, data TEXT NOT NULL, created_at TEXT NOT NULL);',
  postgres: `CREATE SEQUENCE _rw_event_seq; CREATE TABLE _rw_events (seq bigint PRIMARY KEY DEFAULT nextval('_rw_event_seq'), id text NOT NULL UNIQUE,
    type text NOT NULL, resource text NOT NULL, record_id text, data text NOT NULL, created_at text NOT NULL);`,
};
const OLD_EVENT = `INSERT INTO _rw_events (id, type, resource, record_id, data, created_at) VALUES ('evt_old', 'notes.created', 'notes', '1', '{"id":1,"text":"old"}', '2026-01-01T00:00:00.000Z');`;

async function oldDatabase(engine: (typeof engines)[number]): Promise<string> {
  const url = engine.freshUrl();
  await rawSql(engine, url, OLD_EVENTS[engine.name as keyof typeof OLD_EVENTS] + OLD_EVENT);
  return url;
}

for (const engine of engines) {
  test(`a database from before event owners opens, keeps its events, and records owners from now on (${engine.name})`, async () => {
    const url = await oldDatabase(engine);
    // The old event is dated long ago: age retention is off so the start-up pruning pass keeps it.
    const server = await testServer({ name: engine.name, freshUrl: () => url }, { ...AUTH_CONFIG, events: { retention: { maxAge: 'off' } } });
    try {
      const alice = bearer(await apiKey(server, ['events:read'], 'alice'));
      const admin = bearer(await apiKey(server, ['*'], 'admin'));
      assert.equal((await server.app.inject({ method: 'POST', url: '/notes', headers: alice, payload: { text: 'new' } })).statusCode, 201);
      const seen = async (who: Record<string, string>) =>
        (await server.app.inject({ url: '/events', headers: { authorization: who.authorization } })).json()._embedded.events.map((e: any) => e.data.text);
      assert.deepEqual(await seen(admin), ['old', 'new']);
      assert.deepEqual(await seen(alice), ['new'], 'an event whose owner was never recorded is left to admins');
    } finally {
      await server.close();
    }
  });
}
