import type { RecordId, StoredRecord } from '../core/record.js';

/**
 * Records read by id, kept only while the database is known not to have changed since: every
 * entry belongs to one commit stamp (Engine.commitStamp), and the first lookup under another stamp
 * drops them all. Coarse on purpose: any commit anywhere empties it, so a read can never be older
 * than the last commit it could have seen. Bounded by `maxEntries`, oldest dropped first.
 *
 * Cached records are shared by every request that reads them until the next commit, so callers
 * must treat them as read-only (they are frozen to make that so).
 */
export class RecordCache {
  private stamp: number | undefined;
  private readonly entries = new Map<string, StoredRecord>();

  constructor(private readonly maxEntries = 10_000) {}

  /** The record cached under `stamp`, or undefined (then read it and `set` it under the same stamp). */
  get(resource: string, id: RecordId, stamp: number): StoredRecord | undefined {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
      return undefined;
    }
    return this.entries.get(key(resource, id));
  }

  /** Keeps a record read under `stamp`; one read under an older stamp is not kept. */
  set(resource: string, id: RecordId, stamp: number, record: StoredRecord): void {
    if (stamp !== this.stamp) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    Object.freeze(record.data);
    this.entries.set(key(resource, id), Object.freeze(record));
  }
}

// Resource names are identifiers (no spaces), so the pair cannot be ambiguous.
function key(resource: string, id: RecordId): string {
  return `${resource} ${id}`;
}
