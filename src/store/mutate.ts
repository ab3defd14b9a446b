import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import { claimLost, markAppliedQuery, type IdempotencyCompletion } from './idempotency.js';
import { changeEvent, firstGeneration, recordColumns, rowToRecord, sameData } from './records.js';
import { forbiddenReference, missingReference } from './write-errors.js';
import type { RecordToWrite, WriteTransaction } from './statements.js';
import type { Decide, Mutation, ReadableRecords, WriteOptions } from './store.js';
import { recordWriteQuery } from './write-sql.js';

/** A POST: creates a record with a server-chosen id, its event, and completes the Idempotency-Key. */
export function* insertRecord(tx: WriteTransaction, resource: ResourceDefinition, data: Record<string, unknown>, options: WriteOptions): Flow<StoredRecord> {
  const now = new Date().toISOString();
  const record = yield* writeRecord(tx, resource, 'insert', firstGeneration(resource, data, now, options.owner ?? null), now, options.readable);
  yield* markApplied(tx, resource, { outcome: 'created', record }, options.idempotency);
  return record;
}

/**
 * A PUT, PATCH or DELETE: reads the record locked, lets `decide` choose, writes that (put,
 * delete or keep) with its event, and completes the Idempotency-Key, all in `tx`.
 */
export function* mutateRecord(tx: WriteTransaction, resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Flow<Mutation> {
  const mutation = yield* decideAndWrite(tx, resource, id, decide, options);
  yield* markApplied(tx, resource, mutation, options.idempotency, id);
  return mutation;
}

function* decideAndWrite(tx: WriteTransaction, resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Flow<Mutation> {
  const [row] = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom(resource.name).selectAll().where('id', '=', id)).compile()));
  const current = row ? rowToRecord(resource, row, tx.codec) : undefined;
  const decision = decide(current);
  const now = new Date().toISOString();
  if ('keep' in decision) return { outcome: 'unchanged', record: current };
  if ('delete' in decision) {
    if (!current) return { outcome: 'unchanged' };
    yield* step(tx.writeRow({ resource, how: 'delete', record: current }, tx.sql.deleteFrom(resource.name).where('id', '=', current.id).compile()));
    yield* step(tx.appendEvent(changeEvent(resource, 'deleted', current, now)));
    return { outcome: 'deleted', record: current };
  }
  if (!current) {
    const fresh = firstGeneration(resource, decision.put, now, options.owner ?? null, id);
    return { outcome: 'created', record: yield* writeRecord(tx, resource, 'insert', fresh, now, options.readable) };
  }
  if (sameData(current.data, decision.put)) return { outcome: 'unchanged', record: current };
  const next = { ...current, version: current.version + 1, updatedAt: now, data: decision.put };
  return { outcome: 'updated', record: yield* writeRecord(tx, resource, 'update', next, now, options.readable, current.data) };
}

/**
 * Inserts or updates one record and appends its event; a missing reference target is a 422.
 * `readable` and `previous` (the data before an update) limit the references the write sets to
 * records the writer may read (WriteOptions.readable).
 */
export function* writeRecord(
  tx: WriteTransaction,
  resource: ResourceDefinition,
  how: 'insert' | 'update',
  record: RecordToWrite,
  now: string,
  readable?: ReadableRecords,
  previous?: Record<string, unknown>,
): Flow<StoredRecord> {
  yield* checkReferences(tx, resource, record.data, readable, previous);
  const query = recordWriteQuery(tx.sql, resource, how, recordColumns(resource, record, tx.codec), record.id);
  const [row] = yield* step(tx.writeRow({ resource, how, record }, query));
  const saved = rowToRecord(resource, row!, tx.codec);
  if (how === 'insert' && record.id !== undefined && resource.idType === 'integer') yield* step(tx.reserveId(resource, saved.id as number));
  yield* step(tx.appendEvent(changeEvent(resource, how === 'insert' ? 'created' : 'updated', saved, now)));
  return saved;
}

/**
 * Every engine answers 422 for a reference to a record that does not exist, before writing (a
 * foreign key failure would say less). The target is kept from being deleted until commit. A
 * reference the write sets or changes must also name a record the writer may read: another
 * subject's record (owner rules) is missing to it, and a resource it may read none of is a 403
 * whatever the id, so no answer tells it whether a record it may not see exists. A value left as
 * it was is only checked to exist: the writer did not choose it, so it learns nothing from it.
 */
function* checkReferences(tx: WriteTransaction, resource: ResourceDefinition, data: Record<string, unknown>, readable?: ReadableRecords, previous?: Record<string, unknown>): Flow<void> {
  for (const f of resource.fields) {
    const value = data[f.name];
    if (f.type !== 'reference' || !f.to || value === null || value === undefined) continue;
    const view = readable && (previous === undefined || previous[f.name] !== value) ? readable(f.to) : true;
    if (view === false) throw forbiddenReference(f);
    let query = tx.sql.selectFrom(f.to).select('id').where('id', '=', value);
    if (view !== true) query = query.where('_owner', '=', view);
    const found = yield* step(tx.rows(tx.forKeyShare(query).compile()));
    if (!found.length) throw missingReference(f, value);
  }
}

/** Completes the write's Idempotency-Key in its transaction, or aborts the write if the claim was taken over. */
function* markApplied(tx: WriteTransaction, resource: ResourceDefinition, mutation: Mutation, completion: IdempotencyCompletion | undefined, id?: RecordId): Flow<void> {
  if (!completion) return;
  const changed = yield* step(tx.run(markAppliedQuery(tx.sql, completion, { resource: resource.name, recordId: mutation.record?.id ?? id!, outcome: mutation.outcome })));
  if (changed === 0) throw claimLost(completion);
}
