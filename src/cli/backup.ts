import { loadConfig } from '../config/load.js';
import { backupDatabase, BackupError } from '../store/backup.js';
import { withDemoPlaceholders } from '../webhooks/inbound/demo-secrets.js';
import type { StoreOptions } from './auth-store.js';
import { describeBackup } from './backup-summary.js';
import { redact } from './redact.js';
import { StartupError } from './startup-error.js';

/** Options of `restwell backup <file>` and `restwell restore <file>`: the database `serve` would use. */
export interface BackupCommandOptions extends StoreOptions {
  force?: boolean;
}

/**
 * `restwell backup <file>`: a consistent copy of the database while servers keep serving it
 * (see backupDatabase), then what it holds, on stdout. The database is the one `serve` would
 * use with the same --config / --db / DATABASE_URL.
 */
export async function backupCommand(file: string, options: BackupCommandOptions): Promise<void> {
  const database = databaseOf(options);
  const summary = await refusalsAsStartupErrors(() => backupDatabase(database, file, { force: options.force }));
  process.stdout.write([`Backed up ${redact(database)} to ${file}`, ...describeBackup(summary)].join('\n') + '\n');
}

/** The database URL `serve` would use with these options (the demo's unset secrets are not needed for that). */
export function databaseOf(options: StoreOptions): string {
  return loadConfig({ file: options.config, env: withDemoPlaceholders(), overrides: { database: options.db } }).database;
}

/** A refusal is a message for the user (one line, exit 1), never a stack. */
export async function refusalsAsStartupErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof BackupError) throw new StartupError(err.message);
    throw err;
  }
}
