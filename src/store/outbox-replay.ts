import { step, type Flow } from './flow.js';
import type { WriteTransaction } from './statements.js';

/**
 * Queues again the endpoint's deliveries whose event was committed at or after `since` (only the
 * failed ones with `failedOnly`), except ones leased now (an attempt is under way), with their
 * retry schedule started again. Unless `failedOnly`, the endpoint's cursor moves back to just
 * before the first such event, so the next derive creates the deliveries it never had (events from
 * before it existed, or from while its type filter left them out); the ones it has stay as they are.
 */
export function* replay(tx: WriteTransaction, endpointId: string, since: string, options: { failedOnly: boolean; now: string }): Flow<number> {
  if (!tx.storable(endpointId, since)) return 0;
  const [endpoint] = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom('_rw_hook_endpoints').select('cursor').where('id', '=', endpointId)).compile()));
  if (!endpoint) return 0;
  let requeue = tx.sql
    .updateTable('_rw_hook_deliveries as d')
    .set((eb) => ({ status: 'pending', next_attempt_at: options.now, retry_from: eb.ref('d.attempts') }))
    .where('d.endpoint_id', '=', endpointId)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', options.now)]))
    .where((eb) => eb.exists(eb.selectFrom('_rw_events as ev').select('ev.seq').whereRef('ev.seq', '=', 'd.event_seq').where('ev.created_at', '>=', since)));
  if (options.failedOnly) requeue = requeue.where('d.status', '=', 'failed');
  const requeued = yield* step(tx.run(requeue.compile()));
  if (!options.failedOnly) {
    // By position, up to the cursor: the scan stops at the first match, and the log has no index by time.
    const first = tx.sql.selectFrom('_rw_events').select('seq').where('seq', '<=', Number(endpoint.cursor)).where('created_at', '>=', since).orderBy('seq').limit(1);
    const [at] = yield* step(tx.rows(first.compile()));
    if (at) yield* step(tx.run(tx.sql.updateTable('_rw_hook_endpoints').set({ cursor: Number(at.seq) - 1 }).where('id', '=', endpointId).compile()));
  }
  return requeued;
}
