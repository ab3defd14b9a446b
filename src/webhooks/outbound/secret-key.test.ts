import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULTS } from '../../config/defaults.js';
import { resolveConfig } from '../../config/load.js';
import type { RestwellConfig } from '../../config/types.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { engines } from '../../test-support/engines.js';
import { AesSecretBox } from './secret-box.js';
import { resolveSecretKey, secretKeyPath } from './secret-key.js';

function config(database: string, secretKey?: string): RestwellConfig {
  const base = resolveConfig({ resources: {} }, { env: {} });
  return { ...base, database, webhooks: { ...base.webhooks, outbound: { ...base.webhooks.outbound, ...(secretKey ? { secretKey } : {}) } } };
}

// Only the document calls are used; a store that fails if touched shows the other paths do not.
const untouchable = { ensureDocument: () => Promise.reject(new Error('the store was used')) } as unknown as Store;

describe('resolveSecretKey', () => {
  it('uses the configured key, with no warning and nothing written', async () => {
    const key = 'k'.repeat(40);
    assert.deepEqual(await resolveSecretKey(config(':memory:', key), untouchable), { key, source: 'config' });
  });

  it('keeps the key of an SQLite file in a file beside it, created once with mode 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'restwell-key-'));
    try {
      const database = join(dir, 'nested', 'app.db');
      const first = await resolveSecretKey(config(database), untouchable);
      assert.equal(first.source, 'file');
      assert.equal(first.path, join(dir, 'nested', 'app.secret-key'));
      assert.equal(first.warning, undefined);
      assert.ok(first.key.length >= 32);
      assert.equal(statSync(first.path!).mode & 0o777, 0o600);
      assert.equal(readFileSync(first.path!, 'utf8').trim(), first.key);
      const again = await resolveSecretKey(config(`sqlite:${database}`), untouchable);
      assert.equal(again.key, first.key);
      // Racing starts agree on one key.
      const racing = await Promise.all([1, 2, 3].map(() => resolveSecretKey(config(join(dir, 'race.db')), untouchable)));
      assert.equal(new Set(racing.map((r) => r.key)).size, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the key file after the database', () => {
    assert.equal(secretKeyPath('data/restwell.db'), join('data', 'restwell.secret-key'));
    assert.equal(secretKeyPath('/srv/db'), '/srv/db.secret-key');
    assert.equal(secretKeyPath('app.sqlite'), 'app.secret-key');
    assert.equal(secretKeyPath(DEFAULTS.database.replace(/^sqlite:/, '')).endsWith('.secret-key'), true);
  });

  for (const engine of [{ name: 'sqlite in memory', freshUrl: () => ':memory:' }, ...engines.filter((e) => e.name !== 'sqlite')]) {
    it(`keeps the key in the database when there is no file to keep it beside (${engine.name})`, async () => {
      const url = engine.freshUrl();
      const store = await openStore(url);
      const other = engine.name === 'sqlite in memory' ? store : await openStore(url);
      try {
        await store.sync([], { allowDestructive: false });
        const [a, b] = await Promise.all([resolveSecretKey(config(url), store), resolveSecretKey(config(url), other)]);
        assert.equal(a.source, 'database');
        assert.equal(a.key, b.key, 'nodes racing agree on one key');
        assert.ok(a.key.length >= 32);
        assert.deepEqual(await store.getDocument('secret-key', 'outbound'), { key: a.key });
        if (engine.name === 'sqlite in memory') assert.equal(a.warning, undefined);
        else assert.match(a.warning!, /webhooks\.outbound\.secretKey is not set.*\$\{RESTWELL_SECRET_KEY\}/);
        const sealed = new AesSecretBox(a.key).seal([{ secret: 'whsec_x', createdAt: 'now' }]);
        assert.deepEqual(new AesSecretBox((await resolveSecretKey(config(url), other)).key).open(sealed), [{ secret: 'whsec_x', createdAt: 'now' }]);
      } finally {
        if (other !== store) await other.close();
        await store.close();
      }
    });
  }
});
