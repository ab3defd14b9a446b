import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineResources } from '../core/resource.js';
import type { ListQuery } from './list-query.js';
import { compileListQuery } from './list-sql.js';
import { decode, encode } from './sqlite/sqlite-codec.js';
import { sqliteBuilder } from './sqlite/sqlite-kysely.js';

const [people] = defineResources({ resources: { people: { fields: { name: { type: 'string' }, age: { type: 'integer' } } } } });
const codec = { encode, decode };
const compile = (query: Partial<ListQuery>) => compileListQuery(sqliteBuilder, people, { filters: [], sort: [], limit: 20, ...query }, codec);
const byName = [{ field: 'name', descending: false }];

test('queries of one shape share their SQL text, and each binds its own values', () => {
  const c = compile({ filters: [{ field: 'name', op: 'startsWith', value: 'C' }], sort: byName });
  const d = compile({ filters: [{ field: 'name', op: 'startsWith', value: 'D_' }], sort: byName, limit: 5 });
  assert.equal(d.rows.sql, c.rows.sql);
  assert.deepEqual(c.rows.parameters, ['C%', 21]);
  assert.deepEqual(d.rows.parameters, ['D\\_%', 6]);
  const later = (values: unknown[]) => compile({ sort: byName, after: { values, backwards: false } }).rows;
  // name >= v AND (name > v OR (name = v AND id > i)) LIMIT n
  assert.deepEqual(later(['Carl', 7]).parameters, ['Carl', 'Carl', 'Carl', 7, 21]);
  assert.deepEqual(later(['Moe', 9]).parameters, ['Moe', 'Moe', 'Moe', 9, 21]);
});

test('a value that changes the SQL (a NULL, the length of an in-list) makes another shape', () => {
  const after = (name: unknown) => compile({ sort: byName, after: { values: [name, 7], backwards: false } }).rows;
  assert.notEqual(after(null).sql, after('Carl').sql);
  assert.match(after(null).sql, /"name" is null/);
  assert.deepEqual(after(null).parameters, [7, 21]);
  const ages = (values: number[]) => compile({ filters: [{ field: 'age', op: 'in', value: values }] }).rows;
  assert.notEqual(ages([1, 2]).sql, ages([1, 2, 3]).sql);
  assert.deepEqual(ages([4, 5, 6]).parameters, [4, 5, 6, 21]);
});

test('the count binds only the filters and the owner, not the position or the limit', () => {
  const { count } = compile({ filters: [{ field: 'age', op: 'gte', value: 30 }], owner: 'u1', sort: byName, after: { values: ['Carl', 7], backwards: true }, withTotal: true });
  assert.deepEqual(count?.parameters, [30, 'u1']);
  assert.equal(compile({}).count, undefined);
});
