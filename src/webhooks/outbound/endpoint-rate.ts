import type { SharedCounts } from '../../auth/shared-counts.js';
import type { EndpointRateLimit } from '../../store/outbox.js';

/** The policy name endpoint counts go under in the shared counter (resource names cannot hold a colon). */
const POLICY = 'outbound:endpoint';
/** Failing closed while the shared counter is away, a delivery is put back this long. */
const CLOSED_RETRY_MS = 5000;

/**
 * Per-endpoint rate limits: a fixed window per endpoint. A delivery over the limit is not sent but
 * given back, due when the window ends, so a slow receiver is never flooded. With shared counts
 * every dispatcher node counts in one window per endpoint, so N nodes together send at most the
 * endpoint's rate; without, each node counts its own. While the shared counter is away, a node
 * counts its own (fail open) or puts deliveries back for a few seconds (fail closed).
 */
export class EndpointRates {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly shared?: SharedCounts) {}

  /**
   * Counts a delivery to the endpoint now; returns when it may be sent instead, or undefined when it
   * may go now (a promise of that where the count is shared).
   */
  take(endpointId: string, limit: EndpointRateLimit | null, now: number): number | undefined | Promise<number | undefined> {
    if (!limit) return undefined;
    if (this.shared) return this.takeShared(this.shared, endpointId, limit, now);
    return this.takeLocal(endpointId, limit, now);
  }

  private async takeShared(shared: SharedCounts, endpointId: string, limit: EndpointRateLimit, now: number): Promise<number | undefined> {
    try {
      const { count, resetMs } = await shared.hit(POLICY, endpointId, limit.windowMs);
      return count <= limit.limit ? undefined : now + Math.max(1, resetMs);
    } catch {
      return shared.failOpen ? this.takeLocal(endpointId, limit, now) : now + CLOSED_RETRY_MS;
    }
  }

  private takeLocal(endpointId: string, limit: EndpointRateLimit, now: number): number | undefined {
    let w = this.windows.get(endpointId);
    if (!w || now >= w.start + limit.windowMs) {
      // Windows of endpoints idle for a while go, so the map stays as large as the endpoints in use.
      if (this.windows.size > 10_000) this.sweep(now, limit.windowMs);
      w = { start: now, count: 0 };
      this.windows.set(endpointId, w);
    }
    if (w.count >= limit.limit) return w.start + limit.windowMs;
    w.count++;
    return undefined;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [id, w] of this.windows) if (now >= w.start + windowMs) this.windows.delete(id);
  }
}
