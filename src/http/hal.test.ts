import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toPlain, type StoredRecord } from '../core/record.js';
import { defineResources } from '../core/resource.js';
import { halRecord } from './hal.js';

const [, books] = defineResources({
  resources: {
    authors: { fields: { name: { type: 'string' } } },
    books: { fields: { title: { type: 'string' }, author: { type: 'reference', to: 'authors' }, tags: { type: 'json' } } },
  },
});

test("a record's HAL body is its plain representation, member for member and in the same order, then _links", () => {
  const record: StoredRecord = { id: 7, version: 3, gen: 'g', createdAt: 'c', updatedAt: 'u', owner: 'o', data: { title: 'T', author: 2, tags: ['a'] } };
  const body = halRecord(books, record);
  assert.equal(JSON.stringify(body), JSON.stringify({ ...toPlain(record), _links: body._links }));
  assert.deepEqual(body._links, { self: { href: '/books/7' }, collection: { href: '/books' }, author: { href: '/authors/2' } });
  const orphan = halRecord(books, { ...record, data: { title: 'T', author: null, tags: null } });
  assert.deepEqual(Object.keys(orphan._links as object), ['self', 'collection'], 'a null reference links nowhere');
});
