import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineResources } from '../core/resource.js';
import { engines } from '../test-support/engines.js';
import type { ListQuery, Page } from './list-query.js';
import { openStore } from './open.js';
import { PageCache, pageKey } from './page-cache.js';

const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string' } } } } });
const query = (text: unknown): ListQuery => ({ filters: [{ field: 'text', op: 'eq', value: text }], sort: [], limit: 20 });
// The key of a query of `notes` (or of `resource`), as the store makes it.
const key = (q: ListQuery, resource = 'notes') => pageKey(resource, q);
const page = (...ids: number[]): Page => ({ records: ids.map((id) => ({ id, version: 1, gen: 'g', createdAt: '', updatedAt: '', owner: null, data: { text: String(id) } })), hasMore: false });

describe('PageCache', () => {
  // A page is kept from the second time its query is read (the first read only marks it as asked for).
  const keep = (cache: PageCache, q: ListQuery, stamp: number, p: Page, resource = 'notes') => {
    cache.set(key(q, resource), stamp, p);
    cache.set(key(q, resource), stamp, p);
  };

  test('serves a page only to the same query, under the stamp it was read under', () => {
    const cache = new PageCache();
    assert.equal(cache.get(key(query('1')), 1), undefined);
    keep(cache, query('1'), 1, page(1));
    assert.equal(cache.get(key(query('1')), 1)?.records[0]?.id, 1);
    assert.equal(cache.get(key(query(1)), 1), undefined, 'a value of another type is another query');
    assert.equal(cache.get(key({ ...query('1'), owner: 'u1' }), 1), undefined, 'another owner');
    assert.equal(cache.get(key(query('1'), 'other'), 1), undefined);
    assert.equal(cache.get(key(query('1')), 2), undefined, 'another stamp drops everything');
    assert.equal(cache.get(key(query('1')), 1), undefined);
  });

  test('keeps a page only when its query comes again while among the last maxSeen asked for', () => {
    const cache = new PageCache(10_000, 2);
    const once = page(1);
    cache.set(key(query('a')), 1, once);
    assert.equal(cache.get(key(query('a')), 1), undefined, 'a query read once is not kept');
    assert.ok(!Object.isFrozen(once), 'nor frozen: its reader may build on it');
    cache.set(key(query('a')), 1, page(1));
    assert.equal(cache.get(key(query('a')), 1)?.records[0]?.id, 1, 'read a second time, it is kept');
    cache.set(key(query('b')), 1, page(2));
    cache.set(key(query('c')), 1, page(3));
    cache.set(key(query('d')), 1, page(4));
    cache.set(key(query('b')), 1, page(2));
    assert.equal(cache.get(key(query('b')), 1), undefined, 'b was forgotten: two queries were asked for since');
    assert.equal(cache.get(key(query('d')), 2), undefined, 'a commit drops every page');
    cache.set(key(query('d')), 2, page(4));
    assert.equal(cache.get(key(query('d')), 2)?.records[0]?.id, 4, 'what was asked for is remembered across a commit');
  });

  test('keeps no page read under an older stamp, freezes what it keeps, and holds at most maxRecords', () => {
    const cache = new PageCache(3);
    cache.get(key(query('a')), 2);
    keep(cache, query('a'), 1, page(1));
    assert.equal(cache.get(key(query('a')), 2), undefined);
    const kept = page(2);
    keep(cache, query('a'), 2, page(1, 2));
    keep(cache, query('b'), 2, kept);
    assert.ok(Object.isFrozen(kept) && Object.isFrozen(kept.records) && Object.isFrozen(kept.records[0]) && Object.isFrozen(kept.records[0]!.data));
    assert.equal(cache.get(key(query('b')), 2), kept);
    keep(cache, query('c'), 2, page(3));
    assert.equal(cache.get(key(query('a')), 2), undefined, 'the oldest page goes: four records were one too many');
    assert.equal(cache.get(key(query('c')), 2)?.records.length, 1);
    keep(cache, query('d'), 2, page(4, 5, 6, 7));
    assert.equal(cache.get(key(query('b')), 2), undefined);
    assert.equal(cache.get(key(query('d')), 2)?.records.length, 4, 'a page larger than the bound is still kept, alone');
  });
});

for (const engine of engines) {
  test(`a list never misses a committed write, made through this store or another connection (${engine.name})`, async () => {
    const url = engine.freshUrl();
    const a = await openStore(url);
    await a.sync([notes], { allowDestructive: false });
    const b = await openStore(url);
    const texts = async () => (await a.list(notes, { filters: [], sort: [{ field: 'text', descending: false }], limit: 20 })).records.map((r) => r.data.text);
    try {
      await a.insert(notes, { text: 'one' });
      assert.deepEqual(await texts(), ['one']);
      assert.deepEqual(await texts(), ['one']);
      await a.insert(notes, { text: 'two' });
      assert.deepEqual(await texts(), ['one', 'two'], 'own write');
      const { id } = await b.insert(notes, { text: 'three' });
      assert.deepEqual(await texts(), ['one', 'three', 'two'], 'the other connection’s write');
      await b.mutate(notes, id, () => ({ delete: true }));
      assert.deepEqual(await texts(), ['one', 'two'], 'the other connection’s delete');
    } finally {
      await b.close();
      await a.close();
    }
  });
}
