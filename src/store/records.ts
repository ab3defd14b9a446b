import { randomBytes } from 'node:crypto';
import { newUuid, newUuidHex } from '../core/ids.js';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { eventType, type ChangeAction } from '../core/events.js';
import { toPlain } from '../core/record.js';

/** Column values are converted by each engine's codec; this is its shape. */
export interface Codec {
  encode(field: FieldDefinition, value: unknown): unknown;
  decode(field: FieldDefinition, value: unknown): unknown;
}

/** Random bytes for generation tags, drawn from the CSPRNG many tags at a time. */
let genPool = Buffer.alloc(0);
let genAt = 0;

/**
 * A new random generation tag (see StoredRecord.gen): 6 random bytes, base64url. Every write
 * needs one, and a call into the CSPRNG per write cost more than the rest of building the record,
 * so the bytes come from a pool refilled 1,024 tags at a time (what crypto.randomUUID does too).
 */
export function newGen(): string {
  if (genAt + 6 > genPool.length) {
    genPool = randomBytes(6 * 1024);
    genAt = 0;
  }
  genAt += 6;
  return genPool.toString('base64url', genAt - 6, genAt);
}

/**
 * The first generation of a record (version 1, a new generation tag). Without `id`, a uuid
 * resource gets a new UUID v7 and an integer resource leaves it to the engine's sequence.
 */
export function firstGeneration(resource: ResourceDefinition, data: Record<string, unknown>, now: string, owner: string | null, id?: RecordId) {
  return { id: id ?? (resource.idType !== 'integer' ? newUuid() : undefined), version: 1, gen: newGen(), createdAt: now, updatedAt: now, owner, data };
}

/** A new public event id. */
export function newEventId(): string {
  return `evt_${newUuidHex()}`;
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

/** The columns of a resource's table that rowToRecord reads: the server-managed ones, then the fields. */
export function recordColumnNames(resource: ResourceDefinition): string[] {
  return ['id', '_version', '_gen', '_created_at', '_updated_at', '_owner', ...resource.fields.map((f) => f.name)];
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

/** A row of the event log, as every engine writes it (JSON as text). */
export interface EventRow {
  id: string;
  type: string;
  resource: string;
  record_id: string;
  data: string;
  created_at: string;
  /** Kept with the event so that owner rules apply to the log too. */
  owner: string | null;
}

/** The event row a change writes, in the same transaction as the change. */
export function changeEvent(resource: ResourceDefinition, action: ChangeAction, record: StoredRecord, now: string): EventRow {
  return {
    id: newEventId(),
    type: eventType(resource.name, action),
    resource: resource.name,
    record_id: String(record.id),
    data: JSON.stringify(toPlain(record)),
    created_at: now,
    owner: record.owner,
  };
}

/** True when two field-data objects hold the same values (so a write would change nothing). */
export function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
