import { copyFileSync, existsSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { BackupError, fsyncFile, placeFile, type BackupOptions, type BackupSummary } from '../backup-file.js';
import { createSqliteTables } from './sqlite-tables.js';

/** Tables every Restwell database has had since its first release: their absence means another application's file. */
const RESTWELL_TABLES = ['_rw_schema', '_rw_events'];

/**
 * Copies a SQLite database with `VACUUM INTO`, which reads it in ONE read transaction: in WAL
 * mode that snapshot never blocks the server's writers (nor do they disturb it), so the copy is
 * consistent while the server keeps serving. The online backup API (better-sqlite3's
 * `db.backup()`) was not chosen: it copies pages in steps and starts over whenever another
 * connection (the server's) commits between two steps, so under steady writes it may never finish.
 * The copy is written beside the target, flushed, checked (`PRAGMA integrity_check`), summarized,
 * then moved into place.
 */
export function backupSqlite(path: string, file: string, options: BackupOptions): BackupSummary {
  if (!existsSync(path)) throw new BackupError(`no database at ${path}; name it with --db or the config's database`);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  // Read-only: a backup never changes the database it copies; the busy timeout covers the moments a
  // checkpoint or WAL recovery needs the file (reads otherwise take no lock in WAL mode).
  const source = openExisting(path, { readonly: true, timeout: 5000 });
  try {
    assertRestwell(source, path);
    if (existsSync(temp)) unlinkSync(temp);
    source.prepare('VACUUM INTO ?').run(temp);
  } catch (err) {
    if (existsSync(temp)) unlinkSync(temp);
    throw err;
  } finally {
    source.close();
  }
  try {
    // A standalone file: rollback journal (no -wal beside it); the server turns WAL back on when it opens a restored copy.
    const copy = new BetterSqlite3(temp);
    let summary: Omit<BackupSummary, 'bytes'>;
    try {
      copy.pragma('journal_mode = DELETE');
      assertIntact(copy, 'the copy');
      summary = summarize(copy);
    } finally {
      copy.close();
    }
    fsyncFile(temp);
    placeFile(temp, file, options.force ?? false);
    return { bytes: statSync(file).size, ...summary };
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
}

/**
 * Replaces the database at `path` with the backup in `file`: copied beside the target, checked
 * (a SQLite file, Restwell's tables, integrity), brought up to this version's own tables as a
 * server's start would, then renamed over the target while an exclusive lock on the old database
 * proves no server has it open (a server's connection keeps a shared hold on the WAL index, so the
 * lock is refused while one runs, even an idle one). The old -wal and -shm go with it.
 */
export function restoreSqlite(path: string, file: string, options: BackupOptions): BackupSummary {
  const backup = openExisting(file, { readonly: true });
  try {
    assertRestwell(backup, file);
  } finally {
    backup.close();
  }
  const hasData = existsSync(path);
  if (hasData && !options.force) throw new BackupError(`${path} exists; a restore replaces it: stop the server and add --force (or restore into a new --db)`);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.restore`);
  copyFileSync(file, temp);
  let lock: Database | undefined;
  try {
    const copy = new BetterSqlite3(temp);
    let summary: Omit<BackupSummary, 'bytes'>;
    try {
      copy.pragma('journal_mode = DELETE');
      assertIntact(copy, file);
      // A backup made by an earlier version gains the columns this one's tables have (never the reverse: none are dropped).
      createSqliteTables(copy);
      summary = summarize(copy);
    } finally {
      copy.close();
    }
    fsyncFile(temp);
    if (hasData) lock = lockExclusively(path);
    for (const stale of [`${path}-wal`, `${path}-shm`, `${path}-journal`]) if (existsSync(stale)) unlinkSync(stale);
    placeFile(temp, path, true);
    return { bytes: statSync(path).size, ...summary };
  } finally {
    lock?.close();
    if (existsSync(temp)) unlinkSync(temp);
  }
}

/**
 * Takes the old database for good (exclusive locking mode keeps the lock until close), or says a
 * server has it open. Its WAL is folded back and removed (journal mode DELETE), so nothing of the
 * old database is left beside the new file to be replayed into it.
 */
function lockExclusively(path: string): Database {
  const db = new BetterSqlite3(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    db.pragma('journal_mode = DELETE');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new BackupError(`${path} is in use (a running server, or another process, has it open); stop it, then restore`);
    }
    throw err;
  }
}

/** Opens a file that must already be a SQLite database; any other file is refused with what it is not. */
function openExisting(path: string, options: { readonly: boolean; timeout?: number }): Database {
  let db: Database;
  try {
    db = new BetterSqlite3(path, { ...options, fileMustExist: true });
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CANTOPEN') throw new BackupError(`cannot open ${path} (no such file, or not readable)`);
    throw err;
  }
  try {
    // The header is read on first use, not on open.
    db.pragma('schema_version');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw new BackupError(`${path} is not a SQLite database (nor a Restwell backup)`);
    throw err;
  }
  return db;
}

function assertRestwell(db: Database, path: string): void {
  const present = new Set((db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[]));
  const missing = RESTWELL_TABLES.filter((t) => !present.has(t));
  if (missing.length) throw new BackupError(`${path} is a SQLite database but not a Restwell one (it has no ${missing.join(' or ')} table)`);
}

function assertIntact(db: Database, what: string): void {
  const problems = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
  if (problems.length !== 1 || problems[0] !== 'ok') throw new BackupError(`${what} is damaged (integrity check: ${problems.slice(0, 3).join('; ')}); nothing was replaced`);
}

/** Records per collection (the resources the schema table lists) and the newest event. */
function summarize(db: Database): Omit<BackupSummary, 'bytes'> {
  const resources = db.prepare('SELECT resource FROM _rw_schema ORDER BY resource').pluck().all() as string[];
  const collections: Record<string, number> = {};
  for (const name of resources) collections[name] = db.prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`).pluck().get() as number;
  const last = db.prepare('SELECT seq, id, type, created_at AS at FROM _rw_events ORDER BY seq DESC LIMIT 1').get() as BackupSummary['lastEvent'];
  return { collections, ...(last ? { lastEvent: last } : {}) };
}
