import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Store } from '../store/store.js';

/** Document kind of the server's own token signing keys; the document id is the `kid`. */
export const SIGNING_KEY_KIND = 'signing-key';

/** One signing key pair, ready to sign or verify. */
export interface SigningKey {
  kid: string;
  alg: 'EdDSA' | 'ES256';
  createdAt: string;
  /** Set once a newer key signs; the key stays published until its last token has expired. */
  retiredAt?: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

/** How the keyring behaves; durations in seconds. */
export interface KeyringOptions {
  algorithm: 'EdDSA' | 'ES256';
  /** A key older than this is replaced on next use. */
  lifetimeSeconds: number;
  /** How long a retired key stays published: the longest a token it signed can live, plus slack. */
  retainSeconds: number;
}

// Other nodes (and the CLI) may rotate: re-read the store at most this often, and on an unknown kid
// at most once per cooldown, so a flood of forged kids cannot turn into a flood of queries.
const RELOAD_SECONDS = 60;
const UNKNOWN_KID_COOLDOWN_SECONDS = 5;

/**
 * The server's signing keys, kept in the store so every node and restart shares them. Rotation is
 * without downtime: a new key signs from the moment it exists, and retired keys stay in the JWKS
 * (and keep verifying) until every token they signed has expired; then the store drops them.
 */
export class Keyring {
  private keys = new Map<string, SigningKey>();
  private loadedAt = 0;
  private lastMissReload = 0;
  private loading?: Promise<void>;
  private rotating?: Promise<SigningKey>;

  constructor(private readonly store: Store, private readonly options: KeyringOptions) {}

  /** The key that signs new tokens; generates the first key, and rotates one past its lifetime. */
  async current(): Promise<SigningKey> {
    await this.refresh();
    let key = this.newest();
    if (key && Date.now() - Date.parse(key.createdAt) <= this.options.lifetimeSeconds * 1000) return key;
    // Concurrent first requests share one new key rather than each minting (and retiring) one.
    this.rotating ??= this.rotate().finally(() => (this.rotating = undefined));
    return this.rotating;
  }

  /** The public key for a `kid`, re-reading the store (rate-limited) when the kid is unknown. */
  async verificationKey(kid: string): Promise<SigningKey | undefined> {
    await this.refresh();
    if (!this.keys.has(kid) && Date.now() - this.lastMissReload > UNKNOWN_KID_COOLDOWN_SECONDS * 1000) {
      this.lastMissReload = Date.now();
      await this.reload();
    }
    return this.keys.get(kid);
  }

  /** The JSON Web Key Set to publish: every key that signs or may still have live tokens. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.current();
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }

  /** Makes a new key the signing key and retires the others (they stay published for `retainSeconds`). */
  async rotate(): Promise<SigningKey> {
    const alg = this.options.algorithm;
    const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
    const publicJwk = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const createdAt = new Date().toISOString();
    const privateJwk = await exportJWK(pair.privateKey);
    await this.store.putDocument(SIGNING_KEY_KIND, kid, { kid, alg, createdAt, privateJwk });
    const retiredAt = createdAt;
    const expiresAt = new Date(Date.now() + this.options.retainSeconds * 1000).toISOString();
    for (const doc of await this.store.listDocuments(SIGNING_KEY_KIND)) {
      if (doc.id === kid || doc.data.retiredAt) continue;
      await this.store.putDocument(SIGNING_KEY_KIND, doc.id, { ...doc.data, retiredAt }, expiresAt);
    }
    await this.reload();
    return this.keys.get(kid)!;
  }

  private newest(): SigningKey | undefined {
    let best: SigningKey | undefined;
    for (const k of this.keys.values()) if (!k.retiredAt && (!best || k.createdAt > best.createdAt)) best = k;
    return best;
  }

  private async refresh(): Promise<void> {
    if (Date.now() - this.loadedAt > RELOAD_SECONDS * 1000) await this.reload();
  }

  private reload(): Promise<void> {
    this.loading ??= this.read().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async read(): Promise<void> {
    const next = new Map<string, SigningKey>();
    for (const { id, data } of await this.store.listDocuments(SIGNING_KEY_KIND)) {
      const known = this.keys.get(id);
      if (known && known.retiredAt === data.retiredAt) {
        next.set(id, known);
        continue;
      }
      const alg = data.alg as SigningKey['alg'];
      const privateJwk = data.privateJwk as JWK;
      const { d: _d, ...pub } = privateJwk;
      const publicJwk: JWK = { ...pub, kid: id, alg, use: 'sig' };
      next.set(id, {
        kid: id,
        alg,
        createdAt: String(data.createdAt),
        retiredAt: data.retiredAt ? String(data.retiredAt) : undefined,
        privateKey: (await importJWK(privateJwk, alg)) as CryptoKey,
        publicKey: (await importJWK(pub, alg)) as CryptoKey,
        publicJwk,
      });
    }
    this.keys = next;
    this.loadedAt = Date.now();
  }
}
