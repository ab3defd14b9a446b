import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { defineResources } from '../../src/core/resource.js';
import { newDeliveryId, type NewDelivery } from '../../src/store/inbox.js';
import { openStore } from '../../src/store/open.js';
import type { EndpointInput, Lease } from '../../src/store/outbox.js';
import type { RetentionPolicy } from '../../src/store/retention/retention.js';
import type { Store } from '../../src/store/store.js';
import { engines, type TestEngine } from '../../src/test-support/engines.js';
import { rawSql } from '../../src/test-support/raw-sql.js';

const resources = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } } } });
const notes = resources[0]!;

/** Nothing pruned unless a test says so; partitions of 5 positions where the log is partitioned. */
function policy(over: { events?: Partial<RetentionPolicy['events']>; inbox?: Partial<RetentionPolicy['inbox']>; outbound?: Partial<RetentionPolicy['outbound']> } = {}): RetentionPolicy {
  return {
    events: { maxAgeMs: null, maxCount: null, partitionSize: 5, ...over.events },
    inbox: { maxAgeMs: null, sources: {}, ...over.inbox },
    outbound: { maxAgeMs: null, ...over.outbound },
  };
}

async function writeEvents(store: Store, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await store.insert(notes, { text: `n${i}` });
}

async function seqs(store: Store): Promise<number[]> {
  return (await store.listEvents({ limit: 10_000 })).map((e) => e.seq);
}

/** Waits for the clock to move past now, so what was written before is strictly older than a pass's "now". */
async function clockTick(): Promise<void> {
  const t = Date.now();
  while (Date.now() <= t) await nextTurn();
}

function endpoint(): EndpointInput {
  return { url: 'https://example.com/hook', description: null, eventTypes: null, enabled: true, headers: {}, rateLimit: null, sealedSecrets: 'sealed' };
}

function lease(): Lease {
  const now = new Date();
  return { node: 'n1', token: randomUUID(), now: now.toISOString(), until: new Date(now.getTime() + 30_000).toISOString() };
}

function delivery(source: string, eventId: string, status: NewDelivery['status']): NewDelivery {
  return {
    id: newDeliveryId(), source, eventId, receivedAt: new Date().toISOString(), headers: {}, contentType: 'application/json', body: Buffer.from('{}'),
    verification: { scheme: 'none' }, status, nextAttemptAt: status === 'received' ? new Date(Date.now() + 60_000).toISOString() : null, lastError: null,
    response: { status: 200, contentType: 'application/json', body: '{}' },
  };
}

async function withStore(engine: TestEngine, work: (store: Store, url: string) => Promise<void>, url = engine.freshUrl()): Promise<void> {
  const store = await openStore(url);
  try {
    await store.sync(resources, { allowDestructive: false });
    await work(store, url);
  } finally {
    await store.close();
  }
}

