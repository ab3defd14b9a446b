import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineResources } from '../../src/core/resource.js';
import { openStore } from '../../src/store/open.js';
import { engines } from '../../src/test-support/engines.js';
import { configFile, startServe } from '../support-process.js';

const access = { read: 'public', write: 'public' };
const v1Config = { resources: { people: { fields: { name: { type: 'string' }, phone: { type: 'string', unique: true } }, access } }, auth: { rateLimit: false } };
const renamedConfig = { resources: { people: { fields: { name: { type: 'string' }, mobile: { type: 'string', unique: true, renamedFrom: 'phone' } }, access } }, auth: { rateLimit: false } };

/** A database holding one person with a phone number, laid out by the config before the rename. */
async function seeded(url: string): Promise<string | number> {
  const people = defineResources(v1Config)[0];
  const store = await openStore(url);
  try {
    await store.sync([people], { allowDestructive: false });
    return (await store.insert(people, { name: 'Ann', phone: '555-0101' })).id;
  } finally {
    await store.close();
  }
}

for (const engine of engines) {
  describe(`serve: schema migrations at start-up (${engine.name})`, () => {
    test('servers started at once with a renamed field all come up, and every one reads the kept values under the new name', async () => {
      const url = engine.freshUrl();
      const id = await seeded(url);
      const args = ['--config', configFile(renamedConfig), '--db', url];
      // PostgreSQL serialises the sync on its advisory lock, SQLite on the file's write lock.
      const nodes = await Promise.all(Array.from({ length: engine.name === 'postgres' ? 3 : 2 }, () => startServe(args)));
      try {
        for (const node of nodes) {
          const res = await fetch(`${node.url}/people/${id}`);
          assert.equal(res.status, 200);
          const body = await res.json();
          assert.equal(body.mobile, '555-0101');
          assert.equal('phone' in body, false);
        }
        const clash = await fetch(`${nodes[0].url}/people`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Eve', mobile: '555-0101' }) });
        assert.equal(clash.status, 409, 'the unique index was carried over to the new name');
      } finally {
        await Promise.all(nodes.map((n) => n.stop()));
      }
    });

    test('a destructive change that is allowed logs what it deletes at warn', async () => {
      const url = engine.freshUrl();
      await seeded(url);
      const dropped = { ...v1Config, allowDestructiveMigrations: true, resources: { people: { fields: { name: { type: 'string' } }, access } } };
      // LOG_LEVEL is warn in these servers: the line shows because it is a warning.
      const node = await startServe(['--config', configFile(dropped), '--db', url]);
      try {
        const warnings = node
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line))
          .filter((entry) => entry.level === 40)
          .map((entry) => entry.msg);
        assert.ok(warnings.includes('schema: dropped people.phone (field removed from the config; allowDestructiveMigrations is set): 1 record loses its value'), warnings.join('\n'));
      } finally {
        await node.stop();
      }
    });
  });
}
