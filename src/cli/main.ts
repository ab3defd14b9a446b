import { Command, InvalidArgumentError } from 'commander';
import { ConfigError } from '../config/load.js';
import { configSchema } from '../config/schema.js';
import { ImportError } from '../json-server/import/import-error.js';
import { SchemaSyncError, StoreFullError, StoreUnavailableError } from '../store/errors.js';
import { clientsCommand } from './clients.js';
import { keysCommand } from './keys.js';
import { openapi } from './openapi.js';
import { serve } from './serve.js';
import { importCommand } from './import.js';
import { serveDataFile, type ServeDataFileOptions } from './import-serve.js';
import { exportCommand } from './export.js';
import { backupCommand } from './backup.js';
import { restoreCommand } from './restore.js';
import { hooksSend } from './hooks.js';
import { hooksListen } from './hooks-listen.js';
import { StartupError } from './startup-error.js';
import { PACKAGE } from '../app/openapi/document.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InvalidArgumentError('must be a whole number from 1 to 256');
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of seconds (0 or more)');
  return n;
}

const program = new Command('restwell')
  .description('Resource-oriented HTTP API server with a webhook hub')
  .version(PACKAGE.version, '-V, --version', 'print the version')
  .showHelpAfterError();

program
  .command('serve')
  .description('serve the API (the built-in demo when no config is given)')
  .argument('[data-file]', 'a json-server db.json: imported (on first start, or when it changed) and served as json-server does (port 3000, 127.0.0.1, writes open to this machine); writes go to the database, not to the file')
  .option('-c, --config <file>', 'config file (YAML or JSON); env RESTWELL_CONFIG; with a data file, where its inferred config is written')
  .option('-p, --port <port>', 'port to listen on; env PORT', port)
  .option('-H, --host <host>', 'interface to listen on; env HOST')
  .option('--db <url>', 'SQLite path or postgres:// URL; env DATABASE_URL')
  .option('-w, --workers <n>', 'processes sharing the port (node:cluster); default 1', positive)
  .option('--db-wait <seconds>', 'keep retrying an unreachable database at start this long; default 30', seconds)
  .option('-f, --force', 'with a data file: import it again even if that replaces records written through the API since its last import')
  .option('--static <dir>', 'serve the files of this folder beside the API (a front-end); config server.static; with a data file, default ./public when it exists')
  .option('--allow-local-webhooks', 'let outbound webhooks reach this machine (127.0.0.1, ::1) for a local receiver such as `restwell hooks listen`; development only, never the default')
  .action((file: string | undefined, options: ServeDataFileOptions) => (file ? serveDataFile(file, options) : serve(options)));

program
  .command('import')
  .description('import a json-server db.json: infer resources, load the rows into the database, write the config')
  .argument('<data-file>', 'the json-server data file (an object of collections: arrays of objects with ids)')
  .option('--db <url>', 'SQLite path or postgres:// URL; env DATABASE_URL; default ./data/restwell.db')
  .option('-c, --config <file>', 'where to write the inferred config; default next to the data file (db.json → db.restwell.yaml)')
  .option('-f, --force', 'replace the records of collections that hold some, and overwrite a different config file')
  .action(importCommand);

program
  .command('export')
  .description('write the database back as a json-server data file (collections as arrays of rows, with their timestamps)')
  .argument('<data-file>', 'the file to write (whole or not at all)')
  .option('-c, --config <file>', 'the config naming the resources; env RESTWELL_CONFIG; default next to the file (db.json → db.restwell.yaml)')
  .option('--db <url>', 'SQLite path or postgres:// URL; env DATABASE_URL; default the config\'s')
  .option('-f, --force', 'overwrite the file if it exists')
  .action(exportCommand);

program
  .command('backup')
  .description('copy the database to a file while servers keep serving it (SQLite: a consistent snapshot; PostgreSQL: pg_dump)')
  .argument('<file>', 'the backup file to write (whole or not at all)')
  .option('-c, --config <file>', 'config file naming the database; env RESTWELL_CONFIG')
  .option('--db <url>', 'SQLite path or postgres:// URL; env DATABASE_URL')
  .option('-f, --force', 'overwrite the file if it exists')
  .action(backupCommand);

program
  .command('restore')
  .description('replace the database with a backup made by `restwell backup` (stop the server first)')
  .argument('<file>', 'the backup file')
  .option('-c, --config <file>', 'config file naming the database; env RESTWELL_CONFIG')
  .option('--db <url>', 'SQLite path or postgres:// URL; env DATABASE_URL')
  .option('-f, --force', 'replace a database that exists (and holds data)')
  .action(restoreCommand);

program
  .command('openapi')
  .description('print the OpenAPI 3.1 document of the API (needs no database)')
  .option('-c, --config <file>', 'config file (YAML or JSON); env RESTWELL_CONFIG')
  .option('-o, --output <file>', 'write it to this file instead of stdout')
  .action(openapi);

program.addCommand(keysCommand());
program.addCommand(clientsCommand());

const hooks = program.command('hooks').description('webhooks: send signed test deliveries, receive the server\'s own deliveries locally');
hooks
  .command('send <source>')
  .description('send a realistic, correctly signed delivery for a configured source to a running server')
  .option('-f, --file <file>', 'the provider payload to send (signed as is)')
  .option('-t, --text <text>', 'the message text (SMS) or e-mail body and subject')
  .option('-u, --url <url>', 'where the server listens', 'http://localhost:8080')
  .option('-c, --config <file>', 'config file with the source (and its secrets); env RESTWELL_CONFIG')
  .option('--db <url>', 'database of the demo server (its generated secrets are kept next to it)')
  .action(hooksSend);
hooks
  .command('listen')
  .description('a local receiver for outbound webhooks: verifies each delivery\'s signature and prints it')
  .option('-p, --port <port>', 'port to listen on', port, 9000)
  .option('-H, --host <host>', 'interface to listen on', '127.0.0.1')
  .option('-s, --secret <secret>', 'the endpoint\'s whsec_ signing secret (a new one is made and printed when omitted)')
  .option('-u, --url <url>', 'the Restwell server (for the printed curl and --register); default from --config or PORT, else http://localhost:8080')
  .option('-c, --config <file>', 'the server\'s config file (its server.port and host); env RESTWELL_CONFIG')
  .option('-r, --register', 'create the endpoint on the server (deleted again on Ctrl-C); the server must allow local webhooks')
  .option('--token <token>', 'for --register: a token with webhooks:write; env RESTWELL_TOKEN')
  .action(hooksListen);

program
  .command('config-schema')
  .description('print the JSON Schema of the config file')
  .action(() => {
    process.stdout.write(JSON.stringify(configSchema, null, 2) + '\n');
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof InvalidArgumentError || err instanceof ConfigError || err instanceof ImportError || err instanceof SchemaSyncError || err instanceof StoreUnavailableError || err instanceof StoreFullError || err instanceof StartupError) {
    process.stderr.write(`restwell: ${err.message}\n`);
  } else if (isEnvironmentError(err)) {
    // The file system refused (a database path that cannot be created or opened): not a bug, no stack.
    process.stderr.write(`restwell: ${(err as Error).message}\n`);
  } else {
    process.stderr.write(`restwell: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});

/** Errors the machine raises about files (permissions, a read-only or full disk, SQLite unable to open its file). */
function isEnvironmentError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_NOTADB'].includes(code);
}
