import type { FastifyInstance } from 'fastify';
import type { RestwellConfig } from '../config/types.js';
import { openSharedCounts } from '../auth/rate-limit-store.js';
import type { SharedCounts } from '../auth/shared-counts.js';
import { buildApp, type AppOptions } from './app.js';
import { createContext, planApp, type AppContext } from './context.js';
import { openStore } from '../store/open.js';
import type { Store, SyncReport } from '../store/store.js';
import type { CompileOptions } from '../webhooks/inbound/sources.js';
import { resolveSecretKey } from '../webhooks/outbound/secret-key.js';
import { opsState } from './ops/ops-state.js';
import { flushLog } from './ops/json-log-destination.js';

/** How often, while draining, connections that have gone idle (their last response sent) are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * Closes the app, letting requests under way finish for up to `drainMs`, then cutting what is
 * left. Node closes idle keep-alive connections once when the server closes; a connection whose
 * request finishes later would otherwise linger for the keep-alive timeout, so they are swept.
 */
async function drain(app: FastifyInstance, drainMs: number): Promise<boolean> {
  const server = app.server;
  let forced = false;
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const deadline = setTimeout(() => {
    forced = true;
    server.closeAllConnections();
  }, drainMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
  return forced;
}

/** A composed Restwell server: the app, its store, and how to stop both. */
export interface RestwellServer {
  app: FastifyInstance;
  /** What every handler is given: the config, the store, the resources and each feature's state. */
  context: AppContext;
  store: Store;
  sync: SyncReport;
  /** Stops the app and the store, and writes out the log lines still buffered. */
  close(): Promise<void>;
  /**
   * Graceful stop: `/readyz` turns 503 and new requests are refused, the listener closes, event
   * streams end, requests under way finish (their connections are cut after `drainMs`, default
   * `server.drainTimeout`), the webhook workers stop, the store closes and buffered log lines are written. Resolves whether
   * connections had to be cut because requests were still under way at the deadline.
   */
  shutdown(drainMs?: number): Promise<{ forced: boolean }>;
}

/**
 * The composition root: checks the whole config (a bad one throws ConfigError before any file or
 * database is touched), opens the store it names, brings its schema in line with the resources,
 * and builds the HTTP app. Nothing listens yet (call `app.listen`, or `app.inject` in tests).
 */
export async function createServer(config: RestwellConfig, options: AppOptions & CompileOptions & { store?: Store } = {}): Promise<RestwellServer> {
  const plan = planApp(config, { providers: options.providers });
  const store = options.store ?? (await openStore(config.database));
  let shared: SharedCounts | undefined;
  try {
    shared = await openSharedCounts(plan.auth, store, config.origin);
    const ctx = createContext(config, store, plan, await resolveSecretKey(config, store), shared);
    const sync = await store.sync([...ctx.resources.values()], { allowDestructive: config.allowDestructiveMigrations });
    const app = await buildApp(ctx, options);
    return {
      app,
      context: ctx,
      store,
      sync,
      async close() {
        await app.close();
        await shared?.close();
        await store.close();
        await flushLog(app.log);
      },
      async shutdown(drainMs = config.server.drainTimeoutMs) {
        opsState(ctx).draining = true;
        const forced = await drain(app, drainMs);
        await shared?.close();
        await store.close();
        await flushLog(app.log);
        return { forced };
      },
    };
  } catch (err) {
    await shared?.close();
    await store.close();
    throw err;
  }
}