for (const engine of engines) {
  const partitioned = engine.name === 'postgres';

  describe(`retention (${engine.name})`, () => {
    test('count retention keeps the newest events, pruning in batches, and records how far it pruned', async () => {
      await withStore(engine, async (store) => {
        await writeEvents(store, 30);
        const report = await store.retention.prune(policy({ events: { maxCount: 10 } }), { batchSize: 4 });
        assert.deepEqual(await seqs(store), Array.from({ length: 10 }, (_, i) => 21 + i));
        if (partitioned) assert.equal(report.eventPartitions, 4, 'four whole partitions of five dropped');
        else {
          assert.equal(report.events, 20);
          assert.ok(report.batches >= 5, `20 events in batches of 4 take at least 5 statements (took ${report.batches})`);
        }
        assert.equal((await store.retention.eventsPrunedThrough())?.seq, 20);
        await writeEvents(store, 3);
        assert.equal((await seqs(store)).length, 13, 'writes go on after pruning');
      });
    });

    test('age retention prunes what is older than maxAge, and nothing younger', async () => {
      await withStore(engine, async (store) => {
        await writeEvents(store, 12);
        const young = await store.retention.prune(policy({ events: { maxAgeMs: 3_600_000 } }), { batchSize: 5 });
        assert.equal(young.events + young.eventPartitions, 0);
        assert.equal((await seqs(store)).length, 12);
        await clockTick();
        await store.retention.prune(policy({ events: { maxAgeMs: 0 } }), { batchSize: 5 });
        // Partitions leave whole: the one still being written to stays until it is full and old.
        assert.deepEqual(await seqs(store), partitioned ? [11, 12] : []);
      });
    });

    test('events an enabled endpoint has not had yet, and those a pending delivery sends, are kept', async () => {
      await withStore(engine, async (store) => {
        await writeEvents(store, 10);
        await store.outbox.createEndpoint(endpoint(), null);
        await writeEvents(store, 10);
        const aggressive = policy({ events: { maxCount: 1, maxAgeMs: 0 } });
        await clockTick();
        await store.retention.prune(aggressive, { batchSize: 3 });
        const behind = await seqs(store);
        assert.ok(behind.includes(11) && behind.at(-1) === 20 && behind.length <= 15, `the endpoint's ten unsent events are kept (${behind})`);

        // Derived into deliveries: all delivered but the one for event 15, which stays pending.
        while ((await store.outbox.deriveDeliveries(100)).more);
        const claimed = await store.outbox.claimDue(100, lease());
        assert.equal(claimed.length, 10);
        for (const c of claimed) {
          if (c.event.seq === 15) continue;
          const attempt = { number: 1, trigger: 'automatic' as const, startedAt: new Date().toISOString(), statusCode: 200, latencyMs: 1, responseExcerpt: null, error: null, node: 'n1' };
          assert.ok(await store.outbox.recordAttempt(c.delivery.id, c.leaseToken, { attempt, status: 'delivered', nextAttemptAt: null }));
        }
        await clockTick();
        await store.retention.prune(aggressive, { batchSize: 3 });
        const kept = await seqs(store);
        assert.ok(kept.includes(15), `the pending delivery's event is kept (${kept})`);
        if (!partitioned) assert.deepEqual(kept, [15, 16, 17, 18, 19, 20]);
        const pending = claimed.find((c) => c.event.seq === 15)!;
        assert.equal((await store.getEvent(pending.event.id))?.seq, 15);
      });
    });

    test('finished outbound deliveries and their attempts go; pending ones stay', async () => {
      await withStore(engine, async (store) => {
        const e = await store.outbox.createEndpoint(endpoint(), null);
        await writeEvents(store, 4);
        while ((await store.outbox.deriveDeliveries(100)).more);
        const claimed = await store.outbox.claimDue(100, lease());
        const [done, failed, retrying] = claimed;
        const attempt = (code: number) => ({ number: 1, trigger: 'automatic' as const, startedAt: new Date().toISOString(), statusCode: code, latencyMs: 1, responseExcerpt: null, error: code === 200 ? null : 'HTTP 500', node: 'n1' });
        await store.outbox.recordAttempt(done!.delivery.id, done!.leaseToken, { attempt: attempt(200), status: 'delivered', nextAttemptAt: null });
        await store.outbox.recordAttempt(failed!.delivery.id, failed!.leaseToken, { attempt: attempt(500), status: 'failed', nextAttemptAt: null });
        await store.outbox.recordAttempt(retrying!.delivery.id, retrying!.leaseToken, { attempt: attempt(500), status: 'pending', nextAttemptAt: new Date(Date.now() + 60_000).toISOString() });
        await clockTick();
        const kept = await store.retention.prune(policy({ outbound: { maxAgeMs: 3_600_000 } }), { batchSize: 2 });
        assert.equal(kept.outbound, 0);
        const report = await store.retention.prune(policy({ outbound: { maxAgeMs: 0 } }), { batchSize: 2 });
        assert.equal(report.outbound, 2);
        const left = await store.outbox.listDeliveries(e.id, { limit: 10 });
        assert.deepEqual(left.map((d) => d.status).sort(), ['pending', 'pending']);
        assert.equal(await store.outbox.getDelivery(e.id, done!.delivery.id), undefined);
        assert.deepEqual(await store.outbox.listAttempts(done!.delivery.id), [], 'its attempts went with it');
        assert.equal((await store.outbox.listAttempts(retrying!.delivery.id)).length, 1);
      });
    });

    test('processed and failed inbox deliveries go after their source\'s retention; unprocessed ones never', async () => {
      await withStore(engine, async (store) => {
        const made = { processed: delivery('hooks', 'a', 'processed'), failed: delivery('hooks', 'b', 'failed'), received: delivery('hooks', 'c', 'received'), kept: delivery('keep', 'd', 'processed') };
        for (const d of Object.values(made)) await store.inbox.receive(d);
        for (let i = 0; i < 7; i++) await store.inbox.receive(delivery('hooks', `x${i}`, 'processed'));
        await clockTick();
        const report = await store.retention.prune(policy({ inbox: { maxAgeMs: 0, sources: { keep: null } } }), { batchSize: 3 });
        assert.equal(report.inbox, 9);
        assert.equal(await store.inbox.get('hooks', made.processed.id), undefined);
        assert.equal(await store.inbox.get('hooks', made.failed.id), undefined);
        assert.equal((await store.inbox.get('hooks', made.received.id))?.status, 'received');
        assert.equal((await store.inbox.get('keep', made.kept.id))?.status, 'processed', 'a source with retention off keeps its deliveries');
      });
    });

    test('expired Idempotency-Keys and documents are deleted, not only hidden', async (t) => {
      await withStore(engine, async (store, url) => {
        const past = new Date(Date.now() - 1000).toISOString();
        const future = new Date(Date.now() + 3_600_000).toISOString();
        for (let i = 0; i < 5; i++) await store.putDocument('revoked', `old${i}`, { i }, past);
        await store.putDocument('revoked', 'live', { i: 9 }, future);
        await store.putDocument('keys', 'forever', { i: 10 });
        for (let i = 0; i < 5; i++) {
          const claim = { scope: 's', key: `k${i}`, id: randomUUID(), fingerprint: 'f', expiresAt: i < 4 ? past : future };
          await store.claimIdempotencyKey(claim);
        }
        const report = await store.retention.prune(policy(), { batchSize: 2 });
        assert.equal(report.documents, 5);
        assert.equal(report.idempotency, 4);
        t.diagnostic(`batches: ${report.batches}`);
        assert.deepEqual((await rawSql(engine, url, 'SELECT id FROM _rw_documents ORDER BY id')).map((r) => r.id), ['forever', 'live']);
        assert.deepEqual((await rawSql(engine, url, 'SELECT key FROM _rw_idempotency')).map((r) => r.key), ['k4']);
      });
    });
  });
}

