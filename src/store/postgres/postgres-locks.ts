import type pg from 'pg';

/**
 * Advisory lock classes (the first key of the two-key form). The second key is a hash of the
 * schema name, so stores in different schemas of one database never wait on each other.
 */
export const LOCK = {
  /** Schema sync and the system tables' creation: one node at a time. */
  schema: 0x52570001,
  /** The event log's high-water mark: writers share it from event insert to commit. */
  events: 0x52570002,
  /** Moving a table's id sequence past a client-chosen id. */
  idSequence: 0x52570003,
} as const;

/**
 * Runs `work` on one connection while holding a session-level advisory lock, which (unlike a
 * transaction lock) can span several transactions. The lock dies with the connection, so a
 * crashed node never leaves it held.
 */
export async function withSessionLock<T>(pool: pg.Pool, lockClass: number, key: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [lockClass, key]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [lockClass, key]);
    }
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    // A connection that failed may still hold the lock or a transaction: drop it rather than reuse it.
    client.release(broken);
  }
}

/**
 * Runs statements one by one, each in a transaction of its own, so that the connection never holds
 * one table's lock while waiting for another. Sent as one query they were one transaction, which kept
 * every lock it took until the last statement: a node starting beside running ones then held, say,
 * `_rw_idempotency`'s (ALTER TABLE … ADD COLUMN IF NOT EXISTS locks the table even when the column
 * exists), or the event sequence's, while waiting for a table that a writer held while waiting for the
 * first: a deadlock, which PostgreSQL broke by failing the node's start or a client's write (a 500).
 */
export async function eachOnItsOwn(client: pg.PoolClient, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await client.query(statement);
}
