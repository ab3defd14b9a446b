import type { Principal } from './principal.js';

/**
 * Recently verified tokens, so that signature checks and store lookups do not dominate request
 * cost. Entries live `ttlSeconds` at most (never past the credential's own expiry); the cache
 * holds at most `maxEntries`, dropping the oldest first. Only successes are cached.
 */
export class TokenCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();

  constructor(private readonly ttlSeconds: number, private readonly maxEntries = 10_000) {}

  get(token: string, now = Date.now()): Principal | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (hit.until > now) return hit.principal;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, principal: Principal, now = Date.now()): void {
    if (this.ttlSeconds <= 0) return;
    let until = now + this.ttlSeconds * 1000;
    if (principal.expiresAt !== undefined) until = Math.min(until, principal.expiresAt * 1000);
    if (until <= now) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { principal, until });
  }

  /** Forgets everything: after a revocation on this node, nothing revoked is served from memory. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
