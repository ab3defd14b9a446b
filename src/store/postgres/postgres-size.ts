import type pg from 'pg';
import type { StoreSize } from '../store-size.js';

/**
 * One round trip, reading only the catalog and file sizes (never a table): the tables of the
 * store's schema with their indexes and TOAST, the event log's table and every partition or child
 * under it (through pg_inherits, so declarative partitions and inheritance alike, wherever they
 * live), and the span of event positions from the primary key's two ends. Its locks (ACCESS SHARE
 * on each table it sizes) give up after a short wait, so a DDL queued behind a long transaction
 * (a partition being dropped) costs a missed measurement, never a connection held waiting.
 */
const SIZE_SQL = `SET LOCAL lock_timeout = '500ms'; SET LOCAL statement_timeout = '5s';
WITH RECURSIVE events(oid) AS (
  SELECT to_regclass('_rw_events')::oid
  UNION ALL
  SELECT i.inhrelid FROM pg_inherits i JOIN events e ON i.inhparent = e.oid
)
SELECT
  (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
    WHERE (c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = current_schema()) AND c.relkind IN ('r', 'm'))
       OR c.oid IN (SELECT oid FROM events)) AS database_bytes,
  (SELECT coalesce(sum(pg_total_relation_size(oid)), 0)::bigint FROM events) AS event_bytes,
  (SELECT max(seq) - min(seq) + 1 FROM _rw_events) AS event_rows`;

/** The store's size on PostgreSQL (see StoreSize); the statements run as one implicit transaction. */
export async function postgresSize(pool: pg.Pool): Promise<StoreSize> {
  const results = (await pool.query(SIZE_SQL)) as unknown as pg.QueryResult[];
  const row = results.at(-1)!.rows[0] as { database_bytes: number; event_bytes: number; event_rows: number | null };
  return { databaseBytes: Number(row.database_bytes), eventBytes: Number(row.event_bytes), eventRows: Number(row.event_rows ?? 0) };
}
