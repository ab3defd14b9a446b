import type { Store } from '../store.js';

/** PostgreSQL engine: not built yet (issue 4). */
export class PostgresStore {
  static async connect(_url: string): Promise<Store> {
    throw new Error('The PostgreSQL engine is not available in this build yet; use an SQLite path for DATABASE_URL.');
  }
}
