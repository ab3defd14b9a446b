import { resolveConfig } from '../config/load.js';
import { DEMO_CONFIG } from '../config/defaults.js';
import { createServer, type RestwellServer } from '../server.js';
import type { TestEngine } from './engines.js';
import { engines } from './engines.js';

/** Fixed values for the demo's webhook secrets (`${MAIL_HOOK_USER}` …) in tests; tests sign with them. */
export const TEST_DEMO_SECRETS = { MAIL_HOOK_USER: 'postmark', MAIL_HOOK_PASSWORD: 'test-mail-password', TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef' };

/**
 * A server on a fresh database of the given engine, for `app.inject()` tests (or `listen` on
 * port 0 for socket tests). The demo config unless `config` says otherwise.
 */
export async function testServer(engine: TestEngine = engines[0], config: Record<string, unknown> = DEMO_CONFIG, env: NodeJS.ProcessEnv = {}): Promise<RestwellServer> {
  const resolved = resolveConfig(config, { env: { ...TEST_DEMO_SECRETS, ...env }, overrides: { database: engine.freshUrl() } });
  return createServer(resolved, { logger: false });
}

export { engines };
