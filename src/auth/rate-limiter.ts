import type { RateLimitPolicy } from './auth-config.js';

/** The state of one bucket after a request was counted. */
export interface RateLimitResult {
  allowed: boolean;
  policy: RateLimitPolicy;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed-window request counting per (policy, key), in memory: each node counts on its own, so
 * with N nodes behind a balancer a client may get up to N times the limit. Windows start at a
 * key's first request. Memory is bounded: finished windows are swept when the map grows large.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly maxKeys = 100_000) {}

  /** Counts one request and says whether it is within the limit. */
  hit(policy: RateLimitPolicy, key: string, now = Date.now()): RateLimitResult {
    const id = `${policy.name}\u0000${key}`;
    const windowMs = policy.windowSeconds * 1000;
    let w = this.windows.get(id);
    if (!w || now - w.start >= windowMs) {
      if (!w && this.windows.size >= this.maxKeys) this.sweep(now, windowMs);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    return { allowed: w.count <= policy.limit, policy, remaining: Math.max(0, policy.limit - w.count), resetSeconds };
  }

  private sweep(now: number, windowMs: number): void {
    for (const [id, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(id);
    // Still full of live windows: drop the oldest rather than grow without bound.
    for (const id of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(id);
    }
  }
}

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers-08 (structured fields):
 * `RateLimit-Policy: "default";q=100;w=60` and `RateLimit: "default";r=42;t=17`.
 */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const name = JSON.stringify(result.policy.name);
  return {
    'ratelimit-policy': `${name};q=${result.policy.limit};w=${result.policy.windowSeconds}`,
    ratelimit: `${name};r=${result.remaining};t=${result.resetSeconds}`,
  };
}
