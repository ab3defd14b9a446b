import { Redis } from 'ioredis';
import type { HitCount, HitCounter, Hits } from '../hit-counter.js';

/**
 * Adds ARGV[1] hits to a key and returns its count and the milliseconds its window has left; the
 * first hit of a window (no expiry yet) sets the expiry, so the window starts there, on the
 * server's clock. One script, so no other client sees the count without its expiry.
 */
const COUNT_SCRIPT = `
local c = redis.call('INCRBY', KEYS[1], ARGV[1])
local t = redis.call('PTTL', KEYS[1])
if t < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  t = tonumber(ARGV[2])
end
return {c, t}`;

/** A command that takes this long is taken for an outage (the limiter then fails open or closed). */
const COMMAND_TIMEOUT_MS = 1000;

type CountingRedis = Redis & { rwCountHits(key: string, n: number, windowMs: number): Promise<[number, number]> };

/**
 * Rate-limit counters on a Redis server: one key per (policy, key) under `prefix`, expiring with
 * its window. A batch is one pipeline, so one round trip. While the server is away commands fail
 * at once (no offline queue) rather than hold requests; the client reconnects in the background.
 */
export class RedisHitCounter implements HitCounter {
  readonly where: string;
  private readonly redis: CountingRedis;

  constructor(url: string, private readonly prefix: string) {
    const parsed = new URL(url);
    this.where = `Redis at ${parsed.host}`;
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      // Reconnect soon after an outage, without hammering a server that stays away.
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: true,
    }) as CountingRedis;
    this.redis.defineCommand('rwCountHits', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    // Failures reach the callers of count(); the client's own 'error' events would otherwise be thrown.
    this.redis.on('error', () => undefined);
  }

  /** Connects, so the first requests do not find the client still connecting; resolves even if the server is away (counting then fails until it is back). */
  async connect(): Promise<void> {
    await this.redis.connect().catch(() => undefined);
  }

  async count(hits: readonly Hits[]): Promise<HitCount[]> {
    if (hits.length === 1) {
      const h = hits[0];
      return [toCount(await this.redis.rwCountHits(this.prefix + keyOf(h), h.n, h.windowMs))];
    }
    const pipeline = this.redis.pipeline() as unknown as { rwCountHits(key: string, n: number, windowMs: number): void; exec(): Promise<Array<[Error | null, unknown]> | null> };
    for (const h of hits) pipeline.rwCountHits(this.prefix + keyOf(h), h.n, h.windowMs);
    const results = (await pipeline.exec()) ?? [];
    return results.map(([err, reply]) => {
      if (err) throw err;
      return toCount(reply as [number, number]);
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** Policy names and keys may hold any text; the NUL between them keeps ("a", "b:c") apart from ("a:b", "c"). */
function keyOf(h: Hits): string {
  return `rl:${h.policy}\u0000${h.key}`;
}

function toCount([count, ttl]: [number, number]): HitCount {
  return { count: Number(count), resetMs: Math.max(0, Number(ttl)) };
}
