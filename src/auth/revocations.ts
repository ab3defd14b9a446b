import type { Store } from '../store/store.js';
import { REVOKED_JTI_KIND } from './access-tokens.js';
import { API_KEY_KIND } from './api-keys.js';
import { OAUTH_CLIENT_KIND } from './oauth-clients.js';
import type { Principal } from './principal.js';
import type { TokenCache } from './token-cache.js';

const NONE: ReadonlySet<string> = new Set();

/**
 * Where revocations meet what credentials hold open. A request is checked once, when it arrives;
 * a connection that stays open (an event stream) was checked only then, so whoever holds one asks
 * here again: `findRevoked` tells, for many principals in a few queries, which no longer stand
 * (API key deleted or expired, access token revoked, its OAuth client deleted), from the store, so
 * a revocation made on any node, or by the CLI in another process, is seen. `revoked()` is said
 * after a revocation on this node, so holders check at once instead of at their next round.
 */
export class Revocations {
  private readonly listeners = new Set<() => void>();
  private made = 0;

  constructor(
    private readonly store: Store,
    private readonly cache: TokenCache,
  ) {}

  /** True when this server can revoke the principal's credential (tokens of external issuers only expire). */
  revocable(principal: Principal): boolean {
    return (principal.via === 'api-key' && principal.keyHash !== undefined) || (principal.via === 'access-token' && principal.tokenId !== undefined);
  }

  /** Calls `listener` after each revocation on this node; returns the function that stops the calls. */
  onRevoked(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many revocations this node has made: a holder that read it before it began to watch can tell one came meanwhile. */
  get count(): number {
    return this.made;
  }

  /** A credential was revoked on this node: nothing revoked is served from memory, and holders check now. */
  revoked(): void {
    this.made += 1;
    this.cache.clear();
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * The principals among `principals` whose credential no longer stands, each with why, in at most
   * one query per kind of credential (a few hundred ids a query). Finding one also empties the
   * verified-token cache, so this node stops taking the credential for requests at once too.
   */
  async findRevoked(principals: Iterable<Principal>): Promise<Map<Principal, string>> {
    const keys = new Set<string>();
    const tokens = new Set<string>();
    const clients = new Set<string>();
    const asked = [...principals].filter((p) => this.revocable(p));
    for (const p of asked) {
      if (p.via === 'api-key') keys.add(p.keyHash!);
      else {
        tokens.add(p.tokenId!);
        if (p.clientId !== undefined) clients.add(p.clientId);
      }
    }
    const live = (kind: string, ids: Set<string>) => (ids.size ? this.store.liveDocumentIds(kind, ids) : Promise.resolve(NONE));
    const [liveKeys, revokedTokens, liveClients] = await Promise.all([live(API_KEY_KIND, keys), live(REVOKED_JTI_KIND, tokens), live(OAUTH_CLIENT_KIND, clients)]);
    const found = new Map<Principal, string>();
    for (const p of asked) {
      if (p.via === 'api-key') {
        if (!liveKeys.has(p.keyHash!)) found.set(p, 'the API key was revoked or expired');
      } else if (revokedTokens.has(p.tokenId!)) found.set(p, 'the access token was revoked');
      else if (p.clientId !== undefined && !liveClients.has(p.clientId)) found.set(p, 'the OAuth client the access token was issued to was deleted');
    }
    if (found.size) this.cache.clear();
    return found;
  }
}
