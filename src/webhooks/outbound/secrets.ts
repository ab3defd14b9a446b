import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new endpoint signing secret: `whsec_` + base64 of 32 random bytes, the form Standard Webhooks libraries expect. */
export function generateEndpointSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/**
 * Why a user-supplied signing secret is unusable, in words for the user; undefined when it is fine.
 * Accepted: `whsec_` + standard base64 of 24 to 64 bytes (the Standard Webhooks range), so any
 * receiver library can load it.
 */
export function endpointSecretError(secret: string): string | undefined {
  if (!secret.startsWith(PREFIX)) return 'must start with whsec_ followed by base64 (e.g. one made by POST /webhook-endpoints without a secret)';
  const b64 = secret.slice(PREFIX.length);
  // Buffer.from(…, 'base64') skips characters it does not know, so the text is checked first.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return 'the part after whsec_ must be standard base64 (A-Z, a-z, 0-9, +, / and = padding)';
  const bytes = Buffer.from(b64, 'base64').length;
  if (bytes < 24 || bytes > 64) return `must encode 24 to 64 random bytes; this one encodes ${bytes}`;
  return undefined;
}
