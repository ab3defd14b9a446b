import type { Store } from '../store/store.js';
import { safeEqual } from '../core/safe-equal.js';
import { randomSecret, sha256 } from './secrets.js';

/** Document kind of OAuth clients; the document id is the client_id. */
export const OAUTH_CLIENT_KIND = 'oauth-client';

/** What is stored and shown about a client (never its secret). */
export interface OAuthClientInfo {
  clientId: string;
  name: string;
  /** The scopes this client may be granted; requests are narrowed to these. */
  scopes: string[];
  createdAt: string;
}

// Compared against when the client_id is unknown, so a miss costs the same as a wrong secret.
const DUMMY_HASH = sha256(randomSecret());

/** Confidential OAuth 2.0 clients for the client credentials grant; secrets stored as SHA-256. */
export class OAuthClients {
  constructor(private readonly store: Store) {}

  /** Registers a client; the returned secret is shown once and never stored in clear. */
  async create(input: { name: string; scopes: string[] }): Promise<{ clientSecret: string; info: OAuthClientInfo }> {
    const info: OAuthClientInfo = { clientId: `rwc_${randomSecret(12)}`, name: input.name, scopes: input.scopes, createdAt: new Date().toISOString() };
    const clientSecret = `rws_${randomSecret(32)}`;
    await this.store.putDocument(OAUTH_CLIENT_KIND, info.clientId, { ...info, secretHash: sha256(clientSecret) });
    return { clientSecret, info };
  }

  /** The client when `clientId` exists and `secret` is its secret (constant-time), else undefined. */
  async authenticate(clientId: string, secret: string): Promise<OAuthClientInfo | undefined> {
    const doc = clientId.length <= 200 ? await this.store.getDocument(OAUTH_CLIENT_KIND, clientId) : undefined;
    const ok = safeEqual(sha256(secret), doc ? String(doc.secretHash) : DUMMY_HASH);
    return ok && doc ? strip(doc) : undefined;
  }

  async get(clientId: string): Promise<OAuthClientInfo | undefined> {
    const doc = await this.store.getDocument(OAUTH_CLIENT_KIND, clientId);
    return doc ? strip(doc) : undefined;
  }

  /** Every client, oldest first. */
  async list(): Promise<OAuthClientInfo[]> {
    const docs = await this.store.listDocuments(OAUTH_CLIENT_KIND);
    return docs.map((d) => strip(d.data)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Deletes a client; its tokens stop verifying too (AccessTokens checks the client still exists). */
  delete(clientId: string): Promise<boolean> {
    return this.store.deleteDocument(OAUTH_CLIENT_KIND, clientId);
  }
}

function strip(data: Record<string, unknown>): OAuthClientInfo {
  const { secretHash: _s, ...info } = data;
  return info as unknown as OAuthClientInfo;
}
