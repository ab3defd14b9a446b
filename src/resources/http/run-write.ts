import type { HttpContext } from '../../http/context.js';
import type { BatchOp } from '../../store/store.js';
import type { IdempotencyCompletion } from '../../store/idempotency.js';
import type { Mutation } from '../../store/store.js';

/** Runs a prepared PUT, PATCH or DELETE (record-writes.ts) on its own, completing `idempotency` with it. */
export function runMutate(ctx: HttpContext, op: BatchOp, idempotency?: IdempotencyCompletion): Promise<Mutation> {
  if (op.kind !== 'mutate') throw new Error('a PUT, PATCH or DELETE prepares a mutate');
  return ctx.store.mutate(op.resource, op.id, op.decide, idempotency ? { ...op.options, idempotency } : op.options);
}
