import type { FastifyRequest } from 'fastify';
import { parseMediaType } from '../../http/media-type.js';
import { OAuthError } from './oauth-response.js';

/**
 * The form parameters of an OAuth request (RFC 6749 §3.2: application/x-www-form-urlencoded,
 * UTF-8, no parameter repeated). The body arrives as text: the route's own parser keeps form
 * handling out of every other route.
 */
export function oauthForm(request: FastifyRequest): Map<string, string> {
  const { type } = parseMediaType(request.headers['content-type']);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', `send the parameters as application/x-www-form-urlencoded, not ${type || 'no Content-Type'}`);
  }
  const params = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
  const form = new Map<string, string>();
  for (const [name, value] of params) {
    if (form.has(name)) throw new OAuthError('invalid_request', `the parameter ${name} is repeated`);
    // Empty parameters are treated as omitted (RFC 6749 §3.1).
    if (value !== '') form.set(name, value);
  }
  return form;
}