const postgres = engines.find((e) => e.name === 'postgres');
if (postgres) {
  describe('retention by partitions (postgres)', () => {
    const partitionsOf = async (url: string) =>
      (await rawSql(postgres, url, `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('_rw_events') ORDER BY c.relname`)).map((r) => r.name as string);

    test('partitions are made ahead of the log, early arrivals leave the catch-all, and old ones are dropped whole', async () => {
      await withStore(postgres, async (store, url) => {
        await writeEvents(store, 7);
        assert.deepEqual(await partitionsOf(url), ['_rw_events_default'], 'a fresh log writes into the catch-all until the worker runs');
        await store.retention.prune(policy(), { batchSize: 100 });
        const made = await partitionsOf(url);
        assert.deepEqual(made.sort(), ['_rw_events_11_16', '_rw_events_16_21', '_rw_events_1_6', '_rw_events_6_11', '_rw_events_default'].sort());
        assert.equal((await rawSql(postgres, url, 'SELECT count(*)::int AS n FROM _rw_events_default'))[0].n, 0);
        assert.equal((await rawSql(postgres, url, 'SELECT count(*)::int AS n FROM _rw_events_1_6'))[0].n, 5);
        // Far past the partitions made ahead: the catch-all takes them, so no write fails.
        await writeEvents(store, 20);
        assert.equal((await rawSql(postgres, url, 'SELECT count(*)::int AS n FROM _rw_events_default'))[0].n, 7);
        await store.retention.prune(policy({ events: { maxCount: 8 } }), { batchSize: 100 });
        assert.equal((await rawSql(postgres, url, 'SELECT count(*)::int AS n FROM _rw_events_default'))[0].n, 0);
        const after = await partitionsOf(url);
        assert.ok(!after.includes('_rw_events_1_6') && !after.includes('_rw_events_11_16') && after.includes('_rw_events_21_26'), `old partitions dropped: ${after}`);
        assert.deepEqual(await seqs(store), Array.from({ length: 12 }, (_, i) => 16 + i));
        // Reads by position and by id still work across partitions.
        const [first] = await store.listEvents({ after: 20, limit: 1, types: ['notes.created'] });
        assert.equal(first?.seq, 21);
        assert.equal((await store.getEvent(first!.id))?.seq, 21);
      });
    });

    test('an unpartitioned log of an earlier version becomes the first partition, and leaves whole', async () => {
      const url = postgres.freshUrl();
      await rawSql(postgres, url, `CREATE SEQUENCE _rw_event_seq; CREATE TABLE _rw_events (seq bigint PRIMARY KEY DEFAULT nextval('_rw_event_seq'), id text NOT NULL UNIQUE,
        type text COLLATE "C" NOT NULL, resource text NOT NULL, record_id text, data text NOT NULL, created_at text NOT NULL, owner text);
        ALTER SEQUENCE _rw_event_seq OWNED BY _rw_events.seq; CREATE INDEX _rw_events_type ON _rw_events (type, seq);
        INSERT INTO _rw_events (id, type, resource, record_id, data, created_at) SELECT 'evt_' || lpad(to_hex(g), 32, '0'), 'notes.created', 'notes', g::text, '{"id":' || g || '}', '2026-01-01T00:00:00.000Z' FROM generate_series(1, 20) g;`);
      await withStore(postgres, async (store) => {
        assert.deepEqual(await partitionsOf(url), ['_rw_events_1_21', '_rw_events_default']);
        assert.equal((await rawSql(postgres, url, `SELECT relkind FROM pg_class WHERE oid = to_regclass('_rw_events')`))[0].relkind, 'p');
        assert.equal((await seqs(store)).length, 20);
        await writeEvents(store, 10);
        assert.deepEqual((await seqs(store)).slice(-2), [29, 30], 'the sequence carries on');
        await store.retention.prune(policy({ events: { maxCount: 10 } }), { batchSize: 100 });
        assert.deepEqual(await seqs(store), Array.from({ length: 10 }, (_, i) => 21 + i));
        assert.ok(!(await partitionsOf(url)).includes('_rw_events_1_21'));
        assert.equal((await store.retention.eventsPrunedThrough())?.seq, 20);
        await writeEvents(store, 1);
        assert.equal((await seqs(store)).at(-1), 31, 'the sequence survived the old table');
      }, url);
    });
  });
}
