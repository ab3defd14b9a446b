import type { Store } from './store.js';

/** True for a `postgres://` or `postgresql://` database URL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens the engine a database URL names: PostgreSQL for `postgres://…`, otherwise an SQLite file
 * path or `sqlite:` URL. The only place that chooses an engine by name.
 */
export async function openStore(url: string): Promise<Store> {
  if (isPostgresUrl(url)) {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return PostgresStore.connect(url);
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  return new SqliteStore(url);
}
