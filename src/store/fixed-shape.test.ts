import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixedShapeQuery } from './fixed-shape.js';
import { pgBuilder } from './postgres/postgres-kysely.js';
import { sqliteBuilder } from './sqlite/sqlite-kysely.js';

test('a shape is built once per query builder; later calls bind their own values to its text', () => {
  for (const sql of [sqliteBuilder, pgBuilder]) {
    let builds = 0;
    const query = (name: string, limit: number) =>
      fixedShapeQuery(sql, 'test: by name', [name, limit], () => {
        builds++;
        return sql.selectFrom('people').select('id').where('name', '=', name).limit(limit);
      });
    const first = query('Ann', 1);
    const second = query('Bob', 5);
    assert.equal(builds, 1);
    assert.equal(second.sql, first.sql);
    assert.deepEqual(second.parameters, ['Bob', 5]);
  }
});

test('a text whose bound values are not the values given, in order, is not kept: every call is built', () => {
  let builds = 0;
  const query = (name: string) =>
    fixedShapeQuery(sqliteBuilder, 'test: values in another order', [1, name], () => {
      builds++;
      return sqliteBuilder.selectFrom('people').select('id').where('name', '=', name).limit(1);
    });
  assert.deepEqual(query('Ann').parameters, ['Ann', 1]);
  const other = query('Bob');
  assert.equal(builds, 2);
  assert.deepEqual(other.parameters, ['Bob', 1]);
});

test('a call with an undefined value (left out of an insert by Kysely) is built on its own, never bound to the kept text', () => {
  const insert = (row: Record<string, unknown>) => fixedShapeQuery(sqliteBuilder, 'test: insert', Object.values(row), () => sqliteBuilder.insertInto('people').values(row));
  const full = insert({ name: 'Ann', note: 'x' });
  const partial = insert({ name: 'Bob', note: undefined });
  assert.notEqual(partial.sql, full.sql);
  assert.deepEqual(partial.parameters, ['Bob']);
  assert.deepEqual(insert({ name: 'Cy', note: 'y' }).parameters, ['Cy', 'y']);
});
