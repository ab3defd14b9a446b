import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { EndpointSecret, SecretBox } from './types.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed salt and info: the key string is the secret; these only bind the derived key to this use,
// so the same key string configured elsewhere never yields this AES key.
const SALT = Buffer.from('restwell');
const INFO = Buffer.from('restwell webhook endpoint secrets v1');

/** The sealed text is not from this key, or it was altered. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/**
 * Seals endpoint secrets with AES-256-GCM under a key derived from `keyText` by HKDF-SHA256.
 * Sealed text is `v1.<iv>.<ciphertext+tag>` (base64url), the version leaving room for a new scheme.
 */
export class AesSecretBox implements SecretBox {
  readonly #key: Buffer;

  constructor(keyText: string) {
    if (!keyText) throw new SecretBoxError('the secret key is empty');
    this.#key = Buffer.from(hkdfSync('sha256', keyText, SALT, INFO, 32));
  }

  seal(secrets: EndpointSecret[]): string {
    return this.sealText(JSON.stringify(secrets));
  }

  open(sealed: string): EndpointSecret[] {
    return JSON.parse(this.openText(sealed)) as EndpointSecret[];
  }

  sealText(text: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ct = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${ct.toString('base64url')}`;
  }

  openText(sealed: string): string {
    const [version, ivText, ctText, ...rest] = sealed.split('.');
    if (version !== VERSION || !ivText || !ctText || rest.length) throw new SecretBoxError('not sealed text of a known version');
    const iv = Buffer.from(ivText, 'base64url');
    const data = Buffer.from(ctText, 'base64url');
    if (iv.length !== IV_BYTES || data.length < TAG_BYTES) throw new SecretBoxError('sealed text is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, iv);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: string;
    try {
      plain = Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // GCM's tag check fails alike for a wrong key and for altered text; neither may yield secrets.
      throw new SecretBoxError('sealed secrets could not be opened: a different secret key, or altered text');
    }
    return plain;
  }
}
