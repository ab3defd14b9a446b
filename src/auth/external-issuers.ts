import { createRemoteJWKSet, jwtVerify, errors, type JWTVerifyGetKey } from 'jose';
import { parseDuration } from '../config/sizes.js';
import type { IssuerConfig } from '../config/types.js';
import { bearerErrorOf } from './jose-errors.js';
import { BearerError, IssuerUnavailableError, type Principal } from './principal.js';
import { parseScopes } from './scopes.js';

const ALGORITHMS = ['EdDSA', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/**
 * Access tokens from configured identity providers, verified against each one's JWKS. jose caches
 * the key set and refetches it when a token names an unknown kid, at most once per cooldown, so
 * forged kids cannot make this server hammer the provider.
 */
export class ExternalIssuers {
  private readonly byIssuer = new Map<string, { config: IssuerConfig; jwks: ReturnType<typeof createRemoteJWKSet> }>();

  constructor(issuers: IssuerConfig[]) {
    for (const config of issuers) {
      const cooldownDuration = parseDuration(config.jwksCooldown ?? '30s') * 1000;
      const jwks = createRemoteJWKSet(new URL(config.jwksUri), { cooldownDuration, cacheMaxAge: 10 * 60_000, timeoutDuration: 5_000 });
      this.byIssuer.set(config.issuer, { config, jwks });
    }
  }

  /** True when tokens from `issuer` are accepted. */
  has(issuer: string): boolean {
    return this.byIssuer.has(issuer);
  }

  /** Verifies a token from a configured issuer; scopes come from `scope` (RFC 9068) or `scp`. */
  async verify(token: string, issuer: string): Promise<Principal> {
    const entry = this.byIssuer.get(issuer)!;
    // Only fetching the key set can make the issuer "unavailable"; every later failure is the token's.
    const keyFor: JWTVerifyGetKey = async (header, jws) => {
      try {
        return await entry.jwks(header, jws);
      } catch (err) {
        throw bearerErrorOf(err) ?? new IssuerUnavailableError(issuer);
      }
    };
    try {
      const { payload } = await jwtVerify(token, keyFor, {
        issuer,
        audience: entry.config.audience,
        algorithms: ALGORITHMS,
        typ: entry.config.requireAtJwt === false ? undefined : 'at+jwt',
        requiredClaims: ['sub', 'exp'],
      });
      // Subjects are namespaced by issuer so two providers (or a provider and local keys) never share one.
      const subject = `${issuer}#${payload.sub}`;
      return {
        subject,
        scopes: new Set(parseScopes(payload.scope ?? payload.scp)),
        via: 'external',
        clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
        tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
        expiresAt: payload.exp,
        rateKey: `ext:${subject}`,
      };
    } catch (err) {
      const bearer = bearerErrorOf(err);
      if (bearer) throw bearer;
      if (err instanceof IssuerUnavailableError) throw err;
      // E.g. jose's TypeError for a key that cannot verify the header's alg: a forged header.
      if (err instanceof errors.JOSEError || err instanceof TypeError) throw new BearerError('invalid_token', `the token cannot be verified with the ${issuer} key it names`);
      throw err;
    }
  }
}
