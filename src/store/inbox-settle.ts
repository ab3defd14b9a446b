import { step, type Flow } from './flow.js';
import { applyAttempt, toDelivery, type AttemptOutcome, type CreatedRecord, type Delivery } from './inbox.js';
import { writeRecord } from './mutate.js';
import { firstGeneration, newEventId } from './records.js';
import type { WriteTransaction } from './statements.js';

/**
 * Writes an attempt's outcome and its effects in one transaction, with the delivery locked: an
 * insert that fails rolls back the whole attempt, and an attempt another worker already counted
 * (the attempt count moved past `expectedAttempts`) changes nothing, so effects never run twice.
 */
export function* settleDelivery(tx: WriteTransaction, id: string, outcome: AttemptOutcome, at: string): Flow<Delivery | undefined> {
  const [row] = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom('_rw_inbox').selectAll().where('id', '=', id)).compile()));
  if (!row) return undefined;
  const current = toDelivery(row);
  if (current.attempts !== outcome.expectedAttempts) return undefined;
  const result = { records: [] as CreatedRecord[], events: [] as string[] };
  for (const r of outcome.effects?.records ?? []) {
    const saved = yield* writeRecord(tx, r.resource, 'insert', firstGeneration(r.resource, r.data, at, null), at);
    result.records.push({ resource: r.resource.name, id: saved.id });
  }
  for (const e of outcome.effects?.events ?? []) {
    const event = { id: newEventId(), type: e.type, resource: e.resource, record_id: e.recordId, data: JSON.stringify(e.data), created_at: at, owner: null };
    yield* step(tx.appendEvents([event]));
    result.events.push(event.id);
  }
  const next = applyAttempt(current, outcome, at, result);
  const changes = { status: next.status, attempts: next.attempts, next_attempt_at: next.nextAttemptAt, last_error: next.lastError, attempt_log: JSON.stringify(next.attemptLog) };
  yield* step(tx.run(tx.sql.updateTable('_rw_inbox').set(changes).where('id', '=', id).compile()));
  return next;
}
