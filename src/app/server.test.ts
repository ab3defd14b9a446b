import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, resolveConfig } from '../config/load.js';
import { createServer } from './server.js';

const badSource = {
  resources: { people: { fields: { name: { type: 'string' } } } },
  auth: { rateLimit: { limit: 100, window: '1m', resources: { ghosts: { limit: 5, window: '1m' } } } },
  webhooks: { sources: { texts: { provider: 'twilio', verify: { username: 'only-a-user' }, actions: [{ store: 'nope' }] } } },
};

test('a config whose webhook source and rate limits are wrong is refused, every key at once, before the database file is created', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-plan-'));
  try {
    const database = join(dir, 'data', 'restwell.db');
    const config = resolveConfig(badSource, { env: {}, overrides: { database } });
    await assert.rejects(createServer(config, { logger: false }), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.ok(err.problems.some((p) => p.startsWith('webhooks.sources.texts.verify')), err.problems.join('\n'));
      assert.ok(err.problems.some((p) => p.startsWith('webhooks.sources.texts.actions.0.store')), err.problems.join('\n'));
      assert.ok(err.problems.some((p) => p.startsWith('auth.rateLimit.resources.ghosts')), err.problems.join('\n'));
      return true;
    });
    assert.equal(existsSync(database), false, 'no database file');
    assert.equal(existsSync(join(dir, 'data')), false, 'not even its folder');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a config whose webhook source is wrong is refused before any connection to PostgreSQL is tried', async () => {
  // Nothing listens on port 1: were the database opened first, this would be a connection error.
  const config = resolveConfig(badSource, { env: {}, overrides: { database: 'postgres://postgres@127.0.0.1:1/none' } });
  await assert.rejects(createServer(config, { logger: false }), ConfigError);
});
