import type { Engine } from './engine.js';
import { step, type Flow } from './flow.js';
import type { Audience, AttemptOutcome, AttemptRecord, ClaimedDelivery, DeliveryQuery, EndpointDecision, EndpointInput, Lease, OutboundAttempt, OutboundDelivery, Outbox, WebhookEndpoint } from './outbox.js';
import { backlog, type EndpointBacklog } from './outbox-backlog.js';
import { listAttempts, recordAttempt, release } from './outbox-attempts.js';
import { anyDue, claimDelivery, claimDue } from './outbox-claims.js';
import { anyBehind, deriveDeliveries, type Derived } from './outbox-derive.js';
import { createEndpoint, getEndpoint, listEndpoints, updateEndpoint, type EndpointUpdate } from './outbox-endpoints.js';
import { recordLeased } from './outbox-record-batch.js';
import { replay } from './outbox-replay.js';
import { disableEndpoint, ownedEndpoints } from './outbox-owned-endpoints.js';
import { toOutboundDelivery } from './outbox-rows.js';
import type { Statements } from './statements.js';

/**
 * The outbox, in the same database as the records and the event log on every engine (tables
 * `_rw_hook_endpoints`, `_rw_hook_deliveries`, `_rw_hook_attempts`). Deliveries are derived from
 * the log, so only committed changes are ever sent; claims are leases, so a node that dies
 * mid-attempt only delays its deliveries until the lease runs out.
 */
export class SqlOutbox implements Outbox {
  constructor(private readonly engine: Engine) {}

  async createEndpoint(input: EndpointInput, owner: string | null): Promise<WebhookEndpoint> {
    const horizon = await this.engine.eventHorizon();
    return this.engine.write((s) => createEndpoint(s, input, owner, horizon));
  }

  getEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    return this.engine.read((s) => getEndpoint(s, id));
  }

  listEndpoints(query: { after?: string; limit: number; owner?: string }): Promise<WebhookEndpoint[]> {
    return this.engine.read((s) => listEndpoints(s, query));
  }

  ownedEndpoints(): Promise<WebhookEndpoint[]> {
    return this.engine.read((s) => ownedEndpoints(s));
  }

  disableEndpoint(id: string, reason: string): Promise<boolean> {
    return this.engine.write((s) => disableEndpoint(s, id, reason));
  }

  updateEndpoint(id: string, decide: (current: WebhookEndpoint | undefined) => EndpointDecision): Promise<EndpointUpdate> {
    return this.engine.transaction((tx) => updateEndpoint(tx, id, decide));
  }

  async deriveDeliveries(limit: number, lease?: Lease, audience?: Audience): Promise<Derived> {
    // Taken before the transaction: positions up to it are final, later ones may still commit.
    const horizon = await this.engine.eventHorizon();
    // Most passes (a write with no endpoint subscribed, an idle poll) find nothing: a read says so
    // without a write transaction, which would take the writer and, on SQLite, an fsync.
    if (!(await this.engine.read((s) => anyBehind(s, horizon)))) return { claimed: [], derived: 0, more: false };
    return this.engine.transaction((tx) => deriveDeliveries(tx, limit, horizon, lease, audience));
  }

  async claimDue(limit: number, lease: Lease): Promise<ClaimedDelivery[]> {
    if (!(await this.engine.read((s) => anyDue(s, lease.now)))) return [];
    return this.engine.transaction((tx) => claimDue(tx, limit, lease));
  }

  claimDelivery(endpointId: string, deliveryId: string, lease: Lease): Promise<ClaimedDelivery | undefined> {
    return this.engine.transaction((tx) => claimDelivery(tx, endpointId, deliveryId, lease));
  }

  recordAttempt(deliveryId: string, leaseToken: string, record: AttemptRecord): Promise<boolean> {
    return this.engine.transaction((tx) => recordAttempt(tx, deliveryId, leaseToken, record));
  }

  async recordAttempts(outcomes: AttemptOutcome[]): Promise<PromiseSettledResult<boolean>[]> {
    // One transaction for the common case; if it fails (a deadlock between nodes whose leases ran
    // out, a lost connection) every outcome is recorded on its own below, so none is dropped for another's sake.
    const recorded = await this.engine.transaction((tx) => recordLeased(tx, outcomes)).catch(() => new Set<string>());
    return Promise.allSettled(outcomes.map((o) => (recorded.has(o.deliveryId) ? true : this.recordAttempt(o.deliveryId, o.leaseToken, o.record))));
  }

  release(deliveryId: string, leaseToken: string, nextAttemptAt: string): Promise<void> {
    return this.engine.write((s) => release(s, deliveryId, leaseToken, nextAttemptAt));
  }

  replay(endpointId: string, since: string, options: { failedOnly: boolean; now: string }): Promise<number> {
    return this.engine.transaction((tx) => replay(tx, endpointId, since, options));
  }

  getDelivery(endpointId: string, id: string): Promise<OutboundDelivery | undefined> {
    return this.engine.read((s) => getDelivery(s, endpointId, id));
  }

  listDeliveries(endpointId: string, query: DeliveryQuery): Promise<OutboundDelivery[]> {
    return this.engine.read((s) => listDeliveries(s, endpointId, query));
  }

  listAttempts(deliveryId: string): Promise<OutboundAttempt[]> {
    return this.engine.read((s) => listAttempts(s, deliveryId));
  }

  backlog(): Promise<EndpointBacklog[]> {
    return this.engine.read((s) => backlog(s));
  }
}

function* getDelivery(s: Statements, endpointId: string, id: string): Flow<OutboundDelivery | undefined> {
  if (!s.storable(endpointId, id)) return undefined;
  const [row] = yield* step(s.rows(s.sql.selectFrom('_rw_hook_deliveries').selectAll().where('id', '=', id).where('endpoint_id', '=', endpointId).compile()));
  return row ? toOutboundDelivery(row) : undefined;
}

/** An endpoint's deliveries, oldest first, after a position, optionally of one status and event type. */
function* listDeliveries(s: Statements, endpointId: string, query: DeliveryQuery): Flow<OutboundDelivery[]> {
  if (!s.storable(endpointId, query.eventType ?? '')) return [];
  let q = s.sql.selectFrom('_rw_hook_deliveries').selectAll().where('endpoint_id', '=', endpointId).where('seq', '>', query.after ?? 0);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.eventType !== undefined) q = q.where('event_type', '=', query.eventType);
  return (yield* step(s.rows(q.orderBy('seq').limit(query.limit).compile()))).map(toOutboundDelivery);
}
