import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { StoredRecord } from '../core/record.js';
import { defineResources } from '../core/resource.js';
import { engines } from '../test-support/engines.js';
import { openStore } from './open.js';
import { RecordCache } from './record-cache.js';

const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } } } });
const put = (text: string) => () => ({ put: { text } });

function record(id: number): StoredRecord {
  return { id, version: 1, gen: 'g', createdAt: '', updatedAt: '', owner: null, data: { text: String(id) } };
}

describe('RecordCache', () => {
  test('serves a record only under the stamp it was read under; another stamp drops everything', () => {
    const cache = new RecordCache();
    assert.equal(cache.get('notes', 1, 1), undefined);
    cache.set('notes', 1, 1, record(1));
    assert.equal(cache.get('notes', 1, 1)?.id, 1);
    assert.equal(cache.get('other', 1, 1), undefined);
    assert.equal(cache.get('notes', 1, 2), undefined);
    assert.equal(cache.get('notes', 1, 1), undefined, 'going back to an older stamp finds nothing either');
  });

  test('a record read under an older stamp is not kept, and kept records are frozen', () => {
    const cache = new RecordCache();
    cache.get('notes', 1, 2);
    cache.set('notes', 1, 1, record(1));
    assert.equal(cache.get('notes', 1, 2), undefined);
    const r = record(2);
    cache.set('notes', 2, 2, r);
    assert.ok(Object.isFrozen(r) && Object.isFrozen(r.data));
  });

  test('holds at most maxEntries, dropping the oldest', () => {
    const cache = new RecordCache(2);
    cache.get('notes', 1, 1);
    for (const id of [1, 2, 3]) cache.set('notes', id, 1, record(id));
    assert.equal(cache.get('notes', 1, 1), undefined);
    assert.equal(cache.get('notes', 3, 1)?.id, 3);
  });
});

for (const engine of engines) {
  describe(`reads by id after writes (${engine.name})`, () => {
    test('a read never misses a committed write, made through this store or another connection', async () => {
      const url = engine.freshUrl();
      const a = await openStore(url);
      await a.sync([notes], { allowDestructive: false });
      const b = await openStore(url);
      try {
        const { id } = await a.insert(notes, { text: 'one' });
        assert.equal((await a.get(notes, id))?.data.text, 'one');
        assert.equal((await a.get(notes, id))?.data.text, 'one');
        await a.mutate(notes, id, put('two'));
        assert.equal((await a.get(notes, id))?.data.text, 'two', 'own write');
        await b.mutate(notes, id, put('three'));
        assert.equal((await a.get(notes, id))?.data.text, 'three', 'the other connection’s write');
        assert.equal((await a.get(notes, id))?.version, 3);
        await b.mutate(notes, id, () => ({ delete: true }));
        assert.equal(await a.get(notes, id), undefined, 'the other connection’s delete');
        const again = await b.insert(notes, { text: 'four' });
        assert.equal((await a.get(notes, again.id))?.data.text, 'four');
      } finally {
        await b.close();
        await a.close();
      }
    });

    test('a read never misses a write committed by another process', async () => {
      const url = engine.freshUrl();
      const store = await openStore(url);
      await store.sync([notes], { allowDestructive: false });
      try {
        const { id } = await store.insert(notes, { text: 'mine' });
        assert.equal((await store.get(notes, id))?.data.text, 'mine');
        for (const text of ['theirs', 'theirs again']) {
          writeInAnotherProcess(url, Number(id), text);
          assert.equal((await store.get(notes, id))?.data.text, text);
        }
      } finally {
        await store.close();
      }
    });
  });
}

/** Runs `mutate` in a child process on the same database and waits for it to exit (its write committed). */
function writeInAnotherProcess(url: string, id: number, text: string): void {
  const open = fileURLToPath(new URL('./open.ts', import.meta.url));
  const resource = fileURLToPath(new URL('../core/resource.ts', import.meta.url));
  const code = `
    const { openStore } = await import(${JSON.stringify(open)});
    const { defineResources } = await import(${JSON.stringify(resource)});
    const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } } } });
    const store = await openStore(${JSON.stringify(url)});
    await store.mutate(notes, ${id}, () => ({ put: { text: ${JSON.stringify(text)} } }));
    await store.close();`;
  execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: 'inherit' });
}
