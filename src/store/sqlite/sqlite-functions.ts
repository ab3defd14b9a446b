import type { Database } from 'better-sqlite3';
import { fold, FOLD_FUNCTION } from '../../core/fold.js';

/**
 * SQL functions Restwell's shared queries call, registered on the connection. SQLite's own
 * `lower()` folds ASCII only, so `rw_fold` is core/fold.ts itself: the same folding PostgreSQL's
 * `rw_fold` does (see postgres-functions.ts). No index or stored view uses it, so the database
 * stays readable by any SQLite tool that lacks it.
 */
export function registerSqliteFunctions(db: Database): void {
  db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? fold(value) : value));
}
