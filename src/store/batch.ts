import { step, type Flow } from './flow.js';
import { claimLost, completeClaimQuery, type IdempotencyCompletion } from './idempotency.js';
import { insertRecord, mutateRecord } from './mutate.js';
import type { EventRow } from './records.js';
import type { WriteTransaction } from './statements.js';
import type { BatchOptions, BatchStep, Mutation, StoredResponse, WriteOptions } from './store.js';

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
  const events: EventRow[] = [];
  const items = deferringEvents(tx, events);
  for (let i = 0; i < steps.length; i++) {
    progress.index = i;
    progress.readable = undefined;
    const op = steps[i](results);
    progress.readable = op.options.readable;
    const writeOptions = { ...op.options, idempotency: undefined };
    if (op.kind === 'insert') results.push({ outcome: 'created', record: yield* insertRecord(items, op.resource, op.data, writeOptions) });
    else results.push(yield* mutateRecord(items, op.resource, op.id, op.decide, writeOptions));
  }
  progress.index = -1;
  yield* step(tx.appendEvents(events));
  if (options.idempotency) yield* completeInTransaction(tx, options.idempotency.completion, options.idempotency.response(results));
  return results;
}

/**
 * `tx` with its event appends held back in `events`, to be appended together at the end: on
 * PostgreSQL one statement instead of one per item, and the event log's shared lock (see
 * postgres-events.ts) taken just before commit rather than for the whole batch, so a long batch
 * does not hold up readers of the log, nor the writers queued behind them.
 */
function deferringEvents(tx: WriteTransaction, events: EventRow[]): WriteTransaction {
  const appendEvents = (rows: readonly EventRow[]) => void events.push(...rows);
  return new Proxy(tx, {
    get(target, name) {
      if (name === 'appendEvents') return appendEvents;
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Stores the batch's response under its key in the batch's transaction, or aborts the batch if the claim was taken over. */
function* completeInTransaction(tx: WriteTransaction, c: IdempotencyCompletion, response: StoredResponse): Flow<void> {
  const changed = yield* step(tx.run(completeClaimQuery(tx.sql, c, response)));
  if (changed === 0) throw claimLost(c);
}
