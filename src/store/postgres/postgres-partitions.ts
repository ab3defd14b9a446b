import type pg from 'pg';
import type { EventPartitions, EventRule } from '../retention/retention.js';
import { fullOr, unavailableOr } from './postgres-errors.js';
import { partitionName } from './postgres-event-table.js';

/** Advisory lock class of partition upkeep (second key: the schema's), so one node at a time creates and drops. */
const PARTITION_LOCK = 0x52570010;

/**
 * Creating and dropping a partition each take a lock on the log for a moment (DROP: an exclusive
 * one). Waiting for it longer than this would queue every writer behind the wait, so the step is
 * given up and tried again on the next pass instead.
 */
const LOCK_TIMEOUT = '500ms';

/**
 * Partitions the worker keeps ready past the log's end, so writes between two passes land in one:
 * at least this many, and at least three times what was written since the previous pass.
 */
const AHEAD = 2;

interface Partition {
  name: string;
  from: number;
  to: number;
}

/** Upkeep of the partitioned event log (see postgres-event-table.ts): partitions made ahead, old ones dropped whole. */
export class PostgresEventPartitions implements EventPartitions {
  /** The log's last position at the previous pass: how fast it grows decides how far ahead partitions are made. */
  private previous?: number;

  constructor(private readonly pool: pg.Pool, private readonly schemaKey: number) {}

  prepare(span: number): Promise<void> {
    return this.exclusively(async (client) => {
      const last = await lastPosition(client);
      const ahead = Math.max(AHEAD * span, 3 * (last - (this.previous ?? last)));
      this.previous = last;
      const parts = await partitions(client);
      let from = parts.length ? parts[parts.length - 1]!.to : await firstUncovered(client, last);
      let moved = 0;
      while (from <= last + ahead) {
        moved += await createPartition(client, from, from + span);
        from += span;
      }
      // Rows moved out leave dead ones in the catch-all; vacuumed now, it gives their space back.
      if (moved) await client.query('VACUUM _rw_events_default');
    });
  }

  drop(rule: EventRule): Promise<number> {
    return this.exclusively(async (client) => {
      const last = await lastPosition(client);
      let dropped = 0;
      for (const p of await partitions(client)) {
        const top = p.to - 1;
        if (top > last || top >= rule.floor) break;
        const newest = (await client.query<{ seq: string; created_at: string }>(`SELECT seq, created_at FROM ${p.name} ORDER BY seq DESC LIMIT 1`)).rows[0];
        const through = newest ? { seq: Number(newest.seq), at: newest.created_at } : { seq: top, at: new Date().toISOString() };
        // The partition goes when its newest event may: every older one in it may too.
        if (!(top <= rule.countThrough || (rule.before !== undefined && through.at < rule.before) || !newest)) break;
        if (!(await dropPartition(client, p, through))) break;
        dropped++;
      }
      return dropped;
    }, 0);
  }

  /**
   * Runs `work` unless another node is doing partition upkeep right now (it then does this pass's
   * share). A full disk or a lost database become the store's own errors, as for any statement.
   */
  private async exclusively<T>(work: (client: pg.PoolClient) => Promise<T>, otherwise?: T): Promise<T> {
    try {
      return await this.locked(work, otherwise);
    } catch (err) {
      throw fullOr(unavailableOr(err));
    }
  }

  private async locked<T>(work: (client: pg.PoolClient) => Promise<T>, otherwise?: T): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [PARTITION_LOCK, this.schemaKey]);
      if (!rows[0]!.ok) return otherwise as T;
      try {
        return await work(client);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [PARTITION_LOCK, this.schemaKey]);
      }
    } catch (err) {
      broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  }
}

/** The last position drawn (committed or not). */
async function lastPosition(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ last: string }>('SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS last FROM _rw_event_seq');
  return Number(rows[0]!.last);
}

/** The range partitions of the log, oldest first. */
async function partitions(client: pg.PoolClient): Promise<Partition[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('_rw_events')`,
  );
  const out: Partition[] = [];
  for (const { name } of rows) {
    const m = /^_rw_events_(\d+)_(\d+)$/.exec(name);
    if (m) out.push({ name, from: Number(m[1]), to: Number(m[2]) });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** Where the first partition starts when there is none yet: at the oldest event the catch-all holds, else after the last position. */
async function firstUncovered(client: pg.PoolClient, last: number): Promise<number> {
  const { rows } = await client.query<{ lo: string | null }>('SELECT min(seq) AS lo FROM _rw_events_default');
  return rows[0]!.lo === null ? last + 1 : Number(rows[0]!.lo);
}

/**
 * Adds the partition for [from, to): made on its own, filled with any rows the catch-all took for
 * that range, then attached. Reads and appends of the log wait for the few milliseconds this takes
 * (at most LOCK_TIMEOUT to get the lock, else the step waits for the next pass): an append routed to
 * the catch-all just before the attach would break its new bound, and a read planned before it
 * could miss the rows moved out of the catch-all. The lock is on the parent alone, which every
 * statement on the log takes before it looks at the partitions; one partition is made per
 * `partitionSize` events, normally ahead of time with nothing to move.
 */
async function createPartition(client: pg.PoolClient, from: number, to: number): Promise<number> {
  const name = partitionName(from, to);
  let moved = 0;
  await inTransaction(client, async () => {
    await client.query('LOCK TABLE ONLY _rw_events IN ACCESS EXCLUSIVE MODE');
    await client.query(`CREATE TABLE ${name} (LIKE _rw_events INCLUDING DEFAULTS)`);
    moved = (await client.query(`WITH moved AS (DELETE FROM _rw_events_default WHERE seq >= ${from} AND seq < ${to} RETURNING *) INSERT INTO ${name} SELECT * FROM moved`)).rowCount ?? 0;
    await client.query(`ALTER TABLE _rw_events ATTACH PARTITION ${name} FOR VALUES FROM (${from}) TO (${to})`);
  });
  return moved;
}

/** Drops a partition, recording how far the log is now pruned in the same transaction; false when the lock was not had in time. */
async function dropPartition(client: pg.PoolClient, p: Partition, through: { seq: number; at: string }): Promise<boolean> {
  try {
    await inTransaction(client, async () => {
      await client.query(
        `INSERT INTO _rw_retention (log, through, through_at) VALUES ('events', $1, $2)
         ON CONFLICT (log) DO UPDATE SET through = excluded.through, through_at = excluded.through_at WHERE _rw_retention.through < excluded.through`,
        [through.seq, through.at],
      );
      await client.query(`DROP TABLE ${p.name}`);
    });
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') return false;
    throw err;
  }
}

async function inTransaction(client: pg.PoolClient, work: () => Promise<void>): Promise<void> {
  await client.query(`BEGIN; SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
  try {
    await work();
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
