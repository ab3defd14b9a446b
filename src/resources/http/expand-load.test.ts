import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredRecord } from '../../core/record.js';
import { defineResources } from '../../core/resource.js';
import type { Store } from '../../store/store.js';
import type { ExpandNode } from './expand.js';
import { loadExpansions, MAX_EMBEDDED } from './expand-load.js';

const [posts, comments] = defineResources({
  resources: { posts: { fields: { title: { type: 'string' } } }, comments: { fields: { post: { type: 'reference', to: 'posts' } } } },
});
const record = (id: number, data: Record<string, unknown>): StoredRecord => ({ id, version: 1, gen: 'g', createdAt: '', updatedAt: '', owner: null, data });

test('an expansion that would embed more than MAX_EMBEDDED records is refused, not loaded on', async () => {
  let queries = 0;
  const store = {
    listReferencing: async (_r: unknown, q: { values: unknown[]; perValue: number }) => {
      queries++;
      return q.values.flatMap((v) => Array.from({ length: q.perValue + 1 }, (_, i) => record(Number(v) * 100 + i, { post: v })));
    },
  } as unknown as Store;
  const node: ExpandNode = { name: 'comments', path: 'comments', kind: 'reverse', target: comments, field: 'post', children: [] };
  const page = Array.from({ length: Math.ceil(MAX_EMBEDDED / 11) + 1 }, (_, i) => record(i + 1, { title: 't' }));
  await assert.rejects(loadExpansions(store, posts, page, [node]), /more than 2000 records/);
  assert.equal(queries, 1, 'one query for the whole page');
  const loaded = await loadExpansions(store, posts, page.slice(0, 3), [node]);
  assert.equal(loaded.get(node)!.get(2)!.length, 11);
});
