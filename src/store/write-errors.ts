import { ConflictError, ValidationError } from '../core/errors.js';
import type { RecordId } from '../core/record.js';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import type { Statements } from './statements.js';

/** The 422 for a reference field pointing at a record that does not exist. */
export function missingReference(field: FieldDefinition, value: unknown): ValidationError {
  return new ValidationError([{ pointer: `/${field.name}`, detail: `no ${field.to} record has id ${JSON.stringify(value)}` }]);
}

/** The 409 for a unique field whose value another record already holds. */
export function uniqueConflict(resource: ResourceDefinition, field: string, value: unknown, holder?: RecordId): ConflictError {
  const by = holder === undefined ? 'another record' : `/${resource.name}/${holder}`;
  return new ConflictError('unique-violation', `${field} ${JSON.stringify(value)} is already used by ${by}`, {
    errors: [{ pointer: `/${field}`, detail: `must be unique; ${JSON.stringify(value)} is taken` }],
  });
}

/** The 409 for deleting a record that others still reference. */
export function referencedConflict(resource: ResourceDefinition, id: RecordId): ConflictError {
  return new ConflictError('reference-conflict', `/${resource.name}/${id} is still referenced by other records; delete or change those first`);
}

/** The record other than `id` holding `value` in a unique field, found after a write was refused for it. */
export function* uniqueHolder(s: Statements, resource: ResourceDefinition, field: FieldDefinition, value: unknown, id: RecordId | undefined): Flow<RecordId | undefined> {
  const query = s.sql.selectFrom(resource.name).select('id').where(field.name, '=', s.codec.encode(field, value)).where('id', 'is distinct from', id ?? null);
  const [holder] = yield* step(s.rows(query.compile()));
  if (!holder) return undefined;
  return resource.idType === 'integer' ? Number(holder.id) : holder.id;
}
