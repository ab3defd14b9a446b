import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, unlinkSync, type WriteStream } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { writeDataFile } from '../json-server/export/write-data-file.js';
import { IMPORT_MARKER, type ImportMarker } from '../json-server/import/load-import.js';
import { BackupError, placeFile } from '../store/backup-file.js';
import { openStore } from '../store/open.js';
import { StartupError } from './startup-error.js';
import { defaultConfigFile } from './import-file.js';
import { redact } from './redact.js';

/** Options of `restwell export <file>`. */
export interface ExportCommandOptions {
  config?: string;
  db?: string;
  force?: boolean;
}

/**
 * `restwell export db.json`: writes the database's records as a json-server data file (see
 * writeDataFile), whole or not at all: into a temporary file beside it, then moved into place,
 * never over an existing file without --force. The database remembers the export as it remembers
 * an import (the file's SHA-256, when, how many records), so `serve` of that file finds it
 * unchanged, and a changed data file may be imported again without losing what was exported.
 */
export async function exportCommand(file: string, options: ExportCommandOptions): Promise<void> {
  if (!options.force && existsSync(file)) throw new StartupError(`${file} exists; nothing was written (--force overwrites it)`);
  const configFile = options.config ?? process.env.RESTWELL_CONFIG ?? defaultConfigFile(file);
  if (!existsSync(configFile)) {
    throw new StartupError(`no config at ${configFile} to say which resources to export; name it with --config (serve db.json writes db.restwell.yaml next to db.json)`);
  }
  const config = loadConfig({ file: configFile, overrides: { database: options.db } });
  const resources = defineResources(config);
  const store = await openStore(config.database);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  let out: WriteStream | undefined;
  try {
    // As serve does at start: a resource the database has no table for yet is exported empty, and a
    // config the tables cannot match without losing data is refused (SchemaSyncError) before any file is made.
    await store.sync(resources, { allowDestructive: false });
    // Anything the API writes from now on is newer than the file: the baseline is taken before the first read.
    const exportedAt = new Date().toISOString();
    const hash = createHash('sha256');
    out = createWriteStream(temp, { flags: 'wx' });
    const stream = out;
    const counts = await writeDataFile(store, resources, async (chunk) => {
      hash.update(chunk);
      if (!stream.write(chunk)) await once(stream, 'drain');
    });
    stream.end();
    await once(stream, 'close');
    try {
      placeFile(temp, file, options.force ?? false);
    } catch (err) {
      if (err instanceof BackupError) throw new StartupError(err.message);
      throw err;
    }
    const marker: ImportMarker = { sha256: hash.digest('hex'), importedAt: exportedAt, collections: Object.keys(counts), counts, kind: 'export' };
    await store.putDocument(IMPORT_MARKER, resolve(file), { ...marker });
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    process.stderr.write(`Exported ${total} record${total === 1 ? '' : 's'} (${Object.entries(counts).map(([c, n]) => `${c}: ${n}`).join(', ')}) from ${redact(config.database)} to ${file}\n`);
  } finally {
    out?.destroy();
    if (existsSync(temp)) unlinkSync(temp);
    await store.close();
  }
}
