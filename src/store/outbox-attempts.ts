import { step, type Flow } from './flow.js';
import { storableError } from './inbox.js';
import type { AttemptRecord, OutboundAttempt } from './outbox.js';
import { attemptColumns, flag, toAttempt } from './outbox-rows.js';
import type { Statements, WriteTransaction } from './statements.js';

const NO_LEASE = { lease_until: null, leased_by: null, lease_token: null };

/** What an attempt's outcome changes on its delivery (the lease ends, whatever the result). */
export function attemptChanges(record: AttemptRecord, now: string) {
  return {
    status: record.status,
    next_attempt_at: record.nextAttemptAt,
    last_status_code: record.attempt.statusCode,
    last_error: storableError(record.attempt.error),
    ...(record.status === 'delivered' ? { delivered_at: now } : {}),
    ...NO_LEASE,
  };
}

/**
 * Writes an attempt and its outcome in one transaction. The attempt is kept whoever made it; the
 * delivery and its endpoint change only while `token` still holds the lease (a node whose lease
 * ran out while it waited for an answer must not overwrite what the next holder did). The endpoint
 * is held against deletion before the delivery is locked, in the order a deletion locks them, so
 * the two never wait for each other in a circle.
 */
export function* recordAttempt(tx: WriteTransaction, deliveryId: string, token: string, record: AttemptRecord): Flow<boolean> {
  if (!tx.storable(deliveryId)) return false;
  const changes = attemptChanges(record, new Date().toISOString());
  // The common case, an outcome that leaves the endpoint alone: the lease check is the update's own
  // condition, and the endpoint is never locked, so nothing can wait in a circle with a deletion.
  if (!record.endpoint && tx.storable(token)) {
    const leased = tx.sql.updateTable('_rw_hook_deliveries').set(changes).where('id', '=', deliveryId).where('lease_token', '=', token);
    if ((yield* step(tx.run(leased.compile()))) > 0) {
      yield* insertAttempt(tx, deliveryId, record.attempt);
      return true;
    }
  }
  const [owner] = yield* step(tx.rows(tx.sql.selectFrom('_rw_hook_deliveries').select('endpoint_id').where('id', '=', deliveryId).compile()));
  if (!owner) return false;
  yield* step(tx.rows(tx.forKeyShare(tx.sql.selectFrom('_rw_hook_endpoints').select('id').where('id', '=', owner.endpoint_id)).compile()));
  const [row] = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom('_rw_hook_deliveries').select(['endpoint_id', 'lease_token']).where('id', '=', deliveryId)).compile()));
  if (!row) return false;
  yield* insertAttempt(tx, deliveryId, record.attempt);
  if (row.lease_token !== token) return false;
  yield* step(tx.run(tx.sql.updateTable('_rw_hook_deliveries').set(changes).where('id', '=', deliveryId).compile()));
  yield* endpointHealth(tx, row.endpoint_id, record.endpoint);
  return true;
}

/** Gives a lease back without an attempt: the claim's count is taken back, and it is due again at `nextAttemptAt`. */
export function* release(s: Statements, deliveryId: string, token: string, nextAttemptAt: string): Flow<void> {
  if (!s.storable(deliveryId, token)) return;
  const update = s.sql
    .updateTable('_rw_hook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '-', 1), next_attempt_at: nextAttemptAt, ...NO_LEASE }))
    .where('id', '=', deliveryId)
    .where('lease_token', '=', token);
  yield* step(s.run(update.compile()));
}

export function* listAttempts(s: Statements, deliveryId: string): Flow<OutboundAttempt[]> {
  if (!s.storable(deliveryId)) return [];
  return (yield* step(s.rows(s.sql.selectFrom('_rw_hook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('number').compile()))).map(toAttempt);
}

/**
 * Inserts the attempt under its number, or under the next free one when that is taken: a lease
 * given back and claimed again reuses a number, and an attempt that happened is never dropped.
 */
function* insertAttempt(tx: WriteTransaction, deliveryId: string, attempt: Omit<OutboundAttempt, 'deliveryId'>): Flow<void> {
  const row = attemptColumns(deliveryId, attempt);
  const first = tx.sql.insertInto('_rw_hook_attempts').values(row).onConflict((oc) => oc.columns(['delivery_id', 'number']).doNothing());
  if ((yield* step(tx.run(first.compile()))) > 0) return;
  const [top] = yield* step(tx.rows(tx.sql.selectFrom('_rw_hook_attempts').select((eb) => eb.fn.max('number').as('n')).where('delivery_id', '=', deliveryId).compile()));
  yield* step(tx.run(tx.sql.insertInto('_rw_hook_attempts').values({ ...row, number: Number(top!.n) + 1 }).compile()));
}

/**
 * The dispatcher's bookkeeping on an endpoint (never a user's change, so the version stays):
 * when it started failing (kept from the first failure on, cleared by a success), and disabling it.
 */
function* endpointHealth(tx: WriteTransaction, endpointId: string, health: AttemptRecord['endpoint']): Flow<void> {
  const endpoint = tx.sql.updateTable('_rw_hook_endpoints').where('id', '=', endpointId);
  if (health?.failingSince !== undefined) {
    const set = health.failingSince === null ? endpoint.where('failing_since', 'is not', null) : endpoint.where('failing_since', 'is', null);
    yield* step(tx.run(set.set({ failing_since: health.failingSince }).compile()));
  }
  if (health?.disable !== undefined) {
    yield* step(tx.run(endpoint.set({ enabled: flag(tx.codec, false), disabled_reason: storableError(health.disable) }).compile()));
  }
}
