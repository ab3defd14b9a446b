import type pg from 'pg';
import type { EventRow } from '../records.js';
import { LOCK } from './postgres-locks.js';

/*
 * A global, gap-tolerant event sequence that readers can page by without missing a committed event.
 *
 * `seq` comes from a sequence, so it is global across nodes, but sequence values are handed out
 * before commit: transaction A may take seq 10, B seq 11, and B commit first. A reader that then
 * returned 11 and moved its cursor past it would never see 10. Filtering on "the inserting xid is
 * below the snapshot's xmin" does not close this hole on its own, because xids are assigned at a
 * transaction's first write (or row lock), not when it takes its seq, so xid order and seq order
 * can disagree.
 *
 * What closes it: every writer takes a *shared* advisory lock immediately before it draws its seq
 * and holds it until commit (a transaction lock). A reader briefly takes the same lock
 * *exclusively*, which waits exactly for the writers that have drawn a seq but not yet finished,
 * reads the sequence's last value as a high-water mark, and releases. Every seq up to that mark
 * now belongs to a finished transaction (committed or rolled back: rolled back ones are the gaps),
 * so returning only events with `seq <= mark` can never skip one that commits later. Writers do
 * not block each other; a reader costs the writers in flight at most one commit's wait. The lock
 * keys include the schema, so separate schemas (e.g. test runs) never contend.
 */

/**
 * Inserts changes' events, in one statement; the shared lock is taken in that statement, before
 * any `seq` is drawn, and the positions are drawn in the order given. Other nodes are told after
 * commit (postgres-announcer.ts), not by a NOTIFY in the transaction.
 */
export async function appendEvents(client: pg.PoolClient, schemaKey: number, events: readonly EventRow[]): Promise<void> {
  if (events.length === 1) return appendEvent(client, schemaKey, events[0]!);
  if (!events.length) return;
  const column = (name: keyof EventRow) => events.map((e) => e[name]);
  await client.query(
    `WITH l AS (SELECT pg_advisory_xact_lock_shared($8, $9))
     INSERT INTO _rw_events (id, type, resource, record_id, data, created_at, owner)
     SELECT v.id, v.type, v.resource, v.record_id, v.data, v.created_at, v.owner
     FROM l, unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS v(id, type, resource, record_id, data, created_at, owner, n)
     ORDER BY v.n`,
    [column('id'), column('type'), column('resource'), column('record_id'), column('data'), column('created_at'), column('owner'), LOCK.events, schemaKey],
  );
}

/** One event: a statement of a fixed shape, as every single write runs it. */
async function appendEvent(client: pg.PoolClient, schemaKey: number, e: EventRow): Promise<void> {
  await client.query(
    `WITH l AS (SELECT pg_advisory_xact_lock_shared($7, $8))
     INSERT INTO _rw_events (id, type, resource, record_id, data, created_at, owner) SELECT $1, $2, $3, $4, $5, $6, $9 FROM l`,
    [e.id, e.type, e.resource, e.record_id, e.data, e.created_at, LOCK.events, schemaKey, e.owner],
  );
}

/** The highest seq such that every event at or below it is committed or will never be. */
export async function eventHighWaterMark(pool: pg.Pool, schemaKey: number): Promise<number> {
  // One round trip (simple protocol); the two keys are integers computed by us, not input.
  const results = (await pool.query(
    `BEGIN; SELECT pg_advisory_xact_lock(${LOCK.events}, ${schemaKey | 0});
     SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS mark FROM _rw_event_seq; COMMIT;`,
  )) as unknown as pg.QueryResult[];
  return Number(results[2].rows[0].mark);
}
