import { existsSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ImportError } from '../json-server/import/import-error.js';
import { configFileDiffers, defaultConfigFile, describePlan, prepareImport, writeConfigFile } from './import-file.js';
import { importInto, readImportMarker, refuseLostWrites } from './import.js';
import { cliCommand } from './invocation.js';
import { redact } from './redact.js';
import { serve, withDataFileDefaults, type ServeOptions } from './serve.js';
import { isWorker } from './workers.js';

/** json-server's own port and interface: what a front-end written against it expects. */
const JSON_SERVER_PORT = 3000;
const JSON_SERVER_HOST = '127.0.0.1';

/** Options of `restwell serve <data-file>`. */
export interface ServeDataFileOptions extends ServeOptions {
  /** Import the file again even when unchanged, or when that loses records written through the API. */
  force?: boolean;
}

/**
 * `restwell serve db.json`: imports a json-server data file on first start, and again (replacing
 * those collections' records) whenever the file has changed since its last import (the database
 * keeps the file's SHA-256), unless records were written through the API since: then it refuses,
 * counting them, until they are exported or `--force` says to replace them. Writes the inferred
 * config next to the file, then serves that config as a drop-in for json-server: port 3000 and
 * loopback by default, and writes open to this machine (see openLocalWrites). Writes go to the
 * database, never back to the file.
 */
export async function serveDataFile(file: string, given: ServeDataFileOptions): Promise<void> {
  const options = withDataFileDefaults(given);
  const configFile = options.config ?? defaultConfigFile(file);
  const listen = dropInListen(options, configFile);
  // `--workers N`: the primary imported before starting the workers, which serve what it wrote.
  if (isWorker()) return serve({ ...options, ...listen, config: configFile }, { openLocalWrites: true });
  const prepared = prepareImport(file, { ...options, ...listen });
  process.stderr.write(describePlan(prepared));
  const marker = await readImportMarker(prepared);
  if (!marker && !options.force && configFileDiffers(prepared.configFile, prepared.configText)) {
    throw new ImportError([`${prepared.configFile} exists with other content; nothing was imported (choose another file with --config, or overwrite it: ${cliCommand()} import ${file} --force)`], file);
  }
  if (marker?.sha256 === prepared.sha256 && !options.force) {
    process.stderr.write(`${file} is unchanged since its ${marker.kind === 'export' ? 'export' : 'import'} at ${marker.importedAt}: serving what the database holds\n`);
  } else {
    if (marker && !options.force) await refuseLostWrites(prepared, marker, options, 'serve');
    if (marker) process.stderr.write(`${file} ${marker.sha256 === prepared.sha256 ? 'is imported again (--force)' : `changed since its ${marker.kind === 'export' ? 'export' : 'import'} at ${marker.importedAt}: importing it again`} (replacing those collections' records)\n`);
    await importInto(prepared, marker !== undefined || options.force === true, `to replace them with its rows: ${cliCommand()} serve ${file} --force`);
    writeConfigFile(prepared.configFile, prepared.configText);
  }
  // The config is the file's, kept as the user may have edited it; made again only if it is gone.
  if (!existsSync(prepared.configFile)) writeConfigFile(prepared.configFile, prepared.configText);
  process.stderr.write(`Writes go to the database (${redact(prepared.config.database)}), not back to ${file} (save them to a file: ${cliCommand()} export FILE.json).\n`);
  await serve({ ...options, ...listen, config: prepared.configFile }, { openLocalWrites: true });
}

/**
 * json-server's port (3000) and interface (127.0.0.1) unless a flag, the environment (PORT, HOST)
 * or the config file's `server` says otherwise.
 */
export function dropInListen(options: ServeOptions, configFile: string, env: NodeJS.ProcessEnv = process.env): { port?: number; host?: string } {
  const server = configServer(configFile);
  return {
    port: options.port ?? (env.PORT || server.port !== undefined ? undefined : JSON_SERVER_PORT),
    host: options.host ?? (env.HOST || server.host !== undefined ? undefined : JSON_SERVER_HOST),
  };
}

/** The `server` section of a config file as written (empty when there is no file yet, or it cannot be read: serving reports that). */
function configServer(file: string): { port?: unknown; host?: unknown } {
  try {
    const text = readFileSync(file, 'utf8');
    const raw = (extname(file) === '.json' ? JSON.parse(text) : parseYaml(text)) as { server?: { port?: unknown; host?: unknown } } | null;
    return raw?.server ?? {};
  } catch {
    return {};
  }
}
