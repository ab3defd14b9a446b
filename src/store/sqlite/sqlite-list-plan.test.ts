import assert from 'node:assert/strict';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { defineResources } from '../../core/resource.js';
import { compileListQuery } from '../list-sql.js';
import type { ListQuery } from '../list-query.js';
import { decode, encode } from './sqlite-codec.js';
import { sqliteBuilder } from './sqlite-kysely.js';
import { SqliteStore } from './sqlite-store.js';

const [people] = defineResources({
  resources: { people: { fields: { name: { type: 'string', unique: true }, age: { type: 'integer', index: true }, note: { type: 'string' } } } },
});

/** EXPLAIN QUERY PLAN of the page query a list request compiles to. */
function plan(db: BetterSqlite3.Database, query: Partial<ListQuery>): string {
  const { rows: c } = compileListQuery(sqliteBuilder, people, { filters: [], sort: [], limit: 20, ...query }, { encode, decode });
  return (db.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(...(c.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
}

test('filters and sorts on indexed fields use their index, never a full scan or a sort of the table', async () => {
  const file = `/tmp/rw-plan-${process.pid}.db`;
  const store = new SqliteStore(file);
  await store.sync([people], { allowDestructive: false });
  await store.close();
  const db = new BetterSqlite3(file);
  db.exec('ANALYZE');
  const cases: Array<[string, Partial<ListQuery>]> = [
    ['sort by a unique field', { sort: [{ field: 'name', descending: false }] }],
    ['sort descending', { sort: [{ field: 'name', descending: true }] }],
    ['filter on an indexed field', { filters: [{ field: 'age', op: 'eq', value: 30 }] }],
    ['range filter and sort on it', { filters: [{ field: 'age', op: 'gte', value: 30 }], sort: [{ field: 'age', descending: false }] }],
    ['prefix filter with sort', { filters: [{ field: 'name', op: 'startsWith', value: 'C' }], sort: [{ field: 'name', descending: false }] }],
    ['a later page (keyset)', { sort: [{ field: 'name', descending: false }], after: { values: ['Carl', 7], backwards: false } }],
  ];
  for (const [name, query] of cases) {
    const p = plan(db, query);
    assert.doesNotMatch(p, /SCAN people(?! USING)/, `${name}: ${p}`);
    assert.doesNotMatch(p, /USE TEMP B-TREE FOR ORDER BY/, `${name}: ${p}`);
  }
  // With no filter and no sort, walking the table in primary-key order (and stopping at the limit) is the plan.
  assert.doesNotMatch(plan(db, {}), /TEMP B-TREE/);
  db.close();
});
