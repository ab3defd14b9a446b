import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../../http/problems.js';
import { methodOf } from '../../http/respond.js';
import type { BearerError } from '../principal.js';

/** The realm every Bearer challenge names. */
export const REALM = 'restwell';

/** An RFC 9110 quoted-string: backslash-escapes `"` and `\`, drops characters a header cannot carry. */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7E]/g, '').replace(/["\\]/g, (c) => '\\' + c)}"`;
}

/** A `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3). */
export function bearerChallenge(params: { error?: string; description?: string; scope?: string[] } = {}): string {
  const parts = [`Bearer realm=${quoted(REALM)}`];
  if (params.error) parts.push(`error=${quoted(params.error)}`);
  if (params.description) parts.push(`error_description=${quoted(params.description)}`);
  if (params.scope?.length) parts.push(`scope=${quoted(params.scope.join(' '))}`);
  return parts.join(', ');
}

/**
 * 401 (or 400 for a malformed header) with the Bearer challenge. With no error the client simply
 * sent no credentials, so the challenge carries no error code (RFC 6750 §3.1).
 */
export function sendBearerError(request: FastifyRequest, reply: FastifyReply, err?: BearerError): FastifyReply {
  if (!err) {
    reply.header('www-authenticate', bearerChallenge());
    return sendProblem(request, reply, 'unauthorized', `${methodOf(request)} ${routeOf(request)} needs a bearer token: send "Authorization: Bearer <API key or access token>"`);
  }
  reply.header('www-authenticate', bearerChallenge({ error: err.error, description: err.description }));
  if (err.error === 'invalid_request') return sendProblem(request, reply, 'malformed-authorization', err.description);
  return sendProblem(request, reply, 'unauthorized', err.description);
}

/** 403 naming the scopes the operation needs (RFC 6750 §3.1 `insufficient_scope`). */
export function sendInsufficientScope(request: FastifyRequest, reply: FastifyReply, scopes: string[]): FastifyReply {
  const description = `${methodOf(request)} ${routeOf(request)} needs the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' ')}`;
  reply.header('www-authenticate', bearerChallenge({ error: 'insufficient_scope', description, scope: scopes }));
  return sendProblem(request, reply, 'forbidden', `${description}; the token does not have ${scopes.length > 1 ? 'them all' : 'it'}`, { scope: scopes.join(' ') });
}

function routeOf(request: FastifyRequest): string {
  return (request.routeOptions.url ?? request.url.split('?')[0]).replace(/:(\w+)/g, '{$1}');
}
