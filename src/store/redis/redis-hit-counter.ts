import { Redis } from 'ioredis';
import type { HitCount, HitCounter, Hits } from '../hit-counter.js';

/**
 * For each key i: adds ARGV[2i-1] hits and returns its count and the milliseconds its window has
 * left; the first hit of a window (no expiry yet) sets the expiry to ARGV[2i], so the window starts
 * there, on the server's clock. One script for the whole batch: one command, one round trip, and
 * no other client sees a count without its expiry.
 */
const COUNT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local c = redis.call('INCRBY', key, ARGV[2 * i - 1])
  local t = redis.call('PTTL', key)
  if t < 0 then
    redis.call('PEXPIRE', key, ARGV[2 * i])
    t = tonumber(ARGV[2 * i])
  end
  out[2 * i - 1] = c
  out[2 * i] = t
end
return out`;

/** A command that takes this long is taken for an outage (the limiter then fails open or closed). */
const COMMAND_TIMEOUT_MS = 1000;

type CountingRedis = Redis & { rwCountHits(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<number[]> };

/**
 * Rate-limit counters on a Redis server: one key per (policy, key) under `prefix`, expiring with
 * its window. A batch is one script call, so one round trip (the keys of a batch may fall in any
 * slot: this is for a single Redis server or a primary with replicas, not Redis Cluster). While the server is away commands fail
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
    // No fixed number of keys: each call says how many (a batch's).
    this.redis.defineCommand('rwCountHits', { lua: COUNT_SCRIPT });
    // Failures reach the callers of count(); the client's own 'error' events would otherwise be thrown.
    this.redis.on('error', () => undefined);
  }

  /** Connects, so the first requests do not find the client still connecting; resolves even if the server is away (counting then fails until it is back). */
  async connect(): Promise<void> {
    await this.redis.connect().catch(() => undefined);
  }

  async count(hits: readonly Hits[]): Promise<HitCount[]> {
    const keys = hits.map((h) => this.prefix + keyOf(h));
    const reply = await this.redis.rwCountHits(hits.length, ...keys, ...hits.flatMap((h) => [h.n, h.windowMs]));
    return hits.map((_, i) => ({ count: Number(reply[2 * i]), resetMs: Math.max(0, Number(reply[2 * i + 1])) }));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** Policy names and keys may hold any text; the NUL between them keeps ("a", "b:c") apart from ("a:b", "c"). */
function keyOf(h: Hits): string {
  return `rl:${h.policy}\u0000${h.key}`;
}
