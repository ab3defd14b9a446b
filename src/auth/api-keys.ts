import { parseDuration } from '../config/sizes.js';
import type { Store } from '../store/store.js';
import { safeEqual } from '../core/safe-equal.js';
import { API_KEY_PREFIX, randomSecret, sha256 } from './secrets.js';

/** Document kind of API keys; the document id is the SHA-256 of the key, so lookup is by hash. */
export const API_KEY_KIND = 'api-key';

/** What is stored and shown about an API key (never the key itself). */
export interface ApiKeyInfo {
  /** Public id (`key_…`), used to list and revoke. */
  id: string;
  name: string;
  scopes: string[];
  /** The subject requests made with this key act as (records they create are owned by it). */
  subject: string;
  createdAt: string;
  expiresAt: string | null;
  /** First characters of the key, so a person can tell keys apart. */
  hint: string;
}

/** The longest lifetime a key may be given (ten years); a key that should not expire omits its lifetime. */
export const MAX_KEY_LIFETIME_SECONDS = 3650 * 86400;

/**
 * Parses a key lifetime such as `30d`, from the API (`expiresIn`) or the CLI (`--expires`); a
 * RangeError names the allowed range. Without the bound, `99999999d` became an invalid Date (a 500).
 */
export function parseKeyLifetime(text: string): number {
  let seconds = Number.NaN;
  try {
    seconds = parseDuration(text);
  } catch {
    // reported below, with the range
  }
  if (!(seconds >= 1 && seconds <= MAX_KEY_LIFETIME_SECONDS)) {
    throw new RangeError('must be a duration from 1s to 3650d (ten years), such as 3600s, 90m, 12h or 30d; omit it for a key that never expires');
  }
  return seconds;
}

/** The fields needed to create a key. */
export interface NewApiKey {
  name: string;
  scopes: string[];
  /** Lifetime in seconds; none means the key does not expire. */
  expiresInSeconds?: number;
  /** Defaults to `key:{id}`, so each key owns its own records. */
  subject?: string;
}

/**
 * API keys kept in the store's documents: `rw_` + 256 random bits, of which only a SHA-256 hash is
 * stored. Expiry is the store's document expiry, so an expired key simply no longer exists.
 */
export class ApiKeys {
  constructor(private readonly store: Store) {}

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
  async create(input: NewApiKey): Promise<{ key: string; info: ApiKeyInfo }> {
    const key = API_KEY_PREFIX + randomSecret(32);
    const id = `key_${randomSecret(9)}`;
    const now = new Date();
    const expiresAt = input.expiresInSeconds ? new Date(now.getTime() + input.expiresInSeconds * 1000).toISOString() : null;
    const info: ApiKeyInfo = { id, name: input.name, scopes: input.scopes, subject: input.subject ?? `key:${id}`, createdAt: now.toISOString(), expiresAt, hint: key.slice(0, 7) };
    await this.store.putDocument(API_KEY_KIND, sha256(key), { ...info, hash: sha256(key) }, expiresAt ?? undefined);
    return { key, info };
  }

  /** The key's record when `key` is a live API key, else undefined. */
  async verify(key: string): Promise<ApiKeyInfo | undefined> {
    if (!key.startsWith(API_KEY_PREFIX)) return undefined;
    const hash = sha256(key);
    const doc = await this.store.getDocument(API_KEY_KIND, hash);
    // The lookup is by hash already; the constant-time check guards against an engine that
    // matched loosely (collation, trailing spaces) rather than exactly.
    if (!doc || !safeEqual(String(doc.hash), hash)) return undefined;
    if (doc.expiresAt && Date.parse(String(doc.expiresAt)) <= Date.now()) return undefined;
    return strip(doc);
  }

  /** Every live key, oldest first. */
  async list(): Promise<ApiKeyInfo[]> {
    const docs = await this.store.listDocuments(API_KEY_KIND);
    return docs.map((d) => strip(d.data)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** One key by its public id. */
  async get(id: string): Promise<ApiKeyInfo | undefined> {
    return (await this.find(id))?.info;
  }

  /** Revokes (deletes) a key by its public id; true when there was one. */
  async revoke(id: string): Promise<boolean> {
    const found = await this.find(id);
    return found ? this.store.deleteDocument(API_KEY_KIND, found.hash) : false;
  }

  private async find(id: string): Promise<{ hash: string; info: ApiKeyInfo } | undefined> {
    const doc = (await this.store.listDocuments(API_KEY_KIND)).find((d) => d.data.id === id);
    return doc ? { hash: doc.id, info: strip(doc.data) } : undefined;
  }
}

function strip(data: Record<string, unknown>): ApiKeyInfo {
  const { hash: _hash, ...info } = data;
  return info as unknown as ApiKeyInfo;
}
