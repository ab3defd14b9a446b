import { statfsSync } from 'node:fs';
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
 * becomes StoreFullError (→ 507 + Retry-After), and so does an I/O error (growing the -shm file,
 * writing a page) while the filesystem of `dir`, the database's directory, has no free block
 * left: SQLite reports ENOSPC as SQLITE_FULL only on some paths. Other errors pass through.
 */
export function fullOr(err: unknown, dir?: string): unknown {
  const code = sqliteCode(err);
  if (code === 'SQLITE_FULL') return new StoreFullError('SQLITE_FULL: database or disk is full');
  if (code.startsWith('SQLITE_IOERR') && dir !== undefined && noSpaceIn(dir)) return new StoreFullError(`${code}: no space left on the filesystem of ${dir}`);
  return err;
}

function noSpaceIn(dir: string): boolean {
  try {
    return statfsSync(dir).bavail === 0;
  } catch {
    return false;
  }
}
