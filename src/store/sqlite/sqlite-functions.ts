import type { Database } from 'better-sqlite3';
import { fold, FOLD_FUNCTION } from '../../core/fold.js';

/**
 * SQL functions Restwell's shared queries call, registered on the connection. SQLite's own
 * `lower()` folds ASCII only, so `rw_fold` is core/fold.ts itself: the same folding PostgreSQL's
 * `rw_fold` does (see postgres-functions.ts). Only the triggers that keep search indexes up to date
 * call it (sqlite-search-index.ts): any SQLite tool can read the database, and one that writes a
 * search field must register it.
 */
export function registerSqliteFunctions(db: Database): void {
  db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? fold(value) : value));
}
