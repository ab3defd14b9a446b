import { decodeJwt } from 'jose';
import type { AccessTokens, TokenAudience } from './access-tokens.js';
import type { ApiKeys } from './api-keys.js';
import type { ExternalIssuers } from './external-issuers.js';
import { BearerError, type Principal } from './principal.js';
import { API_KEY_PREFIX, sha256 } from './secrets.js';
import type { TokenCache } from './token-cache.js';

// RFC 6750 §2.1: `Bearer` 1*SP b64token (token68). Only the token is captured.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const SCHEME = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?: |$)/;

/** Everything `authenticate` uses, so the pieces stay testable on their own. */
export interface AuthenticatorParts {
  apiKeys: ApiKeys;
  tokens: AccessTokens;
  external: ExternalIssuers;
  cache: TokenCache;
}

/**
 * Resolves an `Authorization` header to a principal. No header, or another scheme than Bearer,
 * is anonymous (undefined): whether that is enough is the access rule's call. A Bearer header
 * that is malformed, or carries a token that does not verify, throws a BearerError.
 */
export async function authenticate(parts: AuthenticatorParts, header: string | undefined, at: TokenAudience): Promise<Principal | undefined> {
  if (header === undefined) return undefined;
  // The cache key includes the audience: a token minted for one issuer URL is not valid at another.
  // It is the whole header, so a header seen before (it parsed, its token verified) is not parsed again.
  const cacheKey = `${at.issuer} ${header}`;
  const cached = parts.cache.get(cacheKey);
  if (cached) return cached;
  const scheme = SCHEME.exec(header)?.[1];
  if (scheme && scheme.toLowerCase() !== 'bearer') return undefined;
  const token = BEARER.exec(header)?.[1];
  if (!token) throw new BearerError('invalid_request', 'the Authorization header must be "Bearer" followed by one space and the token');
  const principal = await verifyToken(parts, token, at);
  parts.cache.set(cacheKey, principal);
  return principal;
}

async function verifyToken(parts: AuthenticatorParts, token: string, at: TokenAudience): Promise<Principal> {
  if (token.startsWith(API_KEY_PREFIX)) {
    const key = await parts.apiKeys.verify(token);
    if (!key) throw new BearerError('invalid_token', 'the API key is unknown, revoked or expired');
    return {
      subject: key.subject,
      scopes: new Set(key.scopes),
      via: 'api-key',
      tokenId: key.id,
      keyHash: sha256(token),
      expiresAt: key.expiresAt ? Math.floor(Date.parse(key.expiresAt) / 1000) : undefined,
      rateKey: `key:${key.id}`,
    };
  }
  let issuer: unknown;
  try {
    // Unverified: only picks which verifier to use; that verifier checks `iss` itself.
    issuer = decodeJwt(token).iss;
  } catch {
    throw new BearerError('invalid_token', `the token is neither an API key (${API_KEY_PREFIX}…) nor a well-formed JWT`);
  }
  if (issuer === at.issuer) return parts.tokens.verify(token, at);
  if (typeof issuer === 'string' && parts.external.has(issuer)) return parts.external.verify(token, issuer);
  throw new BearerError('invalid_token', `tokens from issuer ${JSON.stringify(String(issuer ?? '(none)')).slice(0, 200)} are not accepted here`);
}
