import { isCredentialHeader, REDACTED } from '../credential-headers.js';
import type { Source } from './sources.js';
import type { HeaderMap } from './verifiers/index.js';

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
    const credential = key === tokenHeader || isCredentialHeader(key, value) || secrets.some((s) => value.includes(s));
    out[name] = credential ? REDACTED : value;
  }
  return out;
}
