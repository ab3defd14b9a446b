import type { Command } from 'commander';
import { resolveAuthSettings } from '../auth/auth-config.js';
import { AuthService } from '../auth/auth-service.js';
import { loadConfig } from '../config/load.js';
import type { RestwellConfig } from '../config/types.js';
import { openStore } from '../store/open.js';
import { withDemoPlaceholders } from '../webhooks/inbound/demo-secrets.js';

/** Options every credentials command takes: the same config and database as `serve`. */
export interface StoreOptions {
  config?: string;
  db?: string;
}

/** Adds the `--config` and `--db` options of a credentials command. */
export function storeOptions(command: Command): Command {
  return command.option('-c, --config <file>', 'config file; env RESTWELL_CONFIG').option('--db <url>', 'SQLite path or postgres:// URL; env DATABASE_URL');
}

/** Opens the store `serve` would use and runs `work` with its auth service, then closes it. */
export async function withAuth<T>(options: StoreOptions, work: (auth: AuthService, config: RestwellConfig) => Promise<T>): Promise<T> {
  // Credentials never touch the webhook secrets, so the demo's unset ones need not be generated here.
  const config = loadConfig({ file: options.config, env: withDemoPlaceholders(), overrides: { database: options.db } });
  // A bad `auth` section is refused before the database is opened (or created).
  const settings = resolveAuthSettings(config);
  const store = await openStore(config.database);
  try {
    return await work(new AuthService(config, store, settings), config);
  } finally {
    await store.close();
  }
}
