import { closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a backup holds, or what a restore put back: read from the copy itself, so it is exactly what the file holds. */
export interface BackupSummary {
  /** The backup file's size in bytes. */
  bytes: number;
  /** Records per collection. */
  collections: Record<string, number>;
  /**
   * The backup point: the newest event in the copy (every record write appends one). Every write
   * acknowledged before the backup started is at or before it; none after it is in the copy.
   * Undefined when the log is empty.
   */
  lastEvent?: { seq: number; id: string; type: string; at: string };
}

/** Options of a backup or restore. */
export interface BackupOptions {
  /** Replace an existing backup file (backup), or a database that holds data (restore). */
  force?: boolean;
}

/** A backup or restore refused for a reason the message states with its fix (printed as one line, no stack). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** Flushes a finished file to disk (SQLite does not fsync what VACUUM INTO writes, nor does a copy). */
export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Moves a finished temporary file to its name, durably (the directory entry is flushed too): over
 * an existing file only when `replace`, otherwise a file that appeared meanwhile is kept and refused
 * (a hard link fails on an existing name, where a rename would replace it).
 */
export function placeFile(temp: string, file: string, replace: boolean): void {
  if (replace) renameSync(temp, file);
  else {
    try {
      linkSync(temp, file);
      unlinkSync(temp);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new BackupError(`${file} exists; nothing was written (--force overwrites it)`);
      // A file system without hard links: checked, then renamed.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
      if (existsSync(file)) throw new BackupError(`${file} exists; nothing was written (--force overwrites it)`);
      renameSync(temp, file);
    }
  }
  try {
    fsyncFile(dirname(file));
  } catch {
    // Some file systems cannot fsync a directory; the rename itself is still atomic.
  }
}
