import type { FastifyInstance } from 'fastify';
import type { RestwellConfig } from '../config/types.js';
import { buildApp, type AppOptions } from './app.js';
import { createContext } from './context.js';
import { openStore } from '../store/open.js';
import type { Store, SyncReport } from '../store/store.js';

/** A composed Restwell server: the app, its store, and how to stop both. */
export interface RestwellServer {
  app: FastifyInstance;
  store: Store;
  sync: SyncReport;
  close(): Promise<void>;
}

/**
 * The composition root: opens the store named by the config, brings its schema in line with the
 * resources, and builds the HTTP app. Nothing listens yet (call `app.listen`, or `app.inject` in tests).
 */
export async function createServer(config: RestwellConfig, options: AppOptions & { store?: Store } = {}): Promise<RestwellServer> {
  const store = options.store ?? (await openStore(config.database));
  try {
    const ctx = createContext(config, store);
    const sync = await store.sync([...ctx.resources.values()], { allowDestructive: config.allowDestructiveMigrations });
    const app = await buildApp(ctx, options);
    return {
      app,
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
