import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Store } from '../store/store.js';
import { bearerErrorOf } from './jose-errors.js';
import type { Keyring } from './keyring.js';
import type { OAuthClients } from './oauth-clients.js';
import { BearerError, type Principal } from './principal.js';
import { parseScopes } from './scopes.js';
import { randomSecret } from './secrets.js';

/** Document kind of revoked token ids (RFC 7009); each expires with the token it revokes. */
export const REVOKED_JTI_KIND = 'revoked-jti';

/** The `iss` and `aud` in force for a request (configured, or this server's base URL). */
export interface TokenAudience {
  issuer: string;
  audience: string;
}

/** Claims checked on every token this server issued; RFC 9068 §2.2 makes them required. */
const REQUIRED_CLAIMS = ['iss', 'aud', 'sub', 'exp', 'iat', 'jti', 'client_id'];
const ALGORITHMS = ['EdDSA', 'ES256'];

/** Issues and verifies this server's own access tokens: RFC 9068 JWTs signed with the keyring. */
export class AccessTokens {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly clients: OAuthClients,
    private readonly ttlSeconds: number,
  ) {}

  /** Signs an access token for a client; `scopes` are already narrowed to what it may have. */
  async issue(at: TokenAudience, clientId: string, scopes: string[]): Promise<{ token: string; expiresIn: number }> {
    const key = await this.keyring.current();
    const token = await new SignJWT({ client_id: clientId, scope: scopes.join(' ') })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(at.issuer)
      .setAudience(at.audience)
      .setSubject(clientId)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .setJti(randomSecret(16))
      .sign(key.privateKey);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** Verifies signature, typ, iss, aud, exp and required claims; then that it is not revoked. */
  async verify(token: string, at: TokenAudience): Promise<Principal> {
    const payload = await this.verifySignature(token, at);
    const jti = String(payload.jti);
    if (await this.isRevoked(jti)) throw new BearerError('invalid_token', 'the access token has been revoked');
    const clientId = String(payload.client_id);
    // Deleting a client ends its tokens too, at the latest when the verified-token cache forgets them.
    if (!(await this.clients.get(clientId))) throw new BearerError('invalid_token', 'the client this token was issued to no longer exists');
    return {
      subject: String(payload.sub),
      scopes: new Set(parseScopes(payload.scope)),
      via: 'access-token',
      clientId,
      tokenId: jti,
      expiresAt: payload.exp,
      rateKey: `client:${clientId}`,
    };
  }

  /** The verified claims of one of this server's live tokens (revoked or not), or undefined. */
  async claims(token: string, at: TokenAudience): Promise<JWTPayload | undefined> {
    try {
      return await this.verifySignature(token, at);
    } catch (err) {
      if (bearerErrorOf(err)) return undefined;
      throw err;
    }
  }

  /** Revokes a token by its claims, until it would have expired anyway. */
  async revoke(claims: JWTPayload): Promise<void> {
    const expiresAt = new Date((claims.exp ?? 0) * 1000).toISOString();
    await this.store.putDocument(REVOKED_JTI_KIND, String(claims.jti), { revokedAt: new Date().toISOString(), clientId: claims.client_id }, expiresAt);
  }

  /** True when a token's jti has been revoked. */
  async isRevoked(jti: string): Promise<boolean> {
    return (await this.store.getDocument(REVOKED_JTI_KIND, jti)) !== undefined;
  }

  private async verifySignature(token: string, at: TokenAudience): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await this.keyring.verificationKey(header.kid) : undefined;
          if (!key) throw new BearerError('invalid_token', 'the token names a signing key (kid) this server does not have');
          // jose would throw a bare TypeError for a key of another type: a forged header, not a server fault.
          if (header.alg !== key.alg) throw new BearerError('invalid_token', `the token's alg ${header.alg} is not the algorithm of the signing key it names (${key.alg})`);
          return key.publicKey;
        },
        {
          issuer: at.issuer,
          audience: at.audience,
          typ: 'at+jwt',
          algorithms: ALGORITHMS,
          requiredClaims: REQUIRED_CLAIMS,
        },
      );
      return payload;
    } catch (err) {
      throw bearerErrorOf(err) ?? err;
    }
  }
}
