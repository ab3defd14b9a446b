import { ConflictError, DomainError, ValidationError } from '../core/errors.js';
import type { RecordId } from '../core/record.js';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import type { Statements } from './statements.js';
import type { ReadableRecords } from './store.js';

/** The 422 for a reference field pointing at a record that does not exist. */
export function missingReference(field: FieldDefinition, value: unknown): ValidationError {
  return new ValidationError([{ pointer: `/${field.name}`, detail: `no ${field.to} record has id ${JSON.stringify(value)}` }]);
}

/** The 403 for a reference into a resource the writer may read none of: the same whether or not the record exists. */
export function forbiddenReference(field: FieldDefinition): DomainError {
  return new DomainError(
    'reference-forbidden',
    `${field.name} refers to ${field.to} records, which this request may not read, so it may not set one (whether or not that record exists); leave ${field.name} out or unchanged, or send a token that may read ${field.to}`,
  );
}

/** The record holding a unique value: its owner says whether the writer may be told which it is. */
export interface Holder {
  id: RecordId;
  owner: string | null;
}

/** The 409 for a unique field whose value another record already holds, naming that record when it is known. */
export class UniqueConflict extends ConflictError {
  constructor(readonly resource: ResourceDefinition, readonly field: string, readonly value: unknown, readonly holder?: Holder) {
    const by = holder === undefined ? 'another record' : `/${resource.name}/${holder.id}`;
    super('unique-violation', `${field} ${JSON.stringify(value)} is already used by ${by}`, {
      errors: [{ pointer: `/${field}`, detail: `must be unique; ${JSON.stringify(value)} is taken` }],
    });
  }
}

/** The 409 for a unique field whose value another record already holds. */
export function uniqueConflict(resource: ResourceDefinition, field: string, value: unknown, holder?: Holder): UniqueConflict {
  return new UniqueConflict(resource, field, value, holder);
}

/** True when a writer whose view of a resource is `view` (see ReadableRecords) may read a record owned by `owner`. */
export function mayReadOwned(view: boolean | string, owner: string | null): boolean {
  return view === true || (view !== false && owner === view);
}

/**
 * A failed write's error as the writer may see it: a unique clash names its holder only when the
 * writer may read that record (another subject's record under an `owner` rule, or any record of
 * a resource it may not read, is "another record"), so the 409 never tells that a record exists.
 */
export function seenBy(err: unknown, readable: ReadableRecords | undefined): unknown {
  if (!(err instanceof UniqueConflict) || !err.holder || !readable) return err;
  return mayReadOwned(readable(err.resource.name), err.holder.owner) ? err : uniqueConflict(err.resource, err.field, err.value);
}

/** The 409 for deleting a record that others still reference. */
export function referencedConflict(resource: ResourceDefinition, id: RecordId): ConflictError {
  return new ConflictError('reference-conflict', `/${resource.name}/${id} is still referenced by other records; delete or change those first`);
}

/** The record other than `id` holding `value` in a unique field, found after a write was refused for it. */
export function* uniqueHolder(s: Statements, resource: ResourceDefinition, field: FieldDefinition, value: unknown, id: RecordId | undefined): Flow<Holder | undefined> {
  const query = s.sql.selectFrom(resource.name).select(['id', '_owner']).where(field.name, '=', s.codec.encode(field, value)).where('id', 'is distinct from', id ?? null);
  const [holder] = yield* step(s.rows(query.compile()));
  if (!holder) return undefined;
  return { id: resource.idType === 'integer' ? Number(holder.id) : holder.id, owner: holder._owner ?? null };
}
