import { errors } from 'jose';
import { BearerError } from './principal.js';

/**
 * Turns a jose verification failure into an RFC 6750 `invalid_token` with a description a client
 * developer can act on. Descriptions name the failed check, never the token's content.
 */
export function bearerErrorOf(err: unknown): BearerError | undefined {
  if (err instanceof BearerError) return err;
  if (err instanceof errors.JWTExpired) return new BearerError('invalid_token', 'the access token has expired');
  // jose's messages name the claim and the check (e.g. `unexpected "iss" claim value`).
  if (err instanceof errors.JWTClaimValidationFailed) return new BearerError('invalid_token', `the token is not acceptable: ${err.message}`);
  if (err instanceof errors.JOSEAlgNotAllowed) return new BearerError('invalid_token', 'the token is signed with an algorithm that is not accepted');
  if (err instanceof errors.JWSSignatureVerificationFailed) return new BearerError('invalid_token', 'the token signature does not verify');
  if (err instanceof errors.JWKSNoMatchingKey) return new BearerError('invalid_token', 'the token names a signing key (kid) the issuer does not publish');
  if (err instanceof errors.JWKSMultipleMatchingKeys) return new BearerError('invalid_token', 'the token does not name its signing key (kid) unambiguously');
  if (err instanceof errors.JOSENotSupported) return new BearerError('invalid_token', 'the token uses an unsupported algorithm or key type');
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return new BearerError('invalid_token', 'the token is not a well-formed signed JWT');
  return undefined;
}
