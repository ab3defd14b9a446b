import type { RateLimitPolicy } from './auth-config.js';
import { RateLimiter, type RateLimitResult } from './rate-limiter.js';
import { RateLimitUnavailableError, type SharedCounts } from './shared-counts.js';

/**
 * The limiter of `auth.rateLimit`: with shared counts, one count per (policy, key) for the whole
 * cluster, so a limit of 100 is 100 whichever node each request lands on; without, this node's
 * own memory (the SQLite default). When the shared counter is away it counts on this node
 * (fail open) or throws RateLimitUnavailableError (fail closed).
 */
export class ClusterRateLimiter {
  private readonly local = new RateLimiter();

  constructor(readonly shared?: SharedCounts) {}

  /** Counts one request; a result at once when counting in memory, a promise when the count is shared. */
  hit(policy: RateLimitPolicy, key: string): RateLimitResult | Promise<RateLimitResult> {
    if (!this.shared) return this.local.hit(policy, key);
    return this.sharedHit(this.shared, policy, key);
  }

  private async sharedHit(shared: SharedCounts, policy: RateLimitPolicy, key: string): Promise<RateLimitResult> {
    let count: number, resetMs: number;
    try {
      ({ count, resetMs } = await shared.hit(policy.name, key, policy.windowSeconds * 1000));
    } catch {
      if (shared.failOpen) return this.local.hit(policy, key);
      throw new RateLimitUnavailableError(shared.counter.where);
    }
    return {
      allowed: count <= policy.limit,
      policy,
      remaining: Math.max(0, policy.limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }
}
