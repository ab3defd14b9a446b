import type { FastifyReply } from 'fastify';
import { REALM } from './challenge.js';

/** Error codes of RFC 6749 §5.2 (and RFC 7009 §2.2.1's unsupported_token_type). */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'unsupported_token_type';

/** An OAuth endpoint failure, answered in RFC 6749 §5.2 JSON. */
export class OAuthError extends Error {
  constructor(readonly error: OAuthErrorCode, readonly description: string) {
    super(description);
    this.name = 'OAuthError';
  }
}

/**
 * A JSON answer from an OAuth endpoint. These endpoints speak RFC 6749's JSON (not problem+json),
 * because that is what OAuth clients parse; responses carrying tokens must never be cached (§5.1).
 */
export function sendOAuthJson(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache').type('application/json').send(JSON.stringify(body));
}

/**
 * Sends an RFC 6749 §5.2 error: 400, except invalid_client, which is 401 with a Basic challenge
 * (required when the client tried Basic, and a 401 always names a scheme, RFC 9110 §15.5.2).
 */
export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  const status = err.error === 'invalid_client' ? 401 : 400;
  if (status === 401) reply.header('www-authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
  return sendOAuthJson(reply, status, { error: err.error, error_description: err.description });
}
