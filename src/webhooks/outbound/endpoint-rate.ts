import type { EndpointRateLimit } from '../../store/outbox.js';

/**
 * Per-endpoint rate limits of one node: a fixed window per endpoint. A delivery over the limit is
 * not sent but given back, due when the window ends, so a slow receiver is never flooded.
 */
export class EndpointRates {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts a delivery to the endpoint now; returns when it may be sent instead, or undefined when it may go now. */
  take(endpointId: string, limit: EndpointRateLimit | null, now: number): number | undefined {
    if (!limit) return undefined;
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
