/** Who a request acts as, once its bearer token has been verified. */
export interface Principal {
  /** Recorded as the owner of records it creates; matched by `owner` access rules. */
  subject: string;
  scopes: ReadonlySet<string>;
  /** How the token was verified. */
  via: 'api-key' | 'access-token' | 'external';
  /** The OAuth client the token was issued to, if any. */
  clientId?: string;
  /** `jti` of a JWT, or the id of an API key. */
  tokenId?: string;
  /** For an API key: the id of its stored document (the key's SHA-256), which revoking it deletes. */
  keyHash?: string;
  /** Seconds since the epoch when the credential stops being valid, if it does. */
  expiresAt?: number;
  /** Whom rate limits count against: one bucket per credential holder. */
  rateKey: string;
}

/** Why a bearer credential was refused, in RFC 6750 §3.1 terms (never containing the token). */
export class BearerError extends Error {
  constructor(readonly error: 'invalid_token' | 'invalid_request', readonly description: string) {
    super(description);
    this.name = 'BearerError';
  }
}

/** Keys of an issuer could not be fetched: the token may be fine, the server cannot tell yet. */
export class IssuerUnavailableError extends Error {
  constructor(issuer: string) {
    super(`the signing keys of ${issuer} cannot be fetched right now`);
    this.name = 'IssuerUnavailableError';
  }
}
