import { ConfigError } from '../config/load.js';
import type { Store } from '../store/store.js';
import type { AuthSettings } from './auth-config.js';
import { SharedCounts } from './shared-counts.js';

/**
 * The shared counts `auth.rateLimitStore` names, or undefined to count in memory: `redis` opens a
 * client (loaded only then) and connects; `database` is the store's own counter; left unset, the
 * store's counter where it has one (a database shared by nodes), so a cluster on PostgreSQL holds
 * its limits with no extra config. A `database` choice the store cannot keep is a ConfigError.
 */
export async function openSharedCounts(settings: AuthSettings, store: Store, origin = 'config'): Promise<SharedCounts | undefined> {
  const choice = settings.rateLimitStore ?? (store.hitCounter ? 'database' : 'memory');
  if (choice === 'memory') return undefined;
  if (choice === 'database') {
    if (!store.hitCounter) {
      throw new ConfigError(['auth.rateLimitStore: database needs a database that keeps shared counters (PostgreSQL); on this one rate limits count in memory (the default here), or in redis'], origin);
    }
    return new SharedCounts(store.hitCounter, settings.rateLimitFailOpen);
  }
  const { RedisHitCounter } = await import('../store/redis/redis-hit-counter.js');
  const counter = new RedisHitCounter(settings.redis!.url, settings.redis!.keyPrefix);
  await counter.connect();
  return new SharedCounts(counter, settings.rateLimitFailOpen);
}
