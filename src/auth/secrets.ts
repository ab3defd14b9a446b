import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of every API key, so leaked keys are recognisable (secret scanners, logs, humans). */
export const API_KEY_PREFIX = 'rw_';

/** A random URL-safe string carrying `bytes` bytes of entropy. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 of a secret, hex. The secrets hashed here are 256-bit random values, so a fast hash is
 * the right tool: there is nothing to brute-force, unlike with passwords, and lookups stay cheap.
 */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// Comparing keyed digests gives equal-length buffers whatever the inputs, so neither the
// content nor the length of the expected value leaks through timing.
const compareKey = randomBytes(32);

/** Constant-time equality of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const da = createHmac('sha256', compareKey).update(a).digest();
  const db = createHmac('sha256', compareKey).update(b).digest();
  return timingSafeEqual(da, db);
}
