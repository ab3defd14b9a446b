import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { databaseFile } from '../../src/store/database-location.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };

describe('SQLite database locked by another process', () => {
  let server: RestwellServer;
  let other: BetterSqlite3.Database;
  const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
  const count = async (query: string) => (await inject({ method: 'GET', url: `/characters?${query}` })).json().count;

  before(async () => {
    server = await testServer(engines.find((e) => e.name === 'sqlite'));
    // What another program (or a `serve --workers` sibling stuck mid-batch) would hold.
    other = new BetterSqlite3(databaseFile(server.app.restwell.config.database)!);
  });
  after(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await server.close();
  });

  test('writes are 503 unavailable with Retry-After, reads are still served, nothing is half-written; writes work again after', async () => {
    const homer = (await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Homer' } })).json();
    const eventsBefore = (await inject({ method: 'GET', url: '/events?limit=100' })).json().count;
    other.exec('BEGIN EXCLUSIVE');
    try {
      const [post, patch, keyed] = await Promise.all([
        inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Marge' } }),
        inject({ method: 'PATCH', url: `/characters/${homer.id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { number: '1' } }),
        inject({ method: 'POST', url: '/characters', headers: { ...json, 'idempotency-key': 'while-locked' }, payload: { name: 'Lisa' } }),
      ]);
      for (const res of [post, patch, keyed]) {
        assert.equal(res.statusCode, 503, res.body);
        assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
        assert.match(res.json().type, /\/problems\/unavailable$/);
        assert.match(res.json().detail, /locked/);
        assert.ok(Number(res.headers['retry-after']) > 0);
      }
      // WAL readers take no lock another connection can hold.
      const read = await inject({ method: 'GET', url: `/characters/${homer.id}` });
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().number, null);
    } finally {
      other.exec('ROLLBACK');
    }
    assert.equal(await count('name=Marge'), 0);
    assert.equal((await inject({ method: 'GET', url: `/characters/${homer.id}` })).json().version, 1);
    assert.equal((await inject({ method: 'GET', url: '/events?limit=100' })).json().count, eventsBefore, 'no event for a write that did not happen');

    assert.equal((await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Marge' } })).statusCode, 201);
    const retried = await inject({ method: 'POST', url: '/characters', headers: { ...json, 'idempotency-key': 'while-locked' }, payload: { name: 'Lisa' } });
    assert.equal(retried.statusCode, 201, 'the key was not left claimed by the failed attempt');
    assert.equal(retried.headers['idempotent-replayed'], undefined);
  });

  test('a write waiting for the lock does not stall the event loop: other requests are answered, and the write lands once the lock goes', async () => {
    other.exec('BEGIN EXCLUSIVE');
    const waiting = inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Bart' } });
    try {
      // Answered while the write waits; a busy-wait inside SQLite would hold this until the write gave up.
      const doc = await inject({ method: 'GET', url: '/problems/unavailable' });
      assert.equal(doc.statusCode, 200);
    } finally {
      other.exec('ROLLBACK');
    }
    const res = await waiting;
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await count('name=Bart'), 1);
  });
});
