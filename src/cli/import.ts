import { basename, dirname, extname, join } from 'node:path';
import { ImportError } from '../json-server/import/import-error.js';
import { apiWritesSince, describeWrites, heldRecords, lostRecords, type CollectionWrites } from '../json-server/import/api-writes.js';
import { importMarker, loadImport, type ImportMarker } from '../json-server/import/load-import.js';
import { ImportRefusedError, SchemaSyncError, StoreUnavailableError } from '../store/errors.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';
import { configFileDiffers, describePlan, prepareImport, writeConfigFile, type PreparedImport } from './import-file.js';
import { importProgress } from './import-progress.js';
import { cliCommand } from './invocation.js';
import { redact } from './redact.js';
import { DEFAULTS } from '../config/defaults.js';
import { defineResources } from '../core/resource.js';

/** Options of `restwell import <file>`. */
export interface ImportCommandOptions {
  db?: string;
  config?: string;
  force?: boolean;
}

/**
 * `restwell import db.json`: infers resources from a json-server data file, loads its rows into
 * the database (all collections in one transaction) and writes the config file that serves them.
 */
export async function importCommand(file: string, options: ImportCommandOptions): Promise<void> {
  const prepared = prepareImport(file, options);
  process.stderr.write(describePlan(prepared));
  if (!options.force && configFileDiffers(prepared.configFile, prepared.configText)) {
    throw new ImportError([`${prepared.configFile} exists with other content; nothing was imported (--force overwrites it, or choose another file with --config)`], file);
  }
  const marker = await readImportMarker(prepared);
  if (!options.force && marker?.sha256 === prepared.sha256) {
    process.stderr.write(`${file} is already imported and unchanged since; nothing to do (--force imports it again)\n`);
  } else {
    // A file imported before is loaded again over its collections, unless the API wrote to them since.
    if (marker && !options.force) await refuseLostWrites(prepared, marker, options);
    await importInto(prepared, marker !== undefined || options.force === true);
  }
  writeConfigFile(prepared.configFile, prepared.configText);
  const db = prepared.config.database === DEFAULTS.database ? '' : ` --db ${redact(prepared.config.database)}`;
  process.stderr.write(`Wrote ${prepared.configFile}. Serve it:  ${cliCommand()} serve --config ${prepared.configFile}${db}\n`);
}

/**
 * Throws an ImportError when re-importing the prepared file would delete or overwrite records
 * written through the API since the database last matched a file (see apiWritesSince), saying how
 * many per collection and the two ways on: export them first, or --force.
 */
export async function refuseLostWrites(prepared: PreparedImport, marker: ImportMarker, options: { db?: string; config?: string }, command = 'import'): Promise<void> {
  const store = await openStore(prepared.config.database);
  let writes: CollectionWrites[];
  try {
    writes = await apiWritesSince(store, prepared.path, marker, prepared.plan.collections.map((c) => c.name));
  } finally {
    await store.close();
  }
  const lost = lostRecords(writes);
  if (!lost) {
    // Replacing records that an export saved elsewhere is no loss, but worth a line: the user may not remember that file.
    for (const w of writes) {
      if (w.file && w.file !== prepared.path) process.stderr.write(`${w.collection}: its records as of ${w.since} are in ${w.file} (exported then), and the API wrote nothing to it since\n`);
    }
    return;
  }
  const file = prepared.source;
  const saved = join(dirname(file), `${basename(file, extname(file))}.current.json`);
  const flags = `${options.config ? ` --config ${options.config}` : ''}${options.db ? ` --db ${redact(options.db)}` : ''}`;
  throw new ImportError(
    [
      `it changed since its ${marker.kind === 'export' ? 'export' : 'import'} at ${marker.importedAt}, and importing it again would lose ${lost} record${lost === 1 ? '' : 's'} written through the API since (${describeWrites(writes)}); nothing was imported`,
      `to keep them, save the database as a json-server file first: ${cliCommand()} export ${saved} --config ${prepared.configFile}${options.db ? ` --db ${redact(options.db)}` : ''} (then make your change in that file, and serve it or copy it over ${file})`,
      `to replace them with ${file} anyway: ${cliCommand()} ${command} ${file}${flags} --force`,
    ],
    file,
  );
}

/** The database's record of the last import of this file (its hash and when), if any. */
export async function readImportMarker(prepared: PreparedImport): Promise<ImportMarker | undefined> {
  const store = await openStore(prepared.config.database);
  try {
    return await importMarker(store, prepared.path);
  } finally {
    await store.close();
  }
}

/**
 * Loads a prepared import, reporting progress, and remembers the file's hash in the database.
 * `replace` empties the collections first (and lets their tables change shape); `forceHint` says how to ask for that.
 */
export async function importInto(prepared: PreparedImport, replace: boolean, forceHint = '--force replaces their records'): Promise<void> {
  const store = await openStore(prepared.config.database);
  const started = performance.now();
  const progress = importProgress(new Map(prepared.plan.collections.map((c) => [c.name, c.rows.length])));
  try {
    await loadImport(store, defineResources(prepared.config), prepared.plan, {
      source: prepared.source,
      replace,
      maxJsonDepth: prepared.config.server.maxJsonDepth,
      recordLimit: prepared.config.server.recordLimit,
      onProgress: progress.onProgress,
      marker: { file: prepared.path, sha256: prepared.sha256 },
    });
    progress.finish();
    const rows = prepared.plan.collections.reduce((n, c) => n + c.rows.length, 0);
    process.stderr.write(`Imported ${rows} rows into ${redact(prepared.config.database)} in ${((performance.now() - started) / 1000).toFixed(2)} s (no events written: a bulk load notifies no webhook subscribers)\n`);
  } catch (err) {
    progress.finish();
    if (err instanceof ImportRefusedError) throw new ImportError([`${await describeHeld(store, err.resources)}; nothing was imported (${forceHint})`], prepared.source);
    if (err instanceof SchemaSyncError && !replace) throw new ImportError([`${err.problems.join('; ')}; nothing was imported (--force replaces the records and the tables' shape)`], prepared.source);
    // A statement the database refused (the driver's errors carry a code) rolled the one transaction back:
    // e.g. records of a resource outside the file still refer to records --force would replace.
    if (err instanceof Error && !(err instanceof StoreUnavailableError) && typeof (err as { code?: unknown }).code === 'string') {
      throw new ImportError([`the database refused it, so nothing was imported: ${err.message}`], prepared.source);
    }
    throw err;
  } finally {
    await store.close();
  }
}

/** `authors, posts already hold records this file did not put there (authors: 1, posts: 2)`, for a refused first import. */
async function describeHeld(store: Store, collections: string[]): Promise<string> {
  const held = await heldRecords(store, collections);
  return `${collections.join(', ')} already ${collections.length === 1 ? 'holds' : 'hold'} records this file did not put there (${held.map((h) => `${h.collection}: ${h.records}`).join(', ')})`;
}
