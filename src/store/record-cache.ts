import type { RecordId, StoredRecord } from '../core/record.js';
import { StampedCache } from './stamped-cache.js';

/**
 * Records read by id, kept until the next commit anywhere (see StampedCache), at most `maxEntries`.
 * Cached records are shared by every request that reads them until then, so callers must treat them
 * as read-only (they are frozen to make that so).
 */
export class RecordCache {
  private readonly cache: StampedCache<StoredRecord>;

  constructor(maxEntries = 10_000) {
    this.cache = new StampedCache(maxEntries, () => 1);
  }

  /** The record cached under `stamp`, or undefined (then read it and `set` it under the same stamp). */
  get(resource: string, id: RecordId, stamp: number): StoredRecord | undefined {
    return this.cache.get(key(resource, id), stamp);
  }

  /** Keeps a record read under `stamp`; one read under an older stamp is not kept. */
  set(resource: string, id: RecordId, stamp: number, record: StoredRecord): void {
    Object.freeze(record.data);
    this.cache.set(key(resource, id), stamp, Object.freeze(record));
  }
}

// Resource names are identifiers (no spaces), so the pair cannot be ambiguous.
function key(resource: string, id: RecordId): string {
  return `${resource} ${id}`;
}
