import type { BackupSummary } from '../store/backup.js';

/**
 * The lines `backup` and `restore` print: size, records per collection, and the backup point (the
 * newest event in the copy), which a user compares with the server's log to know what a restore keeps.
 */
export function describeBackup(summary: BackupSummary): string[] {
  const entries = Object.entries(summary.collections);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const lines = [
    `  size: ${formatBytes(summary.bytes)}`,
    `  records: ${total}${entries.length ? ` (${entries.map(([c, n]) => `${c}: ${n}`).join(', ')})` : ''}`,
    summary.lastEvent
      ? `  backup point: event #${summary.lastEvent.seq} ${summary.lastEvent.id} (${summary.lastEvent.type}) at ${summary.lastEvent.at}`
      : '  backup point: no events yet',
  ];
  return lines;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
