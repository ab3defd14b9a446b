import { step, type Flow } from '../flow.js';
import { flag } from '../outbox-rows.js';
import type { Statements, WriteTransaction } from '../statements.js';
import { eventMayGo, type EventRule, type PrunedThrough } from './retention.js';

/*
 * The statements of a pruning pass, the same for every engine. Each batch reads at most `limit`
 * rows by primary key in position order and deletes the ones that may go, so a statement never
 * touches more than a batch and never scans what it keeps. Deletes are idempotent: two nodes
 * pruning at once delete each row once between them.
 */

/** Inbound deliveries in these states are done with; `received` ones still wait for their actions. */
const INBOX_DONE = ['processed', 'failed'];
/** Outbound deliveries in these states are finished; `pending` ones (retries included) are never pruned. */
const OUTBOUND_DONE = ['delivered', 'failed'];

/**
 * Which events may go now: nothing an enabled endpoint has not yet had (after its cursor), nothing
 * a pending delivery still sends (it reads its event when sent), nothing among the newest `maxCount`,
 * and, by age, only what was written before `before`.
 */
export function* eventRule(s: Statements, maxCount: number | null, before: string | undefined): Flow<EventRule> {
  const [cursor] = yield* step(s.rows(s.sql.selectFrom('_rw_hook_endpoints').select((eb) => eb.fn.min('cursor').as('c')).where('enabled', '=', flag(s.codec, true)).compile()));
  const [pending] = yield* step(s.rows(s.sql.selectFrom('_rw_hook_deliveries').select((eb) => eb.fn.min('event_seq').as('s')).where('status', '=', 'pending').compile()));
  const [last] = yield* step(s.rows(s.sql.selectFrom('_rw_events').select((eb) => eb.fn.max('seq').as('seq')).compile()));
  let floor = Number.MAX_SAFE_INTEGER;
  if (cursor?.c !== null && cursor?.c !== undefined) floor = Math.min(floor, Number(cursor.c) + 1);
  if (pending?.s !== null && pending?.s !== undefined) floor = Math.min(floor, Number(pending.s));
  const end = Number(last?.seq ?? 0);
  return { floor, countThrough: maxCount === null ? 0 : end - maxCount, before };
}

/**
 * Deletes the oldest events that may go, at most `limit`, as one transaction that also records how
 * far the log is pruned (so a reader behind it is told, not silently skipped). Resolves how many went.
 */
export function* pruneEventBatch(tx: WriteTransaction, rule: EventRule, limit: number): Flow<number> {
  const rows = yield* step(tx.rows(tx.sql.selectFrom('_rw_events').select(['seq', 'created_at']).where('seq', '<', rule.floor).orderBy('seq').limit(limit).compile()));
  let n = 0;
  while (n < rows.length && eventMayGo(rule, Number(rows[n]!.seq), rows[n]!.created_at)) n++;
  if (n === 0) return 0;
  const last = rows[n - 1]!;
  yield* step(tx.run(tx.sql.deleteFrom('_rw_events').where('seq', '>=', Number(rows[0]!.seq)).where('seq', '<=', Number(last.seq)).compile()));
  yield* markPruned(tx, 'events', { seq: Number(last.seq), at: last.created_at });
  return n;
}

/** Records that a log is pruned through `through`; a later mark never moves back (nodes may race). */
export function* markPruned(s: Statements, log: string, through: PrunedThrough): Flow<void> {
  const row = { log, through: through.seq, through_at: through.at };
  yield* step(
    s.run(
      s.sql
        .insertInto('_rw_retention')
        .values(row)
        .onConflict((oc) => oc.column('log').doUpdateSet({ through: row.through, through_at: row.through_at }).where('_rw_retention.through', '<', row.through))
        .compile(),
    ),
  );
}

/** How far a log has been pruned, if at all. */
export function* prunedThrough(s: Statements, log: string): Flow<PrunedThrough | undefined> {
  const [row] = yield* step(s.rows(s.sql.selectFrom('_rw_retention').select(['through', 'through_at']).where('log', '=', log).compile()));
  return row ? { seq: Number(row.through), at: row.through_at } : undefined;
}

/** Where a keyset pass over a log stands: the last position read, and whether there may be more to prune. */
export interface KeysetStep {
  after: number;
  deleted: number;
  more: boolean;
}

/**
 * One batch of the inbox: processed and failed deliveries received before their source's cutoff.
 * Positions grow with time, so the pass ends at the first delivery newer than every cutoff.
 */
export function* pruneInboxBatch(s: Statements, cutoffs: { of: (source: string) => string | undefined; latest: string }, after: number, limit: number): Flow<KeysetStep> {
  const rows = yield* step(s.rows(s.sql.selectFrom('_rw_inbox').select(['seq', 'source', 'status', 'received_at']).where('seq', '>', after).orderBy('seq').limit(limit).compile()));
  const gone: number[] = [];
  let more = rows.length === limit;
  for (const r of rows) {
    if (r.received_at >= cutoffs.latest) {
      more = false;
      break;
    }
    const cutoff = cutoffs.of(r.source);
    if (INBOX_DONE.includes(r.status) && cutoff !== undefined && r.received_at < cutoff) gone.push(Number(r.seq));
  }
  if (gone.length) yield* step(s.run(s.sql.deleteFrom('_rw_inbox').where('seq', 'in', gone).where('status', 'in', INBOX_DONE).compile()));
  return { after: rows.length ? Number(rows[rows.length - 1]!.seq) : after, deleted: gone.length, more };
}

/** One batch of outbound deliveries: finished ones created before `cutoff` (their attempts go with them). */
export function* pruneOutboundBatch(s: Statements, cutoff: string, after: number, limit: number): Flow<KeysetStep> {
  const rows = yield* step(s.rows(s.sql.selectFrom('_rw_hook_deliveries').select(['seq', 'status', 'created_at']).where('seq', '>', after).orderBy('seq').limit(limit).compile()));
  const gone: number[] = [];
  let more = rows.length === limit;
  for (const r of rows) {
    if (r.created_at >= cutoff) {
      more = false;
      break;
    }
    if (OUTBOUND_DONE.includes(r.status)) gone.push(Number(r.seq));
  }
  // Status is checked again in the DELETE: a redelivery may have made one pending since it was read.
  if (gone.length) yield* step(s.run(s.sql.deleteFrom('_rw_hook_deliveries').where('seq', 'in', gone).where('status', 'in', OUTBOUND_DONE).compile()));
  return { after: rows.length ? Number(rows[rows.length - 1]!.seq) : after, deleted: gone.length, more };
}

/**
 * One batch of a table whose rows carry `expires_at` (Idempotency-Keys, documents such as revoked
 * token ids): the `limit` that expired first, found through the index on `expires_at`.
 */
export function* pruneExpiredBatch(s: Statements, table: '_rw_idempotency' | '_rw_documents', now: string, limit: number): Flow<number> {
  const [bound] = yield* step(
    s.rows(s.sql.selectFrom(table).select('expires_at').where('expires_at', 'is not', null).where('expires_at', '<', now).orderBy('expires_at').limit(1).offset(limit - 1).compile()),
  );
  const upTo = bound?.expires_at ?? now;
  // Without a row at `limit` fewer than a batch are left: everything expired goes.
  const until = bound ? s.sql.deleteFrom(table).where('expires_at', '<=', upTo) : s.sql.deleteFrom(table).where('expires_at', '<', upTo);
  return yield* step(s.run(until.where('expires_at', '<', now).compile()));
}
