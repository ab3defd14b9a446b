import { ApiKeys } from '../../src/auth/api-keys.js';
import { OAuthClients } from '../../src/auth/oauth-clients.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import type { TestEngine } from '../../src/test-support/engines.js';
import { configFile, startServe, type ServeProcess } from '../support-process.js';
import { FUZZ_CONFIG, FUZZ_SECRETS } from './fuzz-config.js';

/** Bearer tokens of every kind of caller the fuzzer plays. */
export interface Credentials {
  admin: string;
  /** Two owners of `notes`, with no scopes at all. */
  alice: string;
  bob: string;
  /** May write characters, nothing more. */
  writer: string;
  /** An OAuth access token (JWT) for an admin-scoped client, and that client. */
  jwt: string;
  clientId: string;
  clientSecret: string;
}

/** A `restwell serve` process under attack, with the runner's own connection to its database. */
export interface FuzzTarget {
  engine: string;
  base: string;
  /** The database URL the server uses (for a signed-token keyring and state checks). */
  databaseUrl: string;
  server: ServeProcess;
  /** The runner's own connection to the server's database: state snapshots, keys. */
  store: Store;
  credentials: Credentials;
  /** Paths of the records made at start, per collection (`/notes` → [`/notes/…`]). */
  records: Record<string, string[]>;
  stop(): Promise<void>;
}

/** Starts the server on a fresh database of the engine, with credentials and a few records to aim at. */
export async function startTarget(engine: TestEngine): Promise<FuzzTarget> {
  const databaseUrl = engine.freshUrl();
  const server = await startServe(['--config', configFile(FUZZ_CONFIG), '--db', databaseUrl], { ...FUZZ_SECRETS, LOG_LEVEL: 'error' });
  const store = await openStore(databaseUrl);
  try {
    const keys = new ApiKeys(store);
    const key = async (name: string, scopes: string[]) => (await keys.create({ name, scopes, subject: name })).key;
    const { clientSecret, info } = await new OAuthClients(store).create({ name: 'fuzz', scopes: ['*'] });
    const credentials: Credentials = {
      admin: await key('admin', ['*']),
      alice: await key('alice', []),
      bob: await key('bob', []),
      writer: await key('writer', ['characters:write']),
      jwt: await accessToken(server.url, info.clientId, clientSecret),
      clientId: info.clientId,
      clientSecret,
    };
    const records = await seedRecords(server.url, credentials);
    return {
      records,
      engine: engine.name,
      base: server.url,
      databaseUrl,
      server,
      store,
      credentials,
      async stop() {
        await server.stop();
        await store.close();
      },
    };
  } catch (err) {
    await server.stop();
    await store.close();
    throw err;
  }
}

async function accessToken(base: string, clientId: string, secret: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Records at low ids, so generated ids and references often hit something real. */
async function seedRecords(base: string, c: Credentials): Promise<Record<string, string[]>> {
  const records: Record<string, string[]> = {};
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`seeding ${path} answered ${res.status}: ${await res.text()}`);
    (records[path] ??= []).push(new URL(res.headers.get('location')!, base).pathname);
  };
  for (let i = 1; i <= 12; i++) await post('/characters', c.admin, { name: `Character ${i}`, number: `+1555000${String(i).padStart(4, '0')}` });
  for (let i = 1; i <= 4; i++) await post('/messages', c.admin, { from: `a${i}@example.com`, subject: `Subject ${i}`, text: 'hello', receivedAt: '2026-01-01T00:00:00Z' });
  for (const owner of [c.alice, c.bob]) for (let i = 1; i <= 3; i++) await post('/notes', owner, { text: `note ${i}`, rating: i, character: 1 });
  for (let i = 1; i <= 3; i++) await post('/ledgers', c.admin, { amount: i * 100, memo: `memo ${i}` });
  return records;
}
