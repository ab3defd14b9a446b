import type { FastifyBaseLogger } from 'fastify';
import { HitBatch } from '../store/hit-batch.js';
import { StoreFullError } from '../store/errors.js';
import type { HitCount, HitCounter } from '../store/hit-counter.js';

/** While the shared counter stays away, a reminder is logged this often (not a line per request). */
const REMIND_EVERY_MS = 60_000;

/** The shared rate-limit counter cannot be reached and the limiter fails closed: answer 503. */
export class RateLimitUnavailableError extends Error {
  constructor(where: string) {
    super(`the rate-limit counter (${where}) cannot be reached, and rate limits fail closed (auth.rateLimitFailOpen: false); retry shortly`);
    this.name = 'RateLimitUnavailableError';
  }
}

/**
 * The counter every node shares (database or Redis), batched per turn, with what to do when it is
 * away: `failOpen` callers count on their own node meanwhile, others refuse. Its outages are
 * logged as they start (a warning), at most once a minute while they last, and as they end.
 */
export class SharedCounts {
  /** Set once the app has a logger; lines are dropped before that. */
  log?: FastifyBaseLogger;
  private readonly batch: HitBatch;
  private down?: { since: number; failures: number; remindedAt: number };

  constructor(readonly counter: HitCounter, readonly failOpen: boolean) {
    this.batch = new HitBatch(counter);
  }

  /** Counts one hit; rejects (after noting the outage) when the counter does not answer. */
  async hit(policy: string, key: string, windowMs: number): Promise<HitCount> {
    try {
      const count = await this.batch.hit(policy, key, windowMs);
      if (this.down) this.recovered();
      return count;
    } catch (err) {
      this.failed(err);
      throw err;
    }
  }

  close(): Promise<void> {
    return this.counter.close?.() ?? Promise.resolve();
  }

  private failed(err: unknown): void {
    const now = Date.now();
    const reason = err instanceof Error ? err.message : String(err);
    const meanwhile = this.failOpen ? 'requests pass, each node counting its own' : 'rate-limited requests get 503';
    if (!this.down) {
      this.down = { since: now, failures: 1, remindedAt: now };
      // A full disk already has its warning (the storage watch's, once): this one only says what the limits do meanwhile.
      const level = err instanceof StoreFullError ? 'info' : 'warn';
      this.log?.[level]({ rateLimitStore: this.counter.where, err: reason }, `rate-limit counter unavailable (${this.counter.where}): ${reason}; ${meanwhile} until it is back`);
      return;
    }
    this.down.failures++;
    if (now - this.down.remindedAt < REMIND_EVERY_MS) return;
    this.down.remindedAt = now;
    this.log?.warn(
      { rateLimitStore: this.counter.where, err: reason, failures: this.down.failures },
      `rate-limit counter still unavailable (${this.counter.where}) after ${Math.round((now - this.down.since) / 1000)} s and ${this.down.failures} failed counts: ${reason}; ${meanwhile}`,
    );
  }

  private recovered(): void {
    const { since, failures } = this.down!;
    this.down = undefined;
    this.log?.info({ rateLimitStore: this.counter.where, failures }, `rate-limit counter available again (${this.counter.where}) after ${Math.round((Date.now() - since) / 1000)} s and ${failures} failed counts; limits hold for the cluster again`);
  }
}
