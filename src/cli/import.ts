import { ImportError } from '../json-server/import/import-error.js';
import { importMarker, loadImport, type ImportMarker } from '../json-server/import/load-import.js';
import { ImportRefusedError, SchemaSyncError, StoreUnavailableError } from '../store/errors.js';
import { openStore } from '../store/open.js';
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
  if (!options.force && (await readImportMarker(prepared))?.sha256 === prepared.sha256) {
    process.stderr.write(`${file} is already imported and unchanged since; nothing to do (--force imports it again)\n`);
  } else {
    await importInto(prepared, options.force === true);
  }
  writeConfigFile(prepared.configFile, prepared.configText);
  const db = prepared.config.database === DEFAULTS.database ? '' : ` --db ${redact(prepared.config.database)}`;
  process.stderr.write(`Wrote ${prepared.configFile}. Serve it:  ${cliCommand()} serve --config ${prepared.configFile}${db}\n`);
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
    if (err instanceof ImportRefusedError) throw new ImportError([`${err.message} (${forceHint})`], prepared.source);
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
