import { databaseLocation } from './database-location.js';
import type { Store } from './store.js';

/**
 * Opens the engine a database URL names: PostgreSQL for a server (`postgres://…`), otherwise
 * SQLite (a file, or memory). The only place that chooses an engine; each is loaded on demand, so
 * a process never loads the driver of an engine it does not use.
 */
export async function openStore(url: string): Promise<Store> {
  if (databaseLocation(url).kind === 'server') {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return PostgresStore.connect(url);
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  return new SqliteStore(url);
}
