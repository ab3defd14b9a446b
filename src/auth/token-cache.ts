import type { Principal } from './principal.js';

/**
 * How much of a key the map hashes. A key is an Authorization header of up to a kilobyte (a JWT), a
 * new string on every request, and hashing all of it cost a JWT request ~3 µs; its end (a JWT's
 * signature, the random part of an API key) tells tokens apart as well, and a hit is confirmed on the
 * whole key (two keys sharing an end only take each other's place).
 */
const TAIL = 64;

const tail = (key: string) => (key.length > TAIL ? key.slice(-TAIL) : key);

/**
 * Recently verified tokens, so that signature checks and store lookups do not dominate request
 * cost. Entries live `ttlSeconds` at most (never past the credential's own expiry); the cache
 * holds at most `maxEntries`, dropping the oldest first. Only successes are cached.
 */
export class TokenCache {
  /** By the key's last {@link TAIL} characters; the entry holds the whole key, compared on every hit. */
  private readonly entries = new Map<string, { key: string; principal: Principal; until: number }>();

  constructor(private readonly ttlSeconds: number, private readonly maxEntries = 10_000) {}

  get(key: string, now = Date.now()): Principal | undefined {
    const hit = this.entries.get(tail(key));
    if (!hit || hit.key !== key) return undefined;
    if (hit.until > now) return hit.principal;
    this.entries.delete(tail(key));
    return undefined;
  }

  set(key: string, principal: Principal, now = Date.now()): void {
    if (this.ttlSeconds <= 0) return;
    let until = now + this.ttlSeconds * 1000;
    if (principal.expiresAt !== undefined) until = Math.min(until, principal.expiresAt * 1000);
    if (until <= now) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tail(key), { key, principal, until });
  }

  /** Forgets everything: after a revocation on this node, nothing revoked is served from memory. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
