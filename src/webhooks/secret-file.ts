import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Files of generated secrets kept next to a file database (the demo's webhook secrets, the key
 * that seals outbound endpoint secrets): readable by the owner only, and written whole or not at
 * all, since several processes (`serve --workers`) may start at once.
 */

/** The file's text, or undefined when there is no such file. */
export function readSecretFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

// The text goes to a temporary file first (mode 0600 from the start), so no reader ever sees half of it.
function writeTemp(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  chmodSync(temp, 0o600); // the umask may have narrowed the mode; never widened, but be exact.
  return temp;
}

/** Writes (or replaces) a secret file, mode 0600, creating its folder. */
export function writeSecretFile(path: string, text: string): void {
  renameSync(writeTemp(path, text), path);
}

/**
 * The text of a secret file, created with `make()` when absent. Processes racing to create it
 * agree on the first one written: a hard link fails when the name exists, where a rename would
 * replace it.
 */
export function secretFileOnce(path: string, make: () => string): string {
  const existing = readSecretFile(path);
  if (existing !== undefined) return existing;
  const temp = writeTemp(path, make());
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  return readFileSync(path, 'utf8');
}
