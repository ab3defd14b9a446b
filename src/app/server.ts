import type { FastifyInstance } from 'fastify';
import type { RestwellConfig } from '../config/types.js';
import { buildApp, type AppOptions } from './app.js';
import { createContext, planApp, type AppContext } from './context.js';
import { openStore } from '../store/open.js';
import type { Store, SyncReport } from '../store/store.js';
import type { CompileOptions } from '../webhooks/inbound/sources.js';
import { resolveSecretKey } from '../webhooks/outbound/secret-key.js';

/** A composed Restwell server: the app, its store, and how to stop both. */
export interface RestwellServer {
  app: FastifyInstance;
  /** What every handler is given: the config, the store, the resources and each feature's state. */
  context: AppContext;
  store: Store;
  sync: SyncReport;
  close(): Promise<void>;
}

/**
 * The composition root: checks the whole config (a bad one throws ConfigError before any file or
 * database is touched), opens the store it names, brings its schema in line with the resources,
 * and builds the HTTP app. Nothing listens yet (call `app.listen`, or `app.inject` in tests).
 */
export async function createServer(config: RestwellConfig, options: AppOptions & CompileOptions & { store?: Store } = {}): Promise<RestwellServer> {
  const plan = planApp(config, { providers: options.providers });
  const store = options.store ?? (await openStore(config.database));
  try {
    const ctx = createContext(config, store, plan, await resolveSecretKey(config, store));
    const sync = await store.sync([...ctx.resources.values()], { allowDestructive: config.allowDestructiveMigrations });
    const app = await buildApp(ctx, options);
    return {
      app,
      context: ctx,
      store,
      sync,
      async close() {
        await app.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
