import type { FastifyRequest } from 'fastify';
import { parseMediaType } from '../../http/media-type.js';
import { OAuthError } from './oauth-response.js';

/** Parameters every client-authenticated endpoint reads: the client's credentials in the body (RFC 6749 §2.3.1). */
const CLIENT_PARAMETERS = ['client_id', 'client_secret'];

/**
 * The form parameters of an OAuth request (RFC 6749 §3.2: application/x-www-form-urlencoded,
 * UTF-8) that the endpoint knows: `known` and the client's credentials. A known parameter may
 * not be repeated (§3.1); unknown ones are ignored, repeated or not (§3.1, §3.2: "The authorization
 * server MUST ignore unrecognized request parameters"). The body arrives as text: the route's own
 * parser keeps form handling out of every other route.
 */
export function oauthForm(request: FastifyRequest, known: readonly string[]): Map<string, string> {
  const { type } = parseMediaType(request.headers['content-type']);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', `send the parameters as application/x-www-form-urlencoded, not ${type || 'no Content-Type'}`);
  }
  const params = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
  const form = new Map<string, string>();
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!known.includes(name) && !CLIENT_PARAMETERS.includes(name)) continue;
    if (seen.has(name)) throw new OAuthError('invalid_request', `the parameter ${name} is repeated`);
    seen.add(name);
    // Empty parameters are treated as omitted (RFC 6749 §3.1).
    if (value !== '') form.set(name, value);
  }
  return form;
}
