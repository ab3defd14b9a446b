import { existsSync } from 'node:fs';
import { ImportError } from '../json-server/import/import-error.js';
import { configFileDiffers, defaultConfigFile, describePlan, prepareImport, writeConfigFile } from './import-file.js';
import { importInto, readImportMarker } from './import.js';
import { cliCommand } from './invocation.js';
import { redact } from './redact.js';
import { serve, withDataFileDefaults, type ServeOptions } from './serve.js';
import { isWorker } from './workers.js';

/**
 * `restwell serve db.json`: imports a json-server data file on first start, and again (replacing
 * those collections' records) whenever the file has changed since its last import (the database
 * keeps the file's SHA-256), writes the inferred config next to it, then serves that config. Writes
 * go to the database, never back to the file.
 */
export async function serveDataFile(file: string, given: ServeOptions): Promise<void> {
  const options = withDataFileDefaults(given);
  // `--workers N`: the primary imported before starting the workers, which serve what it wrote.
  if (isWorker()) return serve({ ...options, config: options.config ?? defaultConfigFile(file) });
  const prepared = prepareImport(file, options);
  process.stderr.write(describePlan(prepared));
  const marker = await readImportMarker(prepared);
  if (!marker && configFileDiffers(prepared.configFile, prepared.configText)) {
    throw new ImportError([`${prepared.configFile} exists with other content; nothing was imported (choose another file with --config, or overwrite it: ${cliCommand()} import ${file} --force)`], file);
  }
  if (marker?.sha256 === prepared.sha256) {
    process.stderr.write(`${file} is unchanged since its import at ${marker.importedAt}: serving what the database holds\n`);
  } else {
    if (marker) process.stderr.write(`${file} changed since its import at ${marker.importedAt}: importing it again (replacing those collections' records)\n`);
    await importInto(prepared, marker !== undefined, `they did not come from this file; to replace them with its rows: ${cliCommand()} import ${file} --force`);
    writeConfigFile(prepared.configFile, prepared.configText);
  }
  // The config is the file's, kept as the user may have edited it; made again only if it is gone.
  if (!existsSync(prepared.configFile)) writeConfigFile(prepared.configFile, prepared.configText);
  process.stderr.write(`Writes go to the database (${redact(prepared.config.database)}), not back to ${file}.\n`);
  await serve({ ...options, config: prepared.configFile });
}
