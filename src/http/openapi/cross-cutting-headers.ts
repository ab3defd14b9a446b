import type { Json } from './components.js';
import { header } from './headers.js';
import type { SchemaContext } from './schemas.js';

/** What an operation is subject to beyond its own logic: the rate limit and Idempotency-Key replay. */
export interface CrossCutting {
  /** Counted against a rate limit: every answer after the count shows the quota. */
  metered: boolean;
  /** Takes Idempotency-Key: a stored answer (any status below 500) may be replayed. */
  idempotent: boolean;
}

/**
 * Adds the headers the auth guard and the idempotency hooks put on an operation's responses:
 * RateLimit and RateLimit-Policy (certain on success and 429; on other errors only when the
 * request got as far as the count), and Idempotent-Replayed on what may be a replay.
 */
export function withCrossCuttingHeaders(responses: Record<string, Json>, ctx: SchemaContext, traits: CrossCutting): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    const headers: Record<string, unknown> = {};
    if (traits.metered && status !== 'default') {
      const certain = code < 400 || code === 429;
      headers.RateLimit = header(ctx, 'ratelimit', certain);
      headers['RateLimit-Policy'] = header(ctx, 'ratelimit-policy', certain);
    }
    if (traits.idempotent && code < 500) headers['Idempotent-Replayed'] = header(ctx, 'idempotent-replayed', false);
    Object.assign(headers, response.headers as Json | undefined);
    out[status] = Object.keys(headers).length ? { ...response, headers } : response;
  }
  return out;
}
