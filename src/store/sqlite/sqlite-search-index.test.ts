import assert from 'node:assert/strict';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { defineResources } from '../../core/resource.js';
import { compileListQuery } from '../list-sql.js';
import type { ListQuery } from '../list-query.js';
import { decode, encode } from './sqlite-codec.js';
import { registerSqliteFunctions } from './sqlite-functions.js';
import { sqliteBuilder } from './sqlite-kysely.js';
import { trigramQuery } from './sqlite-search-index.js';
import { SqliteStore } from './sqlite-store.js';

test('a needle becomes the trigrams that cover it, ANDed; none when the index cannot narrow it', () => {
  assert.equal(trigramQuery('ab'), undefined, 'shorter than a trigram');
  assert.equal(trigramQuery('a\u0000bcd'), undefined, 'a NUL, where the exact test stops');
  assert.equal(trigramQuery('abc'), '"abc"');
  assert.equal(trigramQuery('abcdefg'), '"abc" AND "def" AND "efg"');
  assert.equal(trigramQuery('a"b"'), '"a""b" AND """b"""', 'quotes doubled inside an FTS5 string');
  assert.equal(trigramQuery('😀😀😀'), '"😀😀😀"', 'code points, as the tokenizer counts them');
});

test('q= and icontains on a search field read the FTS5 index, not the table', async () => {
  const [people] = defineResources({ resources: { people: { fields: { name: { type: 'string' }, note: { type: 'string' } }, search: ['name'] } } });
  const file = `/tmp/rw-search-plan-${process.pid}.db`;
  const store = new SqliteStore(file);
  await store.sync([people], { allowDestructive: false });
  await store.close();
  const db = new BetterSqlite3(file);
  registerSqliteFunctions(db);
  const plan = (query: Partial<ListQuery>) => {
    const { rows } = compileListQuery(sqliteBuilder, people, { filters: [], sort: [], limit: 20, ...query }, { encode, decode });
    return (db.prepare(`EXPLAIN QUERY PLAN ${rows.sql}`).all(...(rows.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
  };
  for (const query of [{ search: { fields: ['name'], value: 'homer' } }, { filters: [{ field: 'name', op: 'icontains' as const, value: 'omer' }] }, { filters: [{ field: 'name', op: 'istartsWith' as const, value: 'hom' }] }]) {
    const p = plan(query);
    assert.match(p, /SCAN rw_people_name_s VIRTUAL TABLE/, p);
    assert.doesNotMatch(p, /SCAN people(?! USING)/, p);
  }
  assert.match(plan({ filters: [{ field: 'name', op: 'icontains', value: 'om' }] }), /SCAN people/, 'two characters: a scan');
  assert.match(plan({ filters: [{ field: 'note', op: 'icontains', value: 'omer' }] }), /SCAN people/, 'not a search field: a scan');
  db.close();
});
