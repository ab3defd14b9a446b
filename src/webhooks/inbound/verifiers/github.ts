import { createHmac } from 'node:crypto';
import { headerValue } from './headers.js';
import { safeEqual } from '../../../core/safe-equal.js';
import { fail, requireOptions, type Verifier } from './types.js';

function hexSignature(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * GitHub `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`.
 * GitHub signs no timestamp, so replays are caught by de-duplicating on X-GitHub-Delivery.
 */
export const verifyGithub: Verifier = (input, config) => {
  const { secret } = requireOptions(config, 'GitHub', 'secret');
  const header = headerValue(input.headers, 'x-hub-signature-256');
  if (!header) return fail('missing_signature', 'missing X-Hub-Signature-256 header');
  const match = /^sha256=([0-9a-fA-F]+)$/.exec(header.trim());
  if (!match) return fail('malformed', 'X-Hub-Signature-256 is not "sha256=<hex>"');
  if (!safeEqual(match[1]!.toLowerCase(), hexSignature(secret!, input.rawBody))) {
    return fail('bad_signature', 'X-Hub-Signature-256 does not match the body and secret');
  }
  return { ok: true, eventId: headerValue(input.headers, 'x-github-delivery') };
};

/** The `X-Hub-Signature-256` header value for a body. */
export function signGithub(secret: string, body: string | Buffer): string {
  return `sha256=${hexSignature(secret, typeof body === 'string' ? Buffer.from(body) : body)}`;
}
