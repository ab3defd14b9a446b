import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineResources } from '../../core/resource.js';
import type { Page } from '../../store/list-query.js';
import { fitListPage, pageBody } from './list-body.js';

const [people] = defineResources({ resources: { people: { fields: { name: { type: 'string' }, note: { type: 'json' } } } } });
const page = (total?: number): Page => ({
  records: [1, 2].map((id) => ({ id, version: 1, gen: 'g', createdAt: 'c', updatedAt: 'u', owner: null, data: { name: `P "${id}"`, note: { n: id } } })),
  hasMore: true,
  ...(total !== undefined ? { total } : {}),
});
const links = (q: string) => ({ self: { href: `/people?${q}` }, first: { href: `/people?${q}` } });

test('the JSON of a page is exactly its body serialized, with or without a total or a sparse fieldset', () => {
  for (const p of [page(), page(7), Object.freeze(page(7))]) {
    for (const fields of [undefined, ['name']]) {
      const { body, json } = pageBody(people, p, links('limit=2'), fields);
      assert.equal(json, JSON.stringify(body));
    }
  }
  assert.deepEqual(Object.keys(pageBody(people, page(), links('')).body), ['_links', 'count', '_embedded']);
});

test('a page shared between requests is represented once, each request with its own links', () => {
  const shared = Object.freeze(page());
  const a = pageBody(people, shared, links('limit=2&sort=name'));
  const b = pageBody(people, shared, links('sort=name&limit=2'));
  const items = (x: typeof a) => (x.body._embedded as Record<string, unknown>).people;
  assert.equal(items(a), items(b), 'the same HAL items');
  assert.notEqual(a.json, b.json);
  assert.equal(b.json, JSON.stringify(b.body));
  assert.notEqual(items(pageBody(people, shared, links(''), ['name'])), items(a), 'a sparse fieldset is its own representation');
  const loose = page();
  assert.notEqual(items(pageBody(people, loose, links(''))), items(pageBody(people, loose, links(''))), 'a page that is not shared is built each time');
});

test('a page larger than the byte bound is cut after the records that fit (at least one), with hasMore so next goes on', () => {
  const big = (id: number) => ({ id, version: 1, gen: 'g', createdAt: 'c', updatedAt: 'u', owner: null, data: { name: 'x'.repeat(1000), note: null } });
  const full: Page = { records: [1, 2, 3, 4].map(big), hasMore: false };
  const cut = fitListPage(people, full, 1500, false, 2500);
  assert.deepEqual(cut.records.map((r) => r.id), [1, 2]);
  assert.equal(cut.hasMore, true);
  assert.equal(fitListPage(people, full, 1500, true, 2500).hasMore, false, 'a backwards page keeps what it says of the records before it');
  assert.deepEqual(fitListPage(people, full, 1500, false, 500).records.map((r) => r.id), [1], 'one record, however large');
  assert.equal(fitListPage(people, full, 100, false, 2500), full, 'a page that cannot be that large is not measured');
});
