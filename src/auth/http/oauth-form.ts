import type { FastifyRequest } from 'fastify';
import { parseMediaType } from '../../http/media-type.js';
import { OAuthError } from './oauth-response.js';

/** Parameters every client-authenticated endpoint reads: the client's credentials in the body (RFC 6749 §2.3.1). */
const CLIENT_PARAMETERS = ['client_id', 'client_secret'];

/**
 * The form parameters of an OAuth request (RFC 6749 §3.2: application/x-www-form-urlencoded,
 * UTF-8) that the endpoint knows: `known` and the client's credentials. A known parameter may
 * not be repeated (§3.1); unknown ones are ignored, repeated or not (§3.1, §3.2: "The authorization
 * server MUST ignore unrecognized request parameters"). A percent-encoded sequence that is not
 * UTF-8 (`%FF`, `%ED%A0%80`) is refused rather than read as U+FFFD, as URLSearchParams would. The
 * body arrives as text: the route's own parser keeps form handling out of every other route.
 */
export function oauthForm(request: FastifyRequest, known: readonly string[]): Map<string, string> {
  const { type } = parseMediaType(request.headers['content-type']);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', `send the parameters as application/x-www-form-urlencoded, not ${type || 'no Content-Type'}`);
  }
  const form = new Map<string, string>();
  const seen = new Set<string>();
  for (const part of (typeof request.body === 'string' ? request.body : '').split('&')) {
    const eq = part.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    // A name that is not UTF-8 cannot be one the endpoint knows: ignored like any unknown one.
    const name = formDecode(rawName);
    if (name === undefined || (!known.includes(name) && !CLIENT_PARAMETERS.includes(name))) continue;
    if (seen.has(name)) throw new OAuthError('invalid_request', `the parameter ${name} is repeated`);
    seen.add(name);
    const value = formDecode(rawValue);
    if (value === undefined) throw new OAuthError('invalid_request', `the form parameter ${name} is not percent-encoded UTF-8 (RFC 6749 appendix B)`);
    // Empty parameters are treated as omitted (RFC 6749 §3.1).
    if (value !== '') form.set(name, value);
  }
  return form;
}

/** One form-encoded name or value, decoded strictly (decodeURIComponent refuses what is not UTF-8); undefined when it is not. */
function formDecode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
