import { dirname } from 'node:path';

/**
 * Where a database URL points: a database server (`postgres://…`), memory, or a file (an SQLite
 * file path, `sqlite:` or `file:` URL). Only URL text is read here, never a driver, so callers that
 * need no database (the demo's secrets, the CLI) do not load an engine.
 */
export type DatabaseLocation = { kind: 'server'; url: string } | { kind: 'memory' } | { kind: 'file'; path: string };

/** Reads a database URL: `postgres://` / `postgresql://`, `:memory:`, `sqlite:./x.db`, `sqlite:///abs.db`, `file:x.db` or a plain path. */
export function databaseLocation(url: string): DatabaseLocation {
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'server', url };
  if (url === ':memory:' || url === 'sqlite::memory:') return { kind: 'memory' };
  return { kind: 'file', path: url.replace(/^sqlite:(\/\/)?/, '').replace(/^file:/, '') };
}

/** The file of a file database; undefined for a database server or one in memory. */
export function databaseFile(url: string): string | undefined {
  const location = databaseLocation(url);
  return location.kind === 'file' ? location.path : undefined;
}

/** The folder a file database lives in; undefined for a database server or one in memory. */
export function databaseDirectory(url: string): string | undefined {
  const file = databaseFile(url);
  return file === undefined ? undefined : dirname(file);
}
