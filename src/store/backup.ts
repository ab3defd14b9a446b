import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { BackupError, type BackupOptions, type BackupSummary } from './backup-file.js';
import { databaseLocation } from './database-location.js';

export { BackupError, type BackupOptions, type BackupSummary } from './backup-file.js';

/**
 * Copies the database a URL names into `file` while servers keep using it: a consistent snapshot
 * (SQLite: VACUUM INTO, one read transaction; PostgreSQL: pg_dump in the snapshot the summary is read in).
 * The file appears whole or not at all. Each engine's code is loaded on demand, as openStore does.
 */
export async function backupDatabase(url: string, file: string, options: BackupOptions = {}): Promise<BackupSummary> {
  const location = databaseLocation(url);
  if (location.kind === 'memory') throw new BackupError('a database in memory lives only as long as its server and cannot be backed up; use a file (--db ./data/restwell.db)');
  if (!options.force && existsSync(file)) throw new BackupError(`${file} exists; nothing was written (--force overwrites it)`);
  // `restwell backup backups/today.db` on a first run: the folder is made, as `serve` makes the database's.
  mkdirSync(dirname(file), { recursive: true });
  if (location.kind === 'server') {
    const { backupPostgres } = await import('./postgres/postgres-backup.js');
    return backupPostgres(url, file, options);
  }
  const { backupSqlite } = await import('./sqlite/sqlite-backup.js');
  return backupSqlite(location.path, file, options);
}

/**
 * Replaces the database a URL names with a backup's content, all or nothing, after checking the
 * backup is a Restwell database this version can serve. Refuses a database that holds data
 * unless `force`, and (SQLite) one a running server has open.
 */
export async function restoreDatabase(url: string, file: string, options: BackupOptions = {}): Promise<BackupSummary> {
  const location = databaseLocation(url);
  if (location.kind === 'memory') throw new BackupError('a database in memory cannot be restored into; name a file (--db ./data/restwell.db)');
  if (!existsSync(file)) throw new BackupError(`no backup at ${file}`);
  if (location.kind === 'server') {
    const { restorePostgres } = await import('./postgres/postgres-backup.js');
    return restorePostgres(url, file, options);
  }
  mkdirSync(dirname(location.path), { recursive: true });
  const { restoreSqlite } = await import('./sqlite/sqlite-backup.js');
  return restoreSqlite(location.path, file, options);
}
