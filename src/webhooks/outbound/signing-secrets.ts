import type { SecretBox } from './types.js';

/**
 * The secrets an endpoint signs with now: every sealed secret that has not expired (during a
 * rotation's overlap, the old one too, so receivers still holding it keep verifying).
 */
export function activeSecrets(box: SecretBox, sealed: string, now: number): string[] {
  return box
    .open(sealed)
    .filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > now)
    .map((s) => s.secret);
}
