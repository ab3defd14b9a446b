import { ConflictError } from '../core/errors.js';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import { claimLost, markAppliedQuery, type IdempotencyCompletion } from './idempotency.js';
import { changeEvent, firstGeneration, recordColumns, rowToRecord, sameData } from './records.js';
import { forbiddenReference, missingReference } from './write-errors.js';
import type { RecordToWrite, WriteTransaction } from './statements.js';
import type { Decide, Dependents, Mutation, ReadableRecords, WriteOptions } from './store.js';
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

/**
 * What a mutation does to the record `decide` was shown: nothing (`unchanged`, with the record as
 * it is), delete it, create it at `id`, or update it to `next`. Pure, so an engine that decides on
 * a committed read and writes only if the record is still the one it read (see Engine.mutateRecord)
 * decides exactly as a transaction holding the row locked does.
 */
export type MutationPlan =
  | { kind: 'unchanged'; record?: StoredRecord }
  | { kind: 'delete'; record: StoredRecord }
  | { kind: 'create'; record: RecordToWrite }
  | { kind: 'update'; record: RecordToWrite; current: StoredRecord };

/** Asks `decide` about `current` and says what to write (see MutationPlan); `now` stamps a change. */
export function planMutation(resource: ResourceDefinition, id: RecordId, current: StoredRecord | undefined, decide: Decide, options: WriteOptions, now: string): MutationPlan {
  const decision = decide(current);
  if ('keep' in decision) return { kind: 'unchanged', record: current };
  if ('delete' in decision) return current ? { kind: 'delete', record: current } : { kind: 'unchanged' };
  if (!current) return { kind: 'create', record: firstGeneration(resource, decision.put, now, options.owner ?? null, id) };
  if (sameData(current.data, decision.put)) return { kind: 'unchanged', record: current };
  return { kind: 'update', record: { ...current, version: current.version + 1, updatedAt: now, data: decision.put }, current };
}

function* decideAndWrite(tx: WriteTransaction, resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Flow<Mutation> {
  const [row] = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom(resource.name).selectAll().where('id', '=', id)).compile()));
  const current = row ? rowToRecord(resource, row, tx.codec) : undefined;
  const now = new Date().toISOString();
  const plan = planMutation(resource, id, current, decide, options, now);
  switch (plan.kind) {
    case 'unchanged':
      return { outcome: 'unchanged', record: plan.record };
    case 'delete':
      if (options.cascade) yield* deleteDependents(tx, resource, plan.record, options.cascade, now, new Set([`${resource.name}/${plan.record.id}`]));
      yield* deleteRow(tx, resource, plan.record, now);
      return { outcome: 'deleted', record: plan.record };
    case 'create':
      return { outcome: 'created', record: yield* writeRecord(tx, resource, 'insert', plan.record, now, options.readable) };
    case 'update':
      return { outcome: 'updated', record: yield* writeRecord(tx, resource, 'update', plan.record, now, options.readable, plan.current.data) };
  }
}

function* deleteRow(tx: WriteTransaction, resource: ResourceDefinition, record: StoredRecord, now: string): Flow<void> {
  yield* step(tx.writeRow({ resource, how: 'delete', record }, tx.sql.deleteFrom(resource.name).where('id', '=', record.id).compile()));
  yield* step(tx.appendEvents([changeEvent(resource, 'deleted', record, now)]));
}

/** The most records one cascading delete removes besides its own: past it, the delete is refused whole. */
const MAX_CASCADE = 10_000;

/**
 * Deletes, depth first, the records that reference `record` through the `cascade` fields, each with
 * its `deleted` event, before `record` itself goes (so no foreign key ever dangles). `seen` holds
 * every record on the way, so references that loop end.
 */
function* deleteDependents(tx: WriteTransaction, resource: ResourceDefinition, record: StoredRecord, cascade: Dependents, now: string, seen: Set<string>): Flow<void> {
  for (const { resource: child, field } of cascade(resource)) {
    const def = child.fieldsByName.get(field)!;
    const rows = yield* step(tx.rows(tx.forUpdate(tx.sql.selectFrom(child.name).selectAll().where(field, '=', tx.codec.encode(def, record.id))).compile()));
    for (const row of rows) {
      const dependent = rowToRecord(child, row, tx.codec);
      const key = `${child.name}/${dependent.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (seen.size > MAX_CASCADE + 1) throw new ConflictError('reference-conflict', `deleting /${resource.name}/${record.id} would delete more than ${MAX_CASCADE} records that depend on it; delete some of them first`);
      yield* deleteDependents(tx, child, dependent, cascade, now, seen);
      yield* deleteRow(tx, child, dependent, now);
    }
  }
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
  yield* step(tx.appendEvents([changeEvent(resource, how === 'insert' ? 'created' : 'updated', saved, now)]));
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
