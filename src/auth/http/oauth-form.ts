import type { FastifyRequest } from 'fastify';
import { parseMediaType } from '../../http/media-type.js';
import { OAuthError } from './oauth-response.js';

/**
 * The form parameters of an OAuth request (RFC 6749 §3.2: application/x-www-form-urlencoded,
 * UTF-8, no parameter repeated). A percent-encoded sequence that is not UTF-8 (`%FF`, `%ED%A0%80`)
 * is refused rather than read as U+FFFD, as URLSearchParams would. The body arrives as text: the route's own parser keeps form
 * handling out of every other route.
 */
export function oauthForm(request: FastifyRequest): Map<string, string> {
  const { type } = parseMediaType(request.headers['content-type']);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', `send the parameters as application/x-www-form-urlencoded, not ${type || 'no Content-Type'}`);
  }
  const form = new Map<string, string>();
  for (const [name, value] of formPairs(typeof request.body === 'string' ? request.body : '')) {
    if (form.has(name)) throw new OAuthError('invalid_request', `the parameter ${name} is repeated`);
    // Empty parameters are treated as omitted (RFC 6749 §3.1).
    if (value !== '') form.set(name, value);
  }
  return form;
}

/** The name/value pairs of a form body, decoded strictly (decodeURIComponent refuses what is not UTF-8). */
function formPairs(body: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [name, value] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    try {
      pairs.push([decodeURIComponent(name.replaceAll('+', ' ')), decodeURIComponent(value.replaceAll('+', ' '))]);
    } catch {
      throw new OAuthError('invalid_request', `the form parameter ${JSON.stringify(name.slice(0, 40))} is not percent-encoded UTF-8 (RFC 6749 appendix B)`);
    }
  }
  return pairs;
}
