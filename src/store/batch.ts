import type { RecordId } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import { claimLost, type IdempotencyCompletion, type IdempotencyEntry } from './idempotency.js';
import { insertRecord, mutateRecord } from './mutate.js';
import type { WriteTransaction } from './statements.js';
import type { Decide, Mutation, WriteOptions } from './store.js';

/** One write of a batch: a POST's insert, or a PUT, PATCH or DELETE's mutate (as Store.insert and Store.mutate take them). */
export type BatchOp =
  | { kind: 'insert'; resource: ResourceDefinition; data: Record<string, unknown>; options: WriteOptions }
  | { kind: 'mutate'; resource: ResourceDefinition; id: RecordId; decide: Decide; options: WriteOptions };

/**
 * One item of a batch: a synchronous function of what the items before it did (their mutations, in
 * order) that says what this one writes. It runs inside the batch's transaction (SQLite's group
 * commit runs flows synchronously, so nothing may be awaited there), and may throw a DomainError
 * (an access check, a validation after references to earlier results were substituted) to abort the batch.
 */
export type BatchStep = (earlier: readonly Mutation[]) => BatchOp;

/** The response stored under a batch's Idempotency-Key (the same shape the Idempotency-Key hooks store). */
export type StoredResponse = NonNullable<IdempotencyEntry['response']>;

/** Options of Store.batch. */
export interface BatchOptions {
  /**
   * The batch request's Idempotency-Key claim and the response to store under it: the key is
   * completed with that response in the batch's own transaction, so a committed batch is never
   * applied twice, even if the process dies before answering. `response` is called once, with
   * every item's result, inside the transaction: it must be synchronous and may not fail.
   */
  idempotency?: { completion: IdempotencyCompletion; response: (results: readonly Mutation[]) => StoredResponse };
}

/** A batch aborted by one of its items: nothing was applied. `error` is that item's own error. */
export class BatchItemError extends Error {
  constructor(readonly index: number, readonly error: unknown) {
    super(`item ${index} of the batch failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Which item a running batch is at, so an error the engine explains after rollback (PostgreSQL) is still told apart by item. */
export interface BatchProgress {
  index: number;
  /** What the item at `index` may read (its WriteOptions.readable), once its step has said. */
  readable?: WriteOptions['readable'];
}

/**
 * Runs the items of a batch in order in `tx`, each one's write with its event (mutate.ts), and
 * completes the batch's Idempotency-Key with its response; the engine commits all or nothing.
 * Sub-items' own idempotency options are ignored: only the batch's key is completed.
 */
export function* runBatch(tx: WriteTransaction, steps: readonly BatchStep[], options: BatchOptions, progress: BatchProgress): Flow<Mutation[]> {
  const results: Mutation[] = [];
  for (let i = 0; i < steps.length; i++) {
    progress.index = i;
    progress.readable = undefined;
    const op = steps[i](results);
    progress.readable = op.options.readable;
    const writeOptions = { ...op.options, idempotency: undefined };
    if (op.kind === 'insert') results.push({ outcome: 'created', record: yield* insertRecord(tx, op.resource, op.data, writeOptions) });
    else results.push(yield* mutateRecord(tx, op.resource, op.id, op.decide, writeOptions));
  }
  progress.index = -1;
  if (options.idempotency) yield* completeInTransaction(tx, options.idempotency.completion, options.idempotency.response(results));
  return results;
}

/** Stores the batch's response under its key in the batch's transaction, or aborts the batch if the claim was taken over. */
function* completeInTransaction(tx: WriteTransaction, c: IdempotencyCompletion, response: StoredResponse): Flow<void> {
  const query = tx.sql
    .updateTable('_rw_idempotency')
    .set({ state: 'complete', response: JSON.stringify(response), expires_at: c.expiresAt })
    .where('scope', '=', c.scope)
    .where('key', '=', c.key)
    .where('claim_id', '=', c.claimId)
    .where('state', '=', 'in-flight')
    .compile();
  const changed = yield* step(tx.run(query));
  if (changed === 0) throw claimLost(c);
}
