import { headerValue } from './headers.js';
import { safeEqual } from '../../../core/safe-equal.js';
import { fail, requireOptions, type Verifier } from './types.js';

/**
 * HTTP Basic credentials (Postmark, CloudMailin, SendGrid behind auth, …) from the Authorization header.
 * User name and password are both compared in constant time, and both always, so a wrong user name
 * takes as long as a wrong password.
 */
export const verifyBasicAuth: Verifier = (input, config) => {
  const { username, password } = requireOptions(config, 'HTTP Basic', 'username', 'password');
  const header = headerValue(input.headers, 'authorization');
  if (!header) return fail('missing_signature', 'missing Authorization header (HTTP Basic expected)');
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return fail('malformed', 'the Authorization header is not HTTP Basic');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return fail('malformed', 'HTTP Basic credentials lack a ":" between user and password');
  const userOk = safeEqual(decoded.slice(0, colon), username!);
  const passOk = safeEqual(decoded.slice(colon + 1), password!);
  if (!(userOk && passOk)) return fail('bad_credentials', 'wrong HTTP Basic user name or password');
  return { ok: true };
};

/** The Authorization header value for HTTP Basic credentials. */
export function signBasicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}
