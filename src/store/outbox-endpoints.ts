import { step, type Flow } from './flow.js';
import type { EndpointDecision, EndpointInput, WebhookEndpoint } from './outbox.js';
import { inputColumns, inputOf, newEndpointId, toEndpoint } from './outbox-rows.js';
import type { Statements, WriteTransaction } from './statements.js';

/** What updateEndpoint did. */
export type EndpointUpdate = { outcome: 'updated' | 'deleted' | 'unchanged'; endpoint?: WebhookEndpoint };

/**
 * Creates an endpoint whose cursor is `horizon`, the log position every event up to which is
 * committed (or never will be); engines whose positions commit in order have none, and the end of
 * the log is read in the same write instead.
 */
export function* createEndpoint(s: Statements, input: EndpointInput, owner: string | null, horizon: number | undefined): Flow<WebhookEndpoint> {
  let cursor = horizon;
  if (cursor === undefined) {
    const [end] = yield* step(s.rows(s.sql.selectFrom('_rw_events').select((eb) => eb.fn.max('seq').as('seq')).compile()));
    cursor = Number(end?.seq ?? 0);
  }
  const now = new Date().toISOString();
  const row = { id: newEndpointId(), ...inputColumns(s.codec, input), disabled_reason: null, cursor, failing_since: null, version: 1, created_at: now, updated_at: now, owner };
  const [saved] = yield* step(s.rows(s.sql.insertInto('_rw_hook_endpoints').values(row).returningAll().compile()));
  return toEndpoint(s.codec, saved!);
}

export function* getEndpoint(s: Statements, id: string): Flow<WebhookEndpoint | undefined> {
  if (!s.storable(id)) return undefined;
  const [row] = yield* step(s.rows(s.sql.selectFrom('_rw_hook_endpoints').selectAll().where('id', '=', id).compile()));
  return row ? toEndpoint(s.codec, row) : undefined;
}

export function* listEndpoints(s: Statements, query: { after?: string; limit: number; owner?: string }): Flow<WebhookEndpoint[]> {
  let q = s.sql.selectFrom('_rw_hook_endpoints').selectAll();
  if (query.owner !== undefined) q = s.storable(query.owner) ? q.where('owner', '=', query.owner) : q.where('id', '=', '');
  // Ids hold no NUL, so "after a text with NUL" is "after the text before it", which every engine can compare.
  if (query.after !== undefined) q = q.where('id', '>', query.after.split('\u0000')[0]!);
  return (yield* step(s.rows(q.orderBy('id').limit(query.limit).compile()))).map((r) => toEndpoint(s.codec, r));
}

/**
 * Reads the endpoint locked, lets `decide` choose and writes that. A user's change bumps the
 * version; enabling clears the reason it was disabled for, and so does a user disabling it.
 * Deleting it deletes its deliveries and their attempts (the foreign keys cascade).
 */
export function* updateEndpoint(tx: WriteTransaction, id: string, decide: (current: WebhookEndpoint | undefined) => EndpointDecision): Flow<EndpointUpdate> {
  let current: WebhookEndpoint | undefined;
  if (tx.storable(id)) {
    const [row] = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom('_rw_hook_endpoints').selectAll().where('id', '=', id)).compile()));
    current = row ? toEndpoint(tx.codec, row) : undefined;
  }
  const decision = decide(current);
  if ('keep' in decision || !current) return { outcome: 'unchanged', endpoint: current };
  if ('delete' in decision) {
    yield* step(tx.run(tx.sql.deleteFrom('_rw_hook_endpoints').where('id', '=', id).compile()));
    return { outcome: 'deleted', endpoint: current };
  }
  if (JSON.stringify(inputOf(current)) === JSON.stringify(inputOf({ ...current, ...decision.put }))) return { outcome: 'unchanged', endpoint: current };
  const changes = {
    ...inputColumns(tx.codec, decision.put),
    disabled_reason: decision.put.enabled || current.enabled ? null : current.disabledReason,
    version: current.version + 1,
    updated_at: new Date().toISOString(),
  };
  const [row] = yield* step(tx.rows(tx.sql.updateTable('_rw_hook_endpoints').set(changes).where('id', '=', id).returningAll().compile()));
  return { outcome: 'updated', endpoint: toEndpoint(tx.codec, row!) };
}
