import { randomBytes } from 'node:crypto';
import { uuidv7 } from 'uuidv7';
import { newUuid } from '../core/ids.js';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { ConflictError, ValidationError } from '../core/errors.js';
import { eventType, type ChangeAction } from '../core/events.js';
import { toPlain } from '../core/record.js';

/** Column values are converted by each engine's codec; this is its shape. */
export interface Codec {
  encode(field: FieldDefinition, value: unknown): unknown;
  decode(field: FieldDefinition, value: unknown): unknown;
}

/** A new random generation tag (see StoredRecord.gen). */
export function newGen(): string {
  return randomBytes(6).toString('base64url');
}

/**
 * The first generation of a record (version 1, a new generation tag). Without `id`, a uuid
 * resource gets a new UUID v7 and an integer resource leaves it to the engine's sequence.
 */
export function firstGeneration(resource: ResourceDefinition, data: Record<string, unknown>, now: string, owner: string | null, id?: RecordId) {
  return { id: id ?? (resource.idType === 'uuid' ? newUuid() : undefined), version: 1, gen: newGen(), createdAt: now, updatedAt: now, owner, data };
}

/** A new public event id. */
export function newEventId(): string {
  return `evt_${uuidv7().replaceAll('-', '')}`;
}

/** True when `id` has the shape of an event id: anything else names no event, and is not worth a query. */
export function isEventId(id: string): boolean {
  return /^evt_[0-9a-f]{32}$/.test(id);
}

/** Maps a table row to a StoredRecord. */
export function rowToRecord(resource: ResourceDefinition, row: Record<string, any>, codec: Codec): StoredRecord {
  const data: Record<string, unknown> = {};
  for (const f of resource.fields) data[f.name] = codec.decode(f, row[f.name]);
  return {
    id: resource.idType === 'integer' ? Number(row.id) : row.id,
    version: Number(row._version),
    gen: row._gen,
    createdAt: row._created_at,
    updatedAt: row._updated_at,
    owner: row._owner ?? null,
    data,
  };
}

/** The column values of a record, in field order, for INSERT and UPDATE. */
export function recordColumns(resource: ResourceDefinition, record: Omit<StoredRecord, 'id'> & { id?: RecordId }, codec: Codec): Record<string, unknown> {
  const cols: Record<string, unknown> = {
    _version: record.version,
    _gen: record.gen,
    _created_at: record.createdAt,
    _updated_at: record.updatedAt,
    _owner: record.owner,
  };
  if (record.id !== undefined) cols.id = record.id;
  for (const f of resource.fields) cols[f.name] = codec.encode(f, record.data[f.name]);
  return cols;
}

/** The event row a change writes, in the same transaction as the change. */
export function changeEvent(resource: ResourceDefinition, action: ChangeAction, record: StoredRecord, now: string) {
  return {
    id: newEventId(),
    type: eventType(resource.name, action),
    resource: resource.name,
    record_id: String(record.id),
    data: JSON.stringify(toPlain(record)),
    created_at: now,
    // Kept with the event so that owner rules apply to the log too.
    owner: record.owner,
  };
}

/** True when two field-data objects hold the same values (so a write would change nothing). */
export function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

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
