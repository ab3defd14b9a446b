/**
 * Hits to count against one (policy, key): `n` of them, in a window of `windowMs` that starts at
 * the key's first hit (as the in-memory limiter's windows do) and is timed by the shared store's
 * own clock, so nodes whose clocks differ still agree on when it ends.
 */
export interface Hits {
  policy: string;
  key: string;
  n: number;
  windowMs: number;
}

/** A key's count in its current window once the hits were added, and the time that window has left. */
export interface HitCount {
  count: number;
  resetMs: number;
}

/**
 * A counter every node of a cluster shares (a PostgreSQL table, a Redis server). One call is one
 * round trip whatever the number of keys; the keys of one call are distinct. Rejects when the
 * shared store does not answer (the caller decides whether to fail open or closed).
 */
export interface HitCounter {
  /** Adds each entry's hits; resolves the counts in the order of `hits`. */
  count(hits: readonly Hits[]): Promise<HitCount[]>;
  /** Where the counts are kept, for log lines and problem details (never a password). */
  readonly where: string;
  /** Releases what the counter holds of its own (a Redis connection); the store's pool is the store's to close. */
  close?(): Promise<void>;
}
