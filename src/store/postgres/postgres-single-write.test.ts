import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { DomainError } from '../../core/errors.js';
import { toPlain, type StoredRecord } from '../../core/record.js';
import { defineResources } from '../../core/resource.js';
import { engines } from '../../test-support/engines.js';
import { waitFor } from '../../test-support/wait-for.js';
import { openStore } from '../open.js';
import type { Store } from '../store.js';
import { UniqueConflict } from '../write-errors.js';
import { AppendAnnouncer } from './postgres-announcer.js';
import { eventsChannel } from './postgres-listener.js';
import { createPool, parseTarget } from './postgres-pool.js';
import { SingleStatementWriter } from './postgres-single-write.js';

const [notes, tags] = defineResources({
  resources: {
    notes: { fields: { text: { type: 'string', unique: true }, score: { type: 'number' }, count: { type: 'integer' }, done: { type: 'boolean' }, meta: { type: 'json' } } },
    tags: { id: 'uuid', fields: { label: { type: 'string' } } },
  },
});

const postgres = engines.find((e) => e.name === 'postgres');

/** Every statement text this process sends to PostgreSQL, in order, while `record` is on. */
const sent: string[] = [];
let recording = false;
const originalQuery = pg.Client.prototype.query;

describe('record writes as single statements on PostgreSQL', { skip: postgres ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let url: string;
  let store: Store;
  let admin: pg.Client;

  before(async () => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text: string };
      if (recording) sent.push(typeof config === 'string' ? config : config.text);
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
    url = postgres!.freshUrl();
    store = await openStore(url);
    await store.sync([notes, tags], { allowDestructive: false });
    admin = new pg.Client({ connectionString: parseTarget(url).connectionString, options: `-c search_path=${new URL(url).searchParams.get('schema')}` });
    await admin.connect();
  });

  after(async () => {
    pg.Client.prototype.query = originalQuery;
    await admin.end();
    await store.close();
  });

  /** The statements `work` sends, without the NOTIFY that announces a commit after it (see postgres-announcer.ts). */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    sent.length = 0;
    recording = true;
    try {
      await work();
    } finally {
      recording = false;
    }
    return sent.filter((text) => !text.startsWith('SELECT pg_notify'));
  }

  const eventsOf = async (recordId: unknown) => (await admin.query('SELECT type, data FROM _rw_events WHERE record_id = $1 ORDER BY seq', [String(recordId)])).rows;

  test('a POST, a PUT, a PATCH-like update and a DELETE are one statement each after the read, with no BEGIN or COMMIT', async () => {
    let created: StoredRecord | undefined;
    assert.equal((await statementsOf(async () => (created = await store.insert(notes, { text: 'one' })))).length, 1);
    const update = await statementsOf(() => store.mutate(notes, created!.id, () => ({ put: { text: 'two' } })));
    assert.equal(update.length, 2, 'the read by id, then the write');
    assert.ok(update.every((text) => !/^(BEGIN|COMMIT)/i.test(text)));
    assert.equal((await statementsOf(() => store.mutate(notes, created!.id, () => ({ delete: true })))).length, 2);
    const tag = await store.insert(tags, { label: 'x' });
    assert.equal((await statementsOf(() => store.mutate(tags, '0190a000-0000-7000-8000-00000000000a', () => ({ put: { label: 'y' } })))).length, 2, 'a PUT creating a uuid record');
    assert.ok(tag.id);
    // Fields left out or sent do not change the text: a connection prepares one INSERT per resource, not one per shape of body.
    const [sparse] = await statementsOf(() => store.insert(notes, { text: 'sparse' }));
    const [full] = await statementsOf(() => store.insert(notes, { text: 'full', score: 1, count: 2, done: false, meta: { a: 1 } }));
    assert.equal(sparse, full);
  });

  test('each write commits its event, whose data is the record exactly as it is read back', async () => {
    const meta = { nested: [1, 'two', { three: null }], empty: {} };
    const created = await store.insert(notes, { text: 'typed', score: 1.5, count: 42, done: true, meta });
    assert.deepEqual(await store.get(notes, created.id), created);
    const updated = (await store.mutate(notes, created.id, () => ({ put: { text: 'typed 2', meta: [1, 2] } }))).record!;
    assert.deepEqual(await store.get(notes, created.id), updated);
    await store.mutate(notes, created.id, () => ({ delete: true }));
    const events = await eventsOf(created.id);
    assert.deepEqual(
      events.map((e) => [e.type, JSON.parse(e.data)]),
      [
        ['notes.created', toPlain(created)],
        ['notes.updated', toPlain(updated)],
        ['notes.deleted', toPlain(updated)],
      ],
    );
    assert.deepEqual(toPlain(updated), { id: created.id, text: 'typed 2', score: null, count: null, done: null, meta: [1, 2], version: 2, createdAt: created.createdAt, updatedAt: updated.updatedAt });
    const tag = await store.insert(tags, { label: 'uuid' });
    assert.deepEqual((await eventsOf(tag.id)).map((e) => JSON.parse(e.data)), [toPlain(tag)]);
  });

  test('a write is announced to listening nodes after it commits', async () => {
    const listener = new pg.Client({ connectionString: parseTarget(url).connectionString });
    await listener.connect();
    try {
      const key = (await admin.query<{ k: number }>('SELECT hashtext(current_schema()) AS k')).rows[0].k;
      let heard = 0;
      listener.on('notification', () => heard++);
      await listener.query(`LISTEN ${eventsChannel(key)}`);
      await store.insert(notes, { text: 'heard' });
      await waitFor(() => heard > 0, 'the NOTIFY sent after the commit');
    } finally {
      await listener.end();
    }
  });

  test('an update or delete of a row that changed since it was read writes nothing and says so; the store then decides again', async () => {
    const target = parseTarget(url);
    const pool = createPool(target, () => undefined);
    try {
      const key = (await pool.query<{ k: number }>('SELECT hashtext(current_schema()) AS k')).rows[0].k;
      const writer = new SingleStatementWriter(pool, key, new AppendAnnouncer(pool, eventsChannel(key)));
      const read = await store.insert(notes, { text: 'stale' });
      const now = new Date().toISOString();
      await store.mutate(notes, read.id, () => ({ put: { text: 'fresh' } }));
      assert.equal(await writer.update(notes, read, { ...read, version: 2, updatedAt: now, data: { text: 'lost' } }, now), 'lost');
      assert.equal(await writer.delete(notes, read, now), 'lost');
      assert.equal((await store.get(notes, read.id))?.data.text, 'fresh');
      assert.deepEqual((await eventsOf(read.id)).map((e) => e.type), ['notes.created', 'notes.updated']);

      // The store's If-Match: decided on version 1, the write finds version 2, and the decision is taken again.
      const asked: number[] = [];
      const ifMatch1 = (current: StoredRecord | undefined) => {
        asked.push(current!.version);
        if (current!.version !== 2) throw new DomainError('precondition-failed', 'stale');
        return { put: { text: 'third' } };
      };
      await store.mutate(notes, read.id, ifMatch1);
      assert.deepEqual(asked, [2]);
    } finally {
      await pool.end();
    }
  });

  test('an Idempotency-Key is marked applied by the write’s own statement; a claim taken over writes nothing', async () => {
    const claim = { scope: 's', key: 'k1', id: 'claim-1', fingerprint: 'f', expiresAt: new Date(Date.now() + 60_000).toISOString() };
    assert.deepEqual(await store.claimIdempotencyKey(claim), { claimed: true });
    const lost = { scope: 's', key: 'k1', claimId: 'someone-else', expiresAt: claim.expiresAt };
    await assert.rejects(store.insert(notes, { text: 'not written' }, { idempotency: lost }), (err: DomainError) => err.code === 'idempotency-in-flight');
    assert.equal((await admin.query('SELECT count(*)::int AS n FROM notes WHERE text = $1', ['not written'])).rows[0].n, 0);

    const created = await store.insert(notes, { text: 'written once' }, { idempotency: { ...lost, claimId: 'claim-1' } });
    const entry = (await admin.query('SELECT state, applied FROM _rw_idempotency WHERE scope = $1 AND key = $2', ['s', 'k1'])).rows[0];
    assert.equal(entry.state, 'applied');
    assert.deepEqual(JSON.parse(entry.applied), { resource: 'notes', recordId: created.id, outcome: 'created' });

    const other = { ...claim, key: 'k2', id: 'claim-2' };
    await store.claimIdempotencyKey(other);
    await assert.rejects(
      store.mutate(notes, created.id, () => ({ put: { text: 'changed?' } }), { idempotency: { scope: 's', key: 'k2', claimId: 'not-claim-2', expiresAt: claim.expiresAt } }),
      (err: DomainError) => err.code === 'idempotency-in-flight',
    );
    assert.equal((await store.get(notes, created.id))?.data.text, 'written once');
    assert.deepEqual((await eventsOf(created.id)).map((e) => e.type), ['notes.created']);
  });

  test('a unique value taken is the same 409 as in a transaction, naming the holder', async () => {
    const holder = await store.insert(notes, { text: 'taken' });
    const expected = (err: unknown) => err instanceof UniqueConflict && err.field === 'text' && err.holder?.id === holder.id;
    await assert.rejects(store.insert(notes, { text: 'taken' }), expected);
    const other = await store.insert(notes, { text: 'free' });
    await assert.rejects(store.mutate(notes, other.id, () => ({ put: { text: 'taken' } })), expected);
  });

  test('two nodes writing one record with the same If-Match: exactly one succeeds, the other is refused', async () => {
    const other = await openStore(url);
    try {
      for (let round = 0; round < 10; round++) {
        const record = await store.insert(notes, { text: `race ${round}` });
        const ifMatch = (node: string) => (current: StoredRecord | undefined) => {
          if (current?.version !== record.version || current.gen !== record.gen) throw new DomainError('precondition-failed', 'the record changed');
          return { put: { text: `race ${round} by ${node}` } };
        };
        const results = await Promise.allSettled([store.mutate(notes, record.id, ifMatch('a')), other.mutate(notes, record.id, ifMatch('b'))]);
        assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'], `round ${round}`);
        const final = await store.get(notes, record.id);
        assert.equal(final?.version, 2);
        assert.equal((await eventsOf(record.id)).length, 2);
      }
    } finally {
      await other.close();
    }
  });
});
