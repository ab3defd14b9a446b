import type { HitCount, HitCounter } from './hit-counter.js';

interface Pending {
  policy: string;
  key: string;
  windowMs: number;
  waiters: Array<{ resolve: (count: HitCount) => void; reject: (err: unknown) => void }>;
}

/**
 * Single hits gathered into batches: the hits of one turn of the event loop (every request whose
 * bytes arrived together) go to the counter as one call, one round trip, however many keys they
 * touch; hits on one key are summed. At most `maxInFlight` calls are out at once, and hits that
 * arrive meanwhile wait for the next batch, so under load batches grow instead of round trips.
 * The count is exact: the i-th of n hits summed into a total T is told T - n + i (from 1).
 */
export class HitBatch {
  private pending = new Map<string, Pending>();
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly counter: HitCounter, private readonly maxInFlight = 4) {}

  /** Counts one hit; resolves its place in the window's count. Rejects as the counter does. */
  hit(policy: string, key: string, windowMs: number): Promise<HitCount> {
    return new Promise((resolve, reject) => {
      const id = `${policy}\u0000${key}`;
      let p = this.pending.get(id);
      if (!p) {
        p = { policy, key, windowMs, waiters: [] };
        this.pending.set(id, p);
      }
      p.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.pending.size) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.inFlight++;
    this.counter
      .count(batch.map((p) => ({ policy: p.policy, key: p.key, n: p.waiters.length, windowMs: p.windowMs })))
      .then(
        (counts) =>
          batch.forEach((p, i) => {
            const first = counts[i].count - p.waiters.length + 1;
            p.waiters.forEach((w, j) => w.resolve({ count: first + j, resetMs: counts[i].resetMs }));
          }),
        (err) => batch.forEach((p) => p.waiters.forEach((w) => w.reject(err))),
      )
      .finally(() => {
        this.inFlight--;
        if (this.pending.size) this.schedule();
      });
  }
}
