import type { RestwellConfig } from '../config/types.js';
import type { Store } from '../store/store.js';
import { AccessTokens, type TokenAudience } from './access-tokens.js';
import { ApiKeys } from './api-keys.js';
import { resolveAuthSettings, type AuthSettings } from './auth-config.js';
import { authenticate } from './authenticator.js';
import { ExternalIssuers } from './external-issuers.js';
import { Keyring } from './keyring.js';
import { OAuthClients } from './oauth-clients.js';
import type { Principal } from './principal.js';
import { ClusterRateLimiter } from './cluster-rate-limiter.js';
import { Revocations } from './revocations.js';
import type { SharedCounts } from './shared-counts.js';
import { TokenCache } from './token-cache.js';

/** Slack on top of token lifetime before a retired signing key leaves the JWKS (clock skew, caches). */
const RETAIN_SLACK_SECONDS = 300;

/** The auth subsystem of one server: credentials, token issuing and checking, rate limits. */
export class AuthService {
  readonly settings: AuthSettings;
  readonly apiKeys: ApiKeys;
  readonly clients: OAuthClients;
  readonly keyring: Keyring;
  readonly tokens: AccessTokens;
  readonly external: ExternalIssuers;
  readonly cache: TokenCache;
  /** What open connections ask to learn that their credential was revoked, here or on another node. */
  readonly revocations: Revocations;
  /** Counts requests against `auth.rateLimit`: for the cluster with shared counts, else on this node. */
  readonly limiter: ClusterRateLimiter;
  private audienceAt?: { base: string; at: TokenAudience };

  /**
   * `settings` may be resolved beforehand, so a bad `auth` section is refused before the store opens.
   * `baseUrl` is the server's origin (fixed at start: publicUrl, else host and port), the default
   * `iss` and `aud`; commands that issue no tokens need none. `shared` are the counts the nodes
   * share (openSharedCounts); without them rate limits count in this process's memory.
   */
  constructor(
    config: RestwellConfig,
    store: Store,
    settings: AuthSettings = resolveAuthSettings(config),
    private readonly baseUrl: () => string = () => settings.issuer ?? 'http://localhost',
    shared?: SharedCounts,
  ) {
    this.settings = settings;
    this.limiter = new ClusterRateLimiter(shared);
    this.apiKeys = new ApiKeys(store);
    this.clients = new OAuthClients(store);
    this.keyring = new Keyring(store, {
      algorithm: this.settings.signingAlgorithm,
      lifetimeSeconds: this.settings.signingKeyLifetimeSeconds,
      retainSeconds: this.settings.tokenTtlSeconds + this.settings.cacheTtlSeconds + RETAIN_SLACK_SECONDS,
    });
    this.tokens = new AccessTokens(store, this.keyring, this.clients, this.settings.tokenTtlSeconds);
    this.external = new ExternalIssuers(this.settings.issuers);
    this.cache = new TokenCache(this.settings.cacheTtlSeconds);
    this.revocations = new Revocations(store, this.cache);
  }

  /** Loads (or, on first start, generates and stores) the signing key. */
  async start(): Promise<void> {
    await this.keyring.current();
  }

  /**
   * The `iss` and `aud` of the tokens this server issues and accepts: `auth.issuer` / `auth.audience`,
   * else the server's origin. The same for every request whatever its Host header, so a token
   * fetched through one name of the server (127.0.0.1) is good through any other (localhost).
   */
  audience(): TokenAudience {
    const base = this.baseUrl();
    // Asked on every authenticated request; the origin changes only once, when the server listens.
    if (this.audienceAt?.base !== base) {
      const issuer = this.settings.issuer ?? base;
      this.audienceAt = { base, at: Object.freeze({ issuer, audience: this.settings.audience ?? issuer }) };
    }
    return this.audienceAt.at;
  }

  /** The principal an Authorization header stands for (undefined: anonymous). Throws BearerError. */
  authenticate(header: string | undefined, at: TokenAudience): Promise<Principal | undefined> {
    return authenticate(this, header, at);
  }
}
