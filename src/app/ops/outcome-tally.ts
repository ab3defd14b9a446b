/** What a {@link OutcomeTally} holds for one key: counts since start, never reset. */
export interface TallyCounts {
  /** Every outcome counted. */
  count: number;
  /** Those that succeeded. */
  ok: number;
  /** Per-bucket (not cumulative) counts of the seconds taken, one more than the bounds (the last is +Inf). */
  buckets: number[];
}

/**
 * Successes and latencies per key (an inbound source, an outbound endpoint id), kept as plain
 * numbers for the dashboard's sparklines: a count costs a Map lookup, two additions and a bucket
 * search. At most `maxKeys` keys are kept (endpoints are rows that come and go): a new key past
 * the cap is not counted, so a flood of made-up keys cannot grow memory.
 */
export class OutcomeTally {
  private readonly keys = new Map<string, TallyCounts>();

  constructor(
    private readonly bounds: readonly number[],
    private readonly maxKeys = 1000,
  ) {}

  /** Counts one outcome of `key` that took `seconds`. */
  count(key: string, ok: boolean, seconds: number): void {
    let t = this.keys.get(key);
    if (!t) {
      if (this.keys.size >= this.maxKeys) return;
      this.keys.set(key, (t = { count: 0, ok: 0, buckets: new Array(this.bounds.length + 1).fill(0) }));
    }
    t.count++;
    if (ok) t.ok++;
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    t.buckets[i]!++;
  }

  /** A copy of every key's counts, to be compared with a later copy. */
  snapshot(): Map<string, TallyCounts> {
    const copy = new Map<string, TallyCounts>();
    for (const [k, t] of this.keys) copy.set(k, { count: t.count, ok: t.ok, buckets: [...t.buckets] });
    return copy;
  }
}
