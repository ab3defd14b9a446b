/** A record id: a positive integer, or a UUID string, depending on the resource. */
export type RecordId = number | string;

/** A record as stored: its declared fields plus the server-managed ones. */
export interface StoredRecord {
  id: RecordId;
  /** Starts at 1, +1 on every change. */
  version: number;
  /** Random per generation: a record deleted and re-created at the same id never repeats an ETag. */
  gen: string;
  createdAt: string;
  updatedAt: string;
  /** Subject that created the record (for `owner` access rules), if any. */
  owner: string | null;
  data: Record<string, unknown>;
}

/** Server-managed names that no declared field may use. */
export const SYSTEM_FIELDS = ['id', 'version', 'createdAt', 'updatedAt'] as const;

/** The strong entity tag of a record's current state. */
export function etagOf(record: Pick<StoredRecord, 'version' | 'gen'>): string {
  return `"${record.version}.${record.gen}"`;
}

/**
 * The plain JSON representation (no links): what events carry and what HAL decorates. Members are
 * added one by one rather than spread: every write and every record of a list page builds one, and
 * spreading cost more than serializing the result; objects built in one order also share one shape,
 * which JSON.stringify walks faster.
 */
export function toPlain(record: StoredRecord): Record<string, unknown> {
  const plain: Record<string, unknown> = { id: record.id };
  // Field names start with a letter (config schema), so none is `__proto__` or a system member.
  for (const name of Object.keys(record.data)) plain[name] = record.data[name];
  plain.version = record.version;
  plain.createdAt = record.createdAt;
  plain.updatedAt = record.updatedAt;
  return plain;
}
