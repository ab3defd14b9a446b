import { statSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import type { RestwellConfig } from '../config/types.js';
import { loadConfig } from '../config/load.js';
import { createServer, type RestwellServer } from '../app/server.js';
import { flushLog } from '../app/ops/json-log-destination.js';
import { StoreRefusedError, StoreUnavailableError } from '../store/errors.js';
import { listenFailure } from './startup-error.js';
import { isWorker, superviseWorkers } from './workers.js';
import { cliConfigEnv } from '../webhooks/inbound/demo-secrets.js';
import { printBanner } from './startup-banner.js';
import { redact } from './redact.js';
import { exposureWarning } from '../auth/exposure.js';
import type { ResourceDefinition } from '../core/resource.js';
import { openLocalWrites } from './open-local-writes.js';
import { LOOPBACK_ORIGINS } from '../http/cors.js';
import { allowLocalWebhooks } from './hooks-local-delivery.js';
import { loggerFromEnv, prettyLogs, type LoggerSettings } from '../app/ops/logger-from-env.js';
import { settleTickObjects } from './settle-tick-objects.js';

/** Options of `restwell serve`. */
export interface ServeOptions {
  config?: string;
  port?: number;
  host?: string;
  db?: string;
  /** Processes to run (node:cluster); 1 serves in this process. */
  workers?: number;
  /** How long to keep retrying an unreachable database at start, in seconds. */
  dbWait?: number;
  /** A folder of files served beside the API (`--static`; overrides `server.static`). */
  static?: string;
  /** `--allow-local-webhooks`: let outbound deliveries reach this machine's loopback (see allowLocalWebhooks). */
  allowLocalWebhooks?: boolean;
  /** Settings used where the config file says nothing (see withDataFileDefaults). */
  fallbacks?: { static?: string; corsOrigins?: string[] };
}

/**
 * What `serve <file.json>` adds where its config says nothing, as json-server does: the front-end
 * in ./public when that folder exists, and CORS for pages served from this machine on any port (a
 * Vite dev server at http://localhost:5173 calling the API).
 */
export function withDataFileDefaults<T extends ServeOptions>(options: T, cwd = process.cwd()): T {
  const dir = join(cwd, 'public');
  const isFolder = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return { ...options, fallbacks: { ...(isFolder ? { static: dir } : {}), corsOrigins: LOOPBACK_ORIGINS } };
}

/** How `serve` differs when it serves a json-server data file. */
export interface ServeProfile {
  /** On loopback, resources without an `access` block take writes without a token (see openLocalWrites). */
  openLocalWrites?: boolean;
}

/** Starts the server and keeps it running until SIGINT/SIGTERM, then closes cleanly. */
export async function serve(options: ServeOptions, profile: ServeProfile = {}): Promise<void> {
  const env = cliConfigEnv({ file: options.config, database: options.db });
  const loaded = loadConfig({ file: options.config, env, overrides: { port: options.port, host: options.host, database: options.db, static: options.static }, fallbacks: options.fallbacks });
  const opened = profile.openLocalWrites ? openLocalWrites(loaded) : { config: loaded, notice: undefined };
  const local = options.allowLocalWebhooks ? allowLocalWebhooks(opened.config) : undefined;
  const config = local?.config ?? opened.config;
  const { notice } = opened;
  // Said before anything else, in every process mode and whatever the log level: the guard is open.
  if (local && !isWorker()) process.stderr.write(`restwell: ${local.warning}\n`);
  // A busy port is said before the database is opened, created or migrated (workers share the primary's port).
  if (!isWorker()) await checkPort(config.server.port, config.server.host);
  const workers = options.workers ?? 1;
  if (workers > 1 && !isWorker()) return supervise(config, workers, options.dbWait, options.config, notice);
  const logger = loggerFromEnv();
  const server = await startServer(config, options.dbWait, logger);
  const { app } = server;
  if (!isWorker()) {
    for (const line of server.sync.applied) app.log.info(`schema: ${line}`);
    // Data a destructive migration deleted: a warning, whatever LOG_LEVEL hides of the routine steps.
    for (const line of server.sync.destructive) app.log.warn(`schema: ${line}`);
    for (const line of server.sync.notes) app.log.warn(`schema: ${line}`);
  }
  await settleTickObjects();
  try {
    await app.listen({ port: config.server.port, host: config.server.host });
  } catch (err) {
    await server.close().catch(() => undefined);
    throw listenFailure(err, config.server.port, config.server.host);
  }
  if (!isWorker()) {
    // A JSON banner joins the log's own buffered lines (after the schema lines, never between two writes of them), written at once.
    const out = prettyLogs() ? process.stdout : logger.stream;
    banner(config, [...app.restwell.resources.values()], (app.server.address() as { port: number }).port, 1, options.config, notice, out);
    void flushLog(app.log);
  }
  stopOnSignals(server);
}

/**
 * SIGTERM or SIGINT drains and stops the server (see RestwellServer.shutdown), then exits 0; a
 * second signal while draining (Ctrl-C again) exits at once with 1.
 */
function stopOnSignals(server: RestwellServer): void {
  const { app } = server;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: stopping now, without waiting for requests under way`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: draining requests under way (up to ${server.context.config.server.drainTimeoutMs / 1000} s), then stopping`);
    try {
      const { forced } = await server.shutdown();
      if (forced) app.log.warn('requests still under way at the drain timeout (server.drainTimeout) were cut off');
      app.log.info('stopped');
      await flushLog(app.log);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      await flushLog(app.log);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * Fails now, before any schema work, when the port cannot be bound: a busy port should not first
 * create or migrate a database, and in the primary, workers failing to listen one by one would
 * only be restarted, again and again. (Port 0 gives each worker the one port the primary picks.)
 */
async function checkPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(listenFailure(err, port, host)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * `serve --workers N`: the primary syncs the schema once (so workers starting together find
 * nothing to change), then supervises the workers until SIGTERM/SIGINT.
 */
async function supervise(config: RestwellConfig, workers: number, dbWait?: number, configFile?: string, notice?: string): Promise<void> {
  const server = await startServer(config, dbWait);
  const resources = [...server.app.restwell.resources.values()];
  for (const line of server.sync.applied) process.stderr.write(`restwell: schema: ${line}\n`);
  for (const line of server.sync.destructive) process.stderr.write(`restwell: warning: schema: ${line}\n`);
  for (const line of server.sync.notes) process.stderr.write(`restwell: schema: ${line}\n`);
  await server.close();
  const log = { info: (l: string) => process.stderr.write(`restwell: ${l}\n`), warn: (l: string) => process.stderr.write(`restwell: ${l}\n`) };
  await superviseWorkers(workers, log, (port) => banner(config, resources, port, workers, configFile, notice));
  process.exit(0);
}

/**
 * Creates the server, retrying with backoff while the database cannot be reached (a database
 * container still starting, a failover in progress), for up to `waitSeconds` (default 30). Any
 * wait but 0 retries at least once, however long the first attempt took (a slow or loaded machine
 * must not turn `--db-wait 1` into no retry at all); the last wait is cut to what is left.
 */
export async function startServer(config: RestwellConfig, waitSeconds = 30, logger?: LoggerSettings): Promise<RestwellServer> {
  const giveUpAt = Date.now() + waitSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await createServer(config, logger ? { logger } : {});
    } catch (err) {
      // A refusal for good (no such database, wrong password) is reported at once: waiting cannot fix it.
      if (!(err instanceof StoreUnavailableError) || err instanceof StoreRefusedError) throw err;
      const left = giveUpAt - Date.now();
      if (waitSeconds === 0 || (left <= 0 && attempt > 1)) {
        const attempts = `${attempt} attempt${attempt === 1 ? '' : 's'}`;
        const within = waitSeconds === 0 ? `(${attempts}, --db-wait 0)` : `within ${waitSeconds}s (${attempts})`;
        // The cause's own "retry shortly" is advice for a request, not for a start-up that has given up.
        const cause = err.message.replace(/; retry shortly$/, '');
        throw new StoreUnavailableError(`could not reach the database at ${redact(config.database)} ${within}: ${cause}; check that it is running and reachable, or wait longer with --db-wait`);
      }
      const delay = Math.max(0, Math.min(5000, 250 * 2 ** attempt, left));
      process.stderr.write(`restwell: database at ${redact(config.database)} unavailable (attempt ${attempt}): ${err.message}; retrying in ${delay / 1000}s\n`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * What `serve` prints once it listens (see printBanner: text in a terminal, a JSON log line
 * otherwise) and, on stderr, a warning when it listens beyond loopback while anyone can write
 * without a token (see auth/exposure.ts).
 */
function banner(config: RestwellConfig, resources: ResourceDefinition[], port: number, workers = 1, configFile?: string, notice?: string, out?: NodeJS.WritableStream | LoggerSettings['stream']): void {
  printBanner({ config, resources, port, workers, configFile, ...(notice ? { notice } : {}) }, process.env, process.stdout.isTTY === true, (out ?? process.stdout) as NodeJS.WritableStream);
  const warning = exposureWarning(config.server.host, resources, config.webhooks.sources);
  if (warning) process.stderr.write(`restwell: ${warning}\n`);
}
