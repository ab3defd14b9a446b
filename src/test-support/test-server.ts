import { resolveConfig } from '../config/load.js';
import { DEMO_CONFIG } from '../config/defaults.js';
import type { AppOptions } from '../app/app.js';
import { createServer, type RestwellServer } from '../app/server.js';
import type { TestEngine } from './engines.js';
import { engines } from './engines.js';

/** Fixed values for the demo's webhook secrets (`${MAIL_HOOK_USER}` …) in tests; tests sign with them. */
export const TEST_DEMO_SECRETS = { MAIL_HOOK_USER: 'postmark', MAIL_HOOK_PASSWORD: 'test-mail-password', TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef' };

/**
 * The demo config with every resource public: what most behaviour tests exercise, since access
 * rules have their own tests (auth-*.test.ts) and the demo's rules are checked there too.
 */
export const PUBLIC_DEMO = {
  ...DEMO_CONFIG,
  resources: Object.fromEntries(Object.entries(DEMO_CONFIG.resources).map(([name, r]) => [name, { ...r, access: { read: 'public', write: 'public' } }])),
};

/**
 * The public demo plus `gadgets`: a field of every type (an enum value with markup in it, to check
 * escaping), readable by all and writable only with `gadgets:write`. The browsable HTML's tests use it.
 */
export const GADGETS_DEMO = {
  ...PUBLIC_DEMO,
  resources: {
    ...PUBLIC_DEMO.resources,
    gadgets: {
      fields: {
        title: { type: 'string', required: true, maxLength: 80 },
        code: { type: 'string', pattern: '^[A-Z]+$' },
        count: { type: 'integer', minimum: 0, maximum: 99 },
        price: { type: 'number' },
        active: { type: 'boolean' },
        releasedAt: { type: 'datetime' },
        color: { type: 'enum', values: ['red', 'green', '<b>blue</b>'] },
        maker: { type: 'reference', to: 'characters' },
        meta: { type: 'json' },
      },
      access: { read: 'public', write: ['gadgets:write'] },
    },
  },
};

/**
 * A server on a fresh database of the given engine, for `app.inject()` tests (or `listen` on
 * port 0 for socket tests). The public demo config unless `config` says otherwise; no logs unless
 * `logger` says where they go.
 */
export async function testServer(engine: TestEngine = engines[0], config: Record<string, unknown> = PUBLIC_DEMO, env: NodeJS.ProcessEnv = {}, logger: AppOptions['logger'] = false): Promise<RestwellServer> {
  const resolved = resolveConfig(config, { env: { ...TEST_DEMO_SECRETS, ...env }, overrides: { database: engine.freshUrl() } });
  return createServer(resolved, { logger });
}

/** {@link testServer} listening on a real socket (127.0.0.1, a free port), and its base URL. */
export async function listeningServer(engine: TestEngine = engines[0], config: Record<string, unknown> = PUBLIC_DEMO): Promise<{ server: RestwellServer; base: string }> {
  const server = await testServer(engine, config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { server, base: `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}` };
}

export { engines };

/** Headers carrying a fresh API key with these scopes (admin `*` by default). */
export async function bearer(server: RestwellServer, scopes: string[] = ['*']): Promise<Record<string, string>> {
  const { key } = await server.context.auth.apiKeys.create({ name: 'test', scopes });
  return { authorization: `Bearer ${key}` };
}
