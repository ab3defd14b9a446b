import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../config/load.js';
import { defineResources } from '../../core/resource.js';
import { openStore } from '../../store/open.js';
import { engines } from '../../test-support/engines.js';
import { writeDataFile } from './write-data-file.js';

for (const engine of engines) {
  describe(`writeDataFile (${engine.name})`, () => {
    it('writes collections page by page in id order, a singular resource as its fields, and parses as what was stored', async () => {
      const config = resolveConfig({
        resources: {
          notes: { fields: { text: { type: 'string' }, meta: { type: 'json' } } },
          empty: { fields: { x: { type: 'integer' } } },
          profile: { fields: { name: { type: 'string' } } },
        },
      }, { env: {}, overrides: { database: engine.freshUrl() } });
      const resources = defineResources(config);
      // Singular resources are flagged on their definition; set here so this test does not wait for the config key.
      Object.assign(resources.find((r) => r.name === 'profile')!, { singular: true });
      const store = await openStore(config.database);
      try {
        await store.sync(resources, { allowDestructive: false });
        const notes = Array.from({ length: 2_500 }, (_, i) => ({ id: i + 1, data: { text: i % 3 ? `note ${i + 1}` : null, meta: i === 7 ? { deep: ['é', 1] } : null }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-02T00:00:00.000Z' }));
        await store.importRecords([
          { resource: resources[0]!, records: notes },
          { resource: resources[2]!, records: [{ id: 1, data: { name: 'typicode' }, createdAt: '2024-03-01T00:00:00.000Z', updatedAt: '2024-03-02T00:00:00.000Z' }] },
        ], { replace: false });
        const chunks: string[] = [];
        const counts = await writeDataFile(store, resources, (chunk) => void chunks.push(chunk));
        assert.deepEqual(counts, { notes: 2_500, empty: 0, profile: 1 });
        assert.ok(chunks.length > 4 && Math.max(...chunks.map((c) => c.length)) < 200_000, 'written in pages, not as one string');
        const text = chunks.join('');
        const file = JSON.parse(text);
        assert.equal(text, `${JSON.stringify(file, null, 2)}\n`, "formatted as json-server writes db.json");
        assert.deepEqual(Object.keys(file), ['notes', 'empty', 'profile']);
        assert.deepEqual(file.notes.map((n: { id: number }) => n.id), notes.map((n) => n.id));
        assert.deepEqual(file.notes[7], { id: 8, text: 'note 8', meta: { deep: ['é', 1] }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-02T00:00:00.000Z' });
        assert.deepEqual(file.notes[0], { id: 1, text: null, meta: null, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-02T00:00:00.000Z' });
        assert.deepEqual(file.empty, []);
        assert.deepEqual(file.profile, { name: 'typicode', createdAt: '2024-03-01T00:00:00.000Z', updatedAt: '2024-03-02T00:00:00.000Z' });
      } finally {
        await store.close();
      }
    });
  });
}
