import type { EndpointSecret, SecretBox } from './types.js';

/**
 * An endpoint's secrets that have not expired: the current one and, during a rotation's overlap,
 * the old one too (so receivers still holding it keep verifying). Throws when `sealed` cannot be opened.
 */
export function liveSecrets(box: SecretBox, sealed: string, now: number): EndpointSecret[] {
  return box.open(sealed).filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > now);
}

/** The secrets an endpoint signs with now (see {@link liveSecrets}). */
export function activeSecrets(box: SecretBox, sealed: string, now: number): string[] {
  return liveSecrets(box, sealed, now).map((s) => s.secret);
}
