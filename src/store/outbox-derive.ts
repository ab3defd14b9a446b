import { matchesEventType, type EventRecord } from '../core/events.js';
import { toEvent } from './event-query.js';
import { fixedShapeQuery } from './fixed-shape.js';
import { step, type Flow } from './flow.js';
import type { Audience, ClaimedDelivery, Lease, WebhookEndpoint } from './outbox.js';
import { flag, newOutboundId, toEndpoint, toOutboundDelivery } from './outbox-rows.js';
import { audiences, mayReceive } from './outbox-owner.js';
import { derivedEventColumns, endpointFilterTest } from './outbox-filter.js';
import type { Row, Statements, WriteTransaction } from './statements.js';

/** What one derive pass did: the deliveries it claimed for the caller, how many it created, whether the log had more. */
export interface Derived {
  claimed: ClaimedDelivery[];
  derived: number;
  more: boolean;
}

/** Rows per INSERT: well under every engine's limit on bound parameters. */
const CHUNK = 500;

/**
 * Turns events after each enabled endpoint's cursor into deliveries, in one transaction: the
 * endpoints are locked (ones another node is deriving for are skipped, not waited for), at most
 * `limit` events after the lowest cursor are read, never past `horizon` (an event at a later
 * position may still commit, and a cursor moved past it would skip it), and each endpoint gets a
 * delivery per event past its cursor that it subscribes to; its cursor moves to the last event
 * read. The unique (endpoint, event) pair makes a delivery that already exists (a replay moved the
 * cursor back) stay as it is. With `lease`, the new deliveries are created claimed by the caller.
 * With `audience`, an owned endpoint gets only the events its owner may read.
 */
export function* deriveDeliveries(tx: WriteTransaction, limit: number, horizon: number | undefined, lease?: Lease, audience?: Audience): Flow<Derived> {
  let end = horizon;
  if (end === undefined) {
    const [last] = yield* step(tx.rows(tx.sql.selectFrom('_rw_events').select((eb) => eb.fn.max('seq').as('seq')).compile()));
    end = Number(last?.seq ?? 0);
  }
  const behind = tx.sql.selectFrom('_rw_hook_endpoints').selectAll().where('enabled', '=', flag(tx.codec, true)).where('cursor', '<', end).orderBy('id');
  const endpoints = (yield* step(tx.rows(tx.skipLocked(behind).compile()))).map((r) => toEndpoint(tx.codec, r));
  if (!endpoints.length) return { claimed: [], derived: 0, more: false };
  const from = endpoints.reduce((min, e) => Math.min(min, e.cursor), end);
  const read = tx.sql.selectFrom('_rw_events').where('seq', '>', from).where('seq', '<=', end).orderBy('seq').limit(limit);
  const rows = yield* step(tx.rows((lease ? read.selectAll() : read.select(derivedEventColumns(endpoints))).compile()));
  if (!rows.length) return { claimed: [], derived: 0, more: false };
  const last = Number(rows[rows.length - 1]!.seq);

  const inserted = yield* insertDeliveries(tx, deliveryRows(endpoints, rows, lease, audiences(endpoints, audience)));
  const moved = endpoints.filter((e) => e.cursor < last).map((e) => e.id);
  if (moved.length) yield* step(tx.run(tx.sql.updateTable('_rw_hook_endpoints').set({ cursor: last }).where('id', 'in', moved).compile()));

  const claimed: ClaimedDelivery[] = [];
  if (lease) {
    const endpointsById = new Map(endpoints.map((e) => [e.id, e]));
    const events = new Map<number, EventRecord>(rows.map((r) => [Number(r.seq), toEvent(r)]));
    for (const row of inserted) {
      const delivery = toOutboundDelivery(row);
      claimed.push({ delivery, endpoint: endpointsById.get(delivery.endpointId)!, event: events.get(delivery.eventSeq)!, attempt: delivery.attempts, leaseToken: lease.token });
    }
  }
  return { claimed, derived: inserted.length, more: rows.length === limit };
}

/** A delivery row per (endpoint, event) pair the endpoint has not had yet and subscribes to; claimed at once with `lease`. */
function deliveryRows(endpoints: WebhookEndpoint[], events: Row[], lease: Lease | undefined, visible: ReturnType<typeof audiences>): Row[] {
  const now = lease?.now ?? new Date().toISOString();
  const claim = lease ? { attempts: 1, last_attempt_at: now, lease_until: lease.until, leased_by: lease.node, lease_token: lease.token } : {};
  const out: Row[] = [];
  const wants = endpointFilterTest();
  for (const e of events) {
    const seq = Number(e.seq);
    for (const endpoint of endpoints) {
      if (seq <= endpoint.cursor || !matchesEventType(endpoint.eventTypes, e.type) || !wants(endpoint, e)) continue;
      if (!mayReceive(visible.get(endpoint.id), e)) continue;
      out.push({ id: newOutboundId(), endpoint_id: endpoint.id, event_seq: seq, event_id: e.id, event_type: e.type, status: 'pending', next_attempt_at: now, created_at: now, ...claim });
    }
  }
  return out;
}

/** Inserts delivery rows, skipping those that exist; returns the rows inserted, oldest first. */
function* insertDeliveries(tx: WriteTransaction, rows: Row[]): Flow<Row[]> {
  const inserted: Row[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const insert = tx.sql
      .insertInto('_rw_hook_deliveries')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_seq']).doNothing())
      .returningAll();
    inserted.push(...(yield* step(tx.rows(insert.compile()))));
  }
  return inserted.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/**
 * True when some enabled endpoint has events to derive (its cursor is behind the log's end, or
 * `horizon`). A read: a pass that finds nothing opens no write transaction and commits nothing. One
 * statement of a fixed shape, as it runs after every commit that appends events.
 */
export function* anyBehind(s: Statements, horizon: number | undefined): Flow<boolean> {
  const on = flag(s.codec, true);
  const query =
    horizon === undefined
      ? fixedShapeQuery(s.sql, 'outbox: any endpoint behind the log', [on, 1], () =>
          s.sql
            .selectFrom('_rw_hook_endpoints')
            .select('id')
            .where('enabled', '=', on)
            .where('cursor', '<', s.sql.selectFrom('_rw_events').select((e) => e.fn.coalesce(e.fn.max('seq'), e.lit(0)).as('seq')))
            .limit(1),
        )
      : fixedShapeQuery(s.sql, 'outbox: any endpoint behind a horizon', [on, horizon, 1], () =>
          s.sql.selectFrom('_rw_hook_endpoints').select('id').where('enabled', '=', on).where('cursor', '<', horizon).limit(1),
        );
  return (yield* step(s.rows(query))).length > 0;
}
