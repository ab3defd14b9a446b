import { StoreFullError, StoreUnavailableError } from '../errors.js';

/** The extended result code of a better-sqlite3 failure (`SQLITE_CONSTRAINT_UNIQUE`…), if it has one. */
export function sqliteCode(err: unknown): string {
  return String((err as { code?: unknown }).code ?? '');
}

/** SQLITE_BUSY and its extended codes: another connection holds a lock we need. */
export function isBusy(err: unknown): boolean {
  return sqliteCode(err).startsWith('SQLITE_BUSY');
}

/** A write that found the database locked by another process for too long (→ 503 + Retry-After). */
export function lockedOut(): StoreUnavailableError {
  return new StoreUnavailableError('the database is locked by another process; retry shortly', 1);
}

/**
 * SQLITE_FULL (the disk or filesystem has no room for the database, its WAL or a temporary file)
 * becomes StoreFullError (→ 507 + Retry-After); other errors pass through.
 */
export function fullOr(err: unknown): unknown {
  return sqliteCode(err) === 'SQLITE_FULL' ? new StoreFullError('SQLITE_FULL: database or disk is full') : err;
}
