import { createHash, randomBytes } from 'node:crypto';

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
