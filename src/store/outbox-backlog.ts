import { step, type Flow } from './flow.js';
import type { Statements } from './statements.js';

/** What one endpoint has waiting to be sent. */
export interface EndpointBacklog {
  endpointId: string;
  /** Deliveries still pending: not yet sent, being sent, or waiting for a retry. */
  pending: number;
  /** When the oldest of them was created; null when none is pending. */
  oldestCreatedAt: string | null;
}

/**
 * Every endpoint's pending deliveries and the oldest one's creation time, in one statement: the
 * pending deliveries are grouped through the (status, next_attempt_at) index, so the cost follows
 * the backlog, not the history of delivered ones; endpoints with nothing pending get 0.
 */
export function* backlog(s: Statements): Flow<EndpointBacklog[]> {
  const pending = s.sql
    .selectFrom('_rw_hook_deliveries')
    .select((eb) => ['endpoint_id', eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .groupBy('endpoint_id');
  const query = s.sql
    .selectFrom('_rw_hook_endpoints as e')
    .leftJoin(pending.as('p'), 'p.endpoint_id', 'e.id')
    .select(['e.id', 'p.n', 'p.oldest'])
    .orderBy('e.id');
  const rows = yield* step(s.rows(query.compile()));
  return rows.map((r) => ({ endpointId: r.id as string, pending: Number(r.n ?? 0), oldestCreatedAt: (r.oldest as string | null) ?? null }));
}
