import type pg from 'pg';
import { PG_TEXT } from './postgres-codec.js';
import { eachOnItsOwn } from './postgres-locks.js';

/*
 * The event log on PostgreSQL is partitioned by range of `seq`: each partition holds `partitionSize`
 * consecutive positions and is named `_rw_events_<from>_<to>` (to exclusive), so retention removes old
 * events by dropping whole partitions (no DELETE, no VACUUM of dead rows). Positions, not times, are
 * the key because every read of the log is by position (pages after a cursor, the high-water mark,
 * outbox derivation), so each one is pruned to the partitions it needs, and the count rule maps onto
 * partitions exactly; the age rule drops a partition once its newest event is old enough.
 *
 * A primary key of a partitioned table must include the partition key: it is `seq` alone, as
 * before. `id` can no longer be UNIQUE across partitions; it is indexed per partition (a lookup by
 * id probes each partition's index) and stays unique because ids are fresh UUIDv7s drawn here.
 * A DEFAULT partition catches positions no partition covers yet, so an insert never fails; the
 * retention worker creates partitions ahead of the log's end and moves any such rows into them.
 */

/** The partitioned log. Partitions are made by postgres-partitions.ts. */
const PARENT = `CREATE TABLE _rw_events (
  seq bigint NOT NULL DEFAULT nextval('_rw_event_seq'), id text NOT NULL, type ${PG_TEXT} NOT NULL,
  resource text NOT NULL, record_id text, data text NOT NULL, created_at text NOT NULL, owner text,
  PRIMARY KEY (seq)) PARTITION BY RANGE (seq)`;

/** The name of the partition holding positions `from` (inclusive) to `to` (exclusive). */
export function partitionName(from: number, to: number): string {
  return `_rw_events_${from}_${to}`;
}

/**
 * Creates the partitioned event log, or turns the unpartitioned one of an earlier version into it.
 * Run under the schema lock, so one node at a time.
 *
 * The old table is not copied: it is renamed and attached as the first partition, covering the
 * positions it holds (attaching only checks its rows, which a one-time scan does). It then leaves
 * like any other partition once all of its events may go. Its UNIQUE (id) constraint is dropped
 * (the partitioned log indexes id per partition) and the sequence is handed to the new table first,
 * so dropping the old one never takes the sequence with it.
 */
export async function createEventTable(client: pg.PoolClient): Promise<void> {
  await client.query('CREATE SEQUENCE IF NOT EXISTS _rw_event_seq');
  const { rows } = await client.query<{ relkind: string }>(`SELECT relkind FROM pg_class WHERE oid = to_regclass('_rw_events')`);
  const kind = rows[0]?.relkind;
  if (kind === undefined) await client.query(PARENT);
  else if (kind === 'r') await partitionExisting(client);
  // Together, the sequence's lock was kept while the index waited for the log's writers, who were waiting for the sequence.
  await eachOnItsOwn(client, [
    'ALTER SEQUENCE _rw_event_seq OWNED BY _rw_events.seq',
    'CREATE INDEX IF NOT EXISTS _rw_events_type ON _rw_events (type, seq)',
    'CREATE INDEX IF NOT EXISTS _rw_events_id ON _rw_events (id)',
    'CREATE TABLE IF NOT EXISTS _rw_events_default PARTITION OF _rw_events DEFAULT',
  ]);
}

async function partitionExisting(client: pg.PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    // Writers of older nodes wait here for the few statements below, then insert into the new table.
    await client.query('LOCK TABLE _rw_events IN ACCESS EXCLUSIVE MODE');
    await client.query('ALTER TABLE _rw_events ADD COLUMN IF NOT EXISTS owner text');
    // A partition's columns must match the log's exactly; the oldest versions kept `type` without the C collation.
    await client.query(`ALTER TABLE _rw_events ALTER COLUMN type TYPE ${PG_TEXT}`);
    const { rows } = await client.query<{ lo: string | null; hi: string | null }>('SELECT min(seq) AS lo, max(seq) AS hi FROM _rw_events');
    await client.query(`ALTER TABLE _rw_events RENAME TO _rw_events_unpartitioned;
      ALTER TABLE _rw_events_unpartitioned DROP CONSTRAINT IF EXISTS _rw_events_id_key;
      ALTER TABLE _rw_events_unpartitioned RENAME CONSTRAINT _rw_events_pkey TO _rw_events_unpartitioned_pkey;
      ALTER INDEX IF EXISTS _rw_events_type RENAME TO _rw_events_unpartitioned_type;`);
    await client.query(PARENT);
    await client.query('ALTER SEQUENCE _rw_event_seq OWNED BY _rw_events.seq');
    if (rows[0]!.lo === null) {
      await client.query('DROP TABLE _rw_events_unpartitioned');
    } else {
      const from = Number(rows[0]!.lo);
      const to = Number(rows[0]!.hi) + 1;
      const name = partitionName(from, to);
      await client.query(`ALTER TABLE _rw_events_unpartitioned RENAME TO ${name};
        ALTER TABLE _rw_events ATTACH PARTITION ${name} FOR VALUES FROM (${from}) TO (${to});`);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
