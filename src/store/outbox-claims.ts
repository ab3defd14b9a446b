import { toEvent } from './event-query.js';
import { fixedShapeQuery } from './fixed-shape.js';
import { step, type Flow } from './flow.js';
import type { ClaimedDelivery, Lease } from './outbox.js';
import { flag, toEndpoint, toOutboundDelivery } from './outbox-rows.js';
import type { Row, Statements, WriteTransaction } from './statements.js';

/**
 * Claims due deliveries: pending, due by `lease.now`, not leased (or the lease ran out: the node
 * holding it died mid-attempt), of enabled endpoints. The rows are locked as they are picked and
 * rows another node is claiming are skipped, so two nodes never claim one delivery.
 */
export function* claimDue(tx: WriteTransaction, limit: number, lease: Lease): Flow<ClaimedDelivery[]> {
  const due = dueQuery(tx, lease.now).orderBy('d.next_attempt_at').orderBy('d.seq').limit(limit);
  const picked = yield* step(tx.rows(tx.skipLocked(due, 'd').compile()));
  if (!picked.length) return [];
  return yield* leaseTo(tx, picked.map((r) => Number(r.seq)), lease);
}

/** True when some delivery is due by `now`; a read, so a pass that finds nothing commits nothing (of a fixed shape: it runs on every pass). */
export function* anyDue(s: Statements, now: string): Flow<boolean> {
  const query = fixedShapeQuery(s.sql, 'outbox: any delivery due', ['pending', now, now, flag(s.codec, true), 1], () => dueQuery(s, now).limit(1));
  return (yield* step(s.rows(query))).length > 0;
}

/** Pending deliveries of enabled endpoints, due by `now`, not leased (or the lease ran out). */
function dueQuery(s: Statements, now: string) {
  return s.sql
    .selectFrom('_rw_hook_deliveries as d')
    .innerJoin('_rw_hook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.seq')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
    .where('e.enabled', '=', flag(s.codec, true));
}

/** Claims one delivery of an endpoint whatever its status, unless a lease on it still holds. */
export function* claimDelivery(tx: WriteTransaction, endpointId: string, id: string, lease: Lease): Flow<ClaimedDelivery | undefined> {
  if (!tx.storable(endpointId, id)) return undefined;
  const one = tx.sql.selectFrom('_rw_hook_deliveries').select(['seq', 'lease_until']).where('id', '=', id).where('endpoint_id', '=', endpointId);
  const [row] = yield* step(tx.rows(tx.forUpdate(one).compile()));
  if (!row || (row.lease_until !== null && row.lease_until > lease.now)) return undefined;
  return (yield* leaseTo(tx, [Number(row.seq)], lease))[0];
}

/** Leases the (locked) deliveries at these positions to the caller, counting the attempt it is about to make. */
function* leaseTo(tx: WriteTransaction, seqs: number[], lease: Lease): Flow<ClaimedDelivery[]> {
  const update = tx.sql
    .updateTable('_rw_hook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_attempt_at: lease.now, lease_until: lease.until, leased_by: lease.node, lease_token: lease.token }))
    .where('seq', 'in', seqs)
    .returningAll();
  const rows = yield* step(tx.rows(update.compile()));
  return yield* withContext(tx, rows.sort((a, b) => Number(a.seq) - Number(b.seq)), lease.token);
}

/** The claimed deliveries with their endpoints and events, everything a sender needs. */
function* withContext(s: Statements, rows: Row[], token: string): Flow<ClaimedDelivery[]> {
  const deliveries = rows.map(toOutboundDelivery);
  const endpointIds = [...new Set(deliveries.map((d) => d.endpointId))];
  const endpointRows = yield* step(s.rows(s.sql.selectFrom('_rw_hook_endpoints').selectAll().where('id', 'in', endpointIds).compile()));
  const eventRows = yield* step(s.rows(s.sql.selectFrom('_rw_events').selectAll().where('seq', 'in', deliveries.map((d) => d.eventSeq)).compile()));
  const endpoints = new Map(endpointRows.map((r) => [r.id as string, toEndpoint(s.codec, r)]));
  const events = new Map(eventRows.map((r) => [Number(r.seq), toEvent(r)]));
  return deliveries.map((delivery) => ({ delivery, endpoint: endpoints.get(delivery.endpointId)!, event: events.get(delivery.eventSeq)!, attempt: delivery.attempts, leaseToken: token }));
}
