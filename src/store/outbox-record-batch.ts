import { step, type Flow } from './flow.js';
import { attemptChanges } from './outbox-attempts.js';
import type { AttemptOutcome } from './outbox.js';
import { attemptColumns } from './outbox-rows.js';
import type { Row, WriteTransaction } from './statements.js';

/** Deliveries per UPDATE and attempt rows per INSERT: well under every engine's limit on bound parameters. */
const CHUNK = 500;

/**
 * Records, in the caller's one transaction, the outcomes that leave their endpoint alone and whose
 * lease still holds: each delivery's change and its attempt row together, as `recordAttempt` does
 * one at a time. Outcomes that share a lease token and a result (the common case: a claim's batch
 * all answered 2xx) are one UPDATE, and the attempt rows one INSERT, so a batch costs a handful of
 * statements whatever its size. Resolves the ids recorded; the rest (the endpoint's health changes,
 * or the lease ran out) are left for `recordAttempt`, which locks the endpoint first and keeps the
 * attempt even without the lease. The endpoint is never locked here, so nothing can wait in a circle
 * with its deletion.
 */
export function* recordLeased(tx: WriteTransaction, outcomes: AttemptOutcome[]): Flow<Set<string>> {
  const now = new Date().toISOString();
  const groups = new Map<string, AttemptOutcome[]>();
  for (const o of outcomes) {
    if (o.record.endpoint || !tx.storable(o.deliveryId, o.leaseToken)) continue;
    const r = o.record;
    const key = JSON.stringify([o.leaseToken, r.status, r.nextAttemptAt, r.attempt.statusCode, r.attempt.error]);
    const group = groups.get(key);
    if (group) group.push(o);
    else groups.set(key, [o]);
  }
  const recorded = new Set<string>();
  for (const group of groups.values()) {
    const { leaseToken, record } = group[0]!;
    const changes = attemptChanges(record, now);
    for (let i = 0; i < group.length; i += CHUNK) {
      const ids = group.slice(i, i + CHUNK).map((o) => o.deliveryId);
      const update = tx.sql.updateTable('_rw_hook_deliveries').set(changes).where('lease_token', '=', leaseToken).where('id', 'in', ids).returning('id');
      for (const row of yield* step(tx.rows(update.compile()))) recorded.add(row.id as string);
    }
  }
  if (recorded.size) yield* insertAttempts(tx, outcomes.filter((o) => recorded.has(o.deliveryId)));
  return recorded;
}

/**
 * Inserts the attempt rows under their numbers; one whose number is taken (a lease given back and
 * claimed again reuses a number) goes under the next free one, as an attempt that happened is never dropped.
 */
function* insertAttempts(tx: WriteTransaction, outcomes: AttemptOutcome[]): Flow<void> {
  const rows: Row[] = outcomes.map((o) => attemptColumns(o.deliveryId, o.record.attempt));
  const taken: Row[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const insert = tx.sql.insertInto('_rw_hook_attempts').values(chunk).onConflict((oc) => oc.columns(['delivery_id', 'number']).doNothing()).returning('delivery_id');
    const inserted = new Set((yield* step(tx.rows(insert.compile()))).map((r) => r.delivery_id as string));
    if (inserted.size < chunk.length) taken.push(...chunk.filter((r) => !inserted.has(r.delivery_id as string)));
  }
  for (const row of taken) {
    const [top] = yield* step(tx.rows(tx.sql.selectFrom('_rw_hook_attempts').select((eb) => eb.fn.max('number').as('n')).where('delivery_id', '=', row.delivery_id).compile()));
    yield* step(tx.run(tx.sql.insertInto('_rw_hook_attempts').values({ ...row, number: Number(top!.n) + 1 }).compile()));
  }
}
