import type { ExpressionBuilder, Kysely } from 'kysely';
import { DomainError } from '../core/errors.js';
import type { RecordId } from '../core/record.js';
import { step, type Flow } from './flow.js';
import type { Row, Statements } from './statements.js';

/** A request's claim on an Idempotency-Key (IETF httpapi draft). */
export interface IdempotencyClaim {
  /** Who and where: e.g. the authenticated subject plus method and path, so keys never collide across clients. */
  scope: string;
  key: string;
  /** A random id of this claim: after its lease another request may take the key over, and then this one may no longer complete it. */
  id: string;
  /** Hash of the request (method, path, body) that first used the key. */
  fingerprint: string;
  expiresAt: string;
}

/** What the write a key guards did, recorded in that write's transaction. */
export interface AppliedWrite {
  resource: string;
  recordId: RecordId;
  outcome: 'created' | 'updated' | 'deleted' | 'unchanged';
}

/**
 * What is stored under a key: in flight until the write it guards commits (applied, in the same
 * transaction), complete once the response is stored too.
 */
export interface IdempotencyEntry {
  fingerprint: string;
  state: 'in-flight' | 'applied' | 'complete';
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Set when a write completed the key (a first request that failed before writing has none). */
  applied?: AppliedWrite;
}

/** Passed with a write (WriteOptions) to complete a claimed key in the write's own transaction. */
export interface IdempotencyCompletion {
  scope: string;
  key: string;
  /** The claim's id: the write is refused if the key is no longer claimed by it. */
  claimId: string;
  /** How long the applied key is kept (the claim itself was only a lease). */
  expiresAt: string;
}

/** The row columns of an entry, as both engines store them (JSON as text). */
export function entryOf(row: Row): IdempotencyEntry {
  return {
    fingerprint: row.fingerprint,
    state: row.state,
    response: row.response ? JSON.parse(row.response) : undefined,
    applied: row.applied ? JSON.parse(row.applied) : undefined,
  };
}

/**
 * The statement that marks a claimed key applied, run by each engine inside the write's
 * transaction so the write and the key's completion commit together (or not at all). It changes
 * one row, or none when the claim's lease ran out and another request took the key over.
 */
export function markAppliedQuery(db: Kysely<any>, c: IdempotencyCompletion, applied: AppliedWrite) {
  return claimedKeyUpdate(db, c, { state: 'applied', applied: JSON.stringify(applied) });
}

/**
 * Completes a claimed key with the response stored (a batch's, in the batch's own transaction);
 * changes no row when the claim was taken over, like markAppliedQuery.
 */
export function completeClaimQuery(db: Kysely<any>, c: IdempotencyCompletion, response: IdempotencyEntry['response']) {
  return claimedKeyUpdate(db, c, { state: 'complete', response: JSON.stringify(response) });
}

/** Sets `values` on the key this claim still holds in flight (and its expiry). */
function claimedKeyUpdate(db: Kysely<any>, c: IdempotencyCompletion, values: Record<string, string>) {
  return db
    .updateTable('_rw_idempotency')
    .set({ ...values, expires_at: c.expiresAt })
    .where('scope', '=', c.scope)
    .where('key', '=', c.key)
    .where('claim_id', '=', c.claimId)
    .where('state', '=', 'in-flight')
    .compile();
}

/** Aborts a write whose claim was taken over, so the key's new holder is the only one to write. */
export function claimLost(c: IdempotencyCompletion): DomainError {
  return new DomainError('idempotency-in-flight', `the claim on Idempotency-Key "${c.key}" ran out while this request waited, and a retry took it over; nothing was written by this request`);
}

/**
 * Stores the response of a key the claim still holds, kept until `expiresAt`, or releases the
 * claim unless a write applied it. Expired keys are swept as a side effect, so the table stays
 * bounded without a timer.
 */
export function* completeIdempotencyKey(s: Statements, claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'id'>, response: IdempotencyEntry['response'] | undefined, expiresAt?: string): Flow<void> {
  const held = (eb: ExpressionBuilder<any, any>) => eb.and({ scope: claim.scope, key: claim.key, claim_id: claim.id });
  if (response) {
    const set = { state: 'complete', response: JSON.stringify(response), ...(expiresAt === undefined ? {} : { expires_at: expiresAt }) };
    yield* step(s.run(s.sql.updateTable('_rw_idempotency').set(set).where(held).compile()));
  } else {
    yield* step(s.run(s.sql.deleteFrom('_rw_idempotency').where(held).where('state', '=', 'in-flight').compile()));
  }
  yield* step(s.run(s.sql.deleteFrom('_rw_idempotency').where('expires_at', '<', new Date().toISOString()).compile()));
}
