import { DEFAULTS } from '../config/defaults.js';
import { ConfigError } from '../config/load.js';
import { parseDuration } from '../config/sizes.js';
import type { AuthFileConfig, IssuerConfig, RateLimitFileConfig, RateLimitStore, RestwellConfig } from '../config/types.js';

/** A rate limit in numbers: `limit` requests per `windowSeconds`, under a policy name. */
export interface RateLimitPolicy {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The `auth` section with defaults applied and durations in seconds. */
export interface AuthSettings {
  issuer?: string;
  audience?: string;
  tokenTtlSeconds: number;
  cacheTtlSeconds: number;
  signingAlgorithm: 'EdDSA' | 'ES256';
  signingKeyLifetimeSeconds: number;
  issuers: IssuerConfig[];
  /** Undefined when rate limiting is off. */
  rateLimit?: { default: RateLimitPolicy; resources: Map<string, RateLimitPolicy> };
  /** Where rate limits count; undefined: the store's shared counter where it has one, else memory. */
  rateLimitStore?: RateLimitStore;
  rateLimitFailOpen: boolean;
  /** With `rateLimitStore: redis`: the server, and the prefix of every key. */
  redis?: { url: string; keyPrefix: string };
}

/** Resolves the `auth` section of a validated config; unknown resource names are a ConfigError. */
export function resolveAuthSettings(config: RestwellConfig): AuthSettings {
  const a = { ...DEFAULTS.auth, ...config.auth } as Required<AuthFileConfig>;
  const issuer = (a.issuer ?? config.server.publicUrl)?.replace(/\/$/, '');
  let rateLimit: AuthSettings['rateLimit'];
  if (a.rateLimit !== false) {
    const rl = a.rateLimit as RateLimitFileConfig & { resources?: Record<string, RateLimitFileConfig> };
    const resources = new Map<string, RateLimitPolicy>();
    for (const [name, r] of Object.entries(rl.resources ?? {})) {
      if (!config.resources[name]) throw new ConfigError([`auth.rateLimit.resources.${name}: no resource named "${name}"`], config.origin ?? 'config');
      resources.set(name, { name, limit: r.limit, windowSeconds: parseDuration(r.window) });
    }
    rateLimit = { default: { name: 'default', limit: rl.limit, windowSeconds: parseDuration(rl.window) }, resources };
  }
  const store = a.rateLimitStore;
  if (store === 'redis' && !config.redis) {
    throw new ConfigError(['auth.rateLimitStore: redis needs the redis section (redis: { url: redis://host:6379 })'], config.origin ?? 'config');
  }
  return {
    issuer,
    audience: a.audience ?? issuer,
    tokenTtlSeconds: parseDuration(a.tokenTtl),
    cacheTtlSeconds: parseDuration(a.cacheTtl),
    signingAlgorithm: a.signingAlgorithm,
    signingKeyLifetimeSeconds: parseDuration(a.signingKeyLifetime),
    issuers: [...a.issuers],
    rateLimit,
    rateLimitStore: store,
    rateLimitFailOpen: a.rateLimitFailOpen,
    redis: config.redis && { url: config.redis.url, keyPrefix: config.redis.keyPrefix ?? DEFAULTS.redis.keyPrefix },
  };
}
