import { restoreDatabase } from '../store/backup.js';
import { databaseOf, refusalsAsStartupErrors, type BackupCommandOptions } from './backup.js';
import { describeBackup } from './backup-summary.js';
import { redact } from './redact.js';

/**
 * `restwell restore <file>`: replaces the database `serve` would use with a backup made by
 * `restwell backup`, all or nothing (see restoreDatabase), and prints what it now holds.
 */
export async function restoreCommand(file: string, options: BackupCommandOptions): Promise<void> {
  const database = databaseOf(options);
  const summary = await refusalsAsStartupErrors(() => restoreDatabase(database, file, { force: options.force }));
  process.stdout.write([`Restored ${file} into ${redact(database)}`, ...describeBackup(summary)].join('\n') + '\n');
}
