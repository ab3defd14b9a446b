import type { Source } from './sources.js';
import type { HeaderMap } from './verifiers/index.js';

/** What a credential reads as in the inbox. */
export const REDACTED = '[redacted]';

/** Headers that carry credentials whatever the source. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** Names that by convention carry a credential: x-api-key, x-auth-token, x-webhook-secret, … */
const CREDENTIAL_NAME = /(^|[-_])(auth|authorization|token|secret|password|passwd|api-?key|apikey|session|credentials?)([-_]|$)/i;
/** A value that is a credential whatever its header's name (`Bearer …`, `Basic …`). */
const CREDENTIAL_VALUE = /^\s*(bearer|basic|digest)\s+\S/i;

/**
 * The request headers as the inbox keeps them, with every credential masked: the source's own
 * shared-token header, the usual credential headers, and any value holding one of the source's
 * secrets. The inbox is readable over the API, and a stored token would let its reader forge
 * deliveries (or replay the sender's credentials elsewhere).
 */
export function keptHeaders(headers: HeaderMap, source: Source): Record<string, string> {
  const options = source.verify === 'none' ? {} : source.verify;
  const tokenHeader = options.header?.toLowerCase();
  const secrets = [options.secret, options.password, options.authToken].filter((s): s is string => Boolean(s));
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    const key = name.toLowerCase();
    const credential =
      key === tokenHeader || CREDENTIAL_HEADERS.has(key) || CREDENTIAL_NAME.test(key) || CREDENTIAL_VALUE.test(value) || secrets.some((s) => value.includes(s));
    out[name] = credential ? REDACTED : value;
  }
  return out;
}
