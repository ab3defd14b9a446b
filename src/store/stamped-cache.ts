/**
 * Values kept only while the database is known not to have changed since they were read: every
 * entry belongs to one commit stamp (Engine.commitStamp), and the first lookup under another stamp
 * drops them all. Coarse on purpose: any commit anywhere empties it, so a value can never be older
 * than the last commit its reader could have seen. Bounded by the total weight of what it holds
 * (`weigh`), oldest dropped first. The record cache and the page cache are this one rule.
 */
export class StampedCache<V> {
  private stamp: number | undefined;
  private readonly entries = new Map<string, V>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
  ) {}

  /** The value kept under `key` and `stamp`, or undefined (then read it and `set` it under the same stamp). */
  get(key: string, stamp: number): V | undefined {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.weight = 0;
      this.stamp = stamp;
      return undefined;
    }
    return this.entries.get(key);
  }

  /** Keeps a value read under `stamp`; one read under an older stamp, or a second read of a key, is not kept. */
  set(key: string, stamp: number, value: V): void {
    if (stamp !== this.stamp || this.entries.has(key)) return;
    const weight = this.weigh(value);
    for (const [oldest, dropped] of this.entries) {
      if (this.weight + weight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.weight -= this.weigh(dropped);
    }
    this.entries.set(key, value);
    this.weight += weight;
  }
}
