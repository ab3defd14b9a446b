import { randomBytes } from 'node:crypto';
import { basename, dirname, extname, join } from 'node:path';
import type { RestwellConfig } from '../../config/types.js';
import { databaseLocation } from '../../store/database-location.js';
import type { Store } from '../../store/store.js';
import { secretFileOnce } from '../secret-file.js';

/** Where the key that seals endpoint secrets came from, and what to tell the operator about it. */
export interface ResolvedSecretKey {
  key: string;
  source: 'config' | 'file' | 'database';
  /** The key file, when `source` is `file`. */
  path?: string;
  /** A start-up warning to print, when the key sits where a copy of the database takes it along. */
  warning?: string;
}

function newKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The key file of an SQLite database file: beside it, named after it (`data/restwell.db` → `data/restwell.secret-key`). */
export function secretKeyPath(databaseFile: string): string {
  const name = basename(databaseFile, extname(databaseFile)) || basename(databaseFile);
  return join(dirname(databaseFile), `${name}.secret-key`);
}

/**
 * The key that seals endpoint signing secrets. In order:
 * 1. `webhooks.outbound.secretKey` from the config (best: it lives outside the database);
 * 2. for an SQLite file, a key file next to it, generated once (mode 0600): outside the database
 *    file, so a copy of the database alone does not reveal the secrets;
 * 3. otherwise (PostgreSQL, memory) a key stored in the database itself, which racing nodes agree
 *    on; a server database then comes with a warning to configure the key instead.
 */
export async function resolveSecretKey(config: Pick<RestwellConfig, 'database' | 'webhooks'>, store: Pick<Store, 'ensureDocument'>): Promise<ResolvedSecretKey> {
  const configured = config.webhooks.outbound.secretKey;
  if (configured) return { key: configured, source: 'config' };
  const location = databaseLocation(config.database);
  if (location.kind === 'file') {
    const path = secretKeyPath(location.path);
    const key = secretFileOnce(path, () => newKey() + '\n').trim();
    if (!key) throw new Error(`${path} is empty: delete it to have a new key made (endpoint secrets sealed with the old one are lost), or set webhooks.outbound.secretKey`);
    return { key, source: 'file', path };
  }
  const doc = await store.ensureDocument('secret-key', 'outbound', { key: newKey() });
  if (typeof doc.key !== 'string' || !doc.key) throw new Error('the stored outbound secret key is damaged; set webhooks.outbound.secretKey');
  return {
    key: doc.key,
    source: 'database',
    // A database in memory goes with the process, so there is no copy to worry about.
    ...(location.kind === 'server'
      ? {
          warning:
            'webhooks.outbound.secretKey is not set, so the key that encrypts webhook endpoint secrets is kept in the database itself: ' +
            'anyone with a copy of the database can read them. Set webhooks.outbound.secretKey (e.g. secretKey: ${RESTWELL_SECRET_KEY}, 32+ characters) ' +
            'to keep the key outside the database.',
        }
      : {}),
  };
}
