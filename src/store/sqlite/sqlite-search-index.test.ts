import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { defineResources, type ResourceDefinition } from '../../core/resource.js';
import { compileListQuery } from '../list-sql.js';
import type { ListQuery } from '../list-query.js';
import { decode, encode } from './sqlite-codec.js';
import { registerSqliteFunctions } from './sqlite-functions.js';
import { sqliteBuilder } from './sqlite-kysely.js';
import { searchTokenQuery, searchTokens } from './sqlite-search-tokens.js';
import { SqliteStore } from './sqlite-store.js';

test('a text becomes its 3-grams and 4-grams, each as the hex of its UTF-8 bytes', () => {
  assert.equal(searchTokens('ab'), '', 'shorter than a 3-gram');
  assert.equal(searchTokens('abc'), '616263');
  assert.equal(searchTokens('a c-'), '612063 20632d 6120632d', 'spaces and punctuation inside a token');
  assert.equal(searchTokens('a\u0000\u007fb'), '61007f 007f62 61007f62', 'every ASCII character');
  assert.equal(searchTokens('é😀xy'), 'c3a9f09f988078 f09f98807879 c3a9f09f98807879', 'code points, as UTF-8');
});

test('a needle becomes its 3-gram or the 4-grams that cover it, ANDed; none when the index cannot narrow it', () => {
  assert.equal(searchTokenQuery('ab'), undefined, 'shorter than a 3-gram');
  assert.equal(searchTokenQuery('a\u0000bcd'), undefined, 'a NUL, where the exact test stops');
  assert.equal(searchTokenQuery('abc'), '"616263"');
  assert.equal(searchTokenQuery('abcd'), '"61626364"');
  assert.equal(searchTokenQuery('123456'), '"31323334" AND "33343536"');
  assert.equal(searchTokenQuery('abcdefghi'), '"61626364" AND "64656667" AND "66676869"', 'overlapping by one character');
  assert.equal(searchTokenQuery('abcdefghij'), '"61626364" AND "64656667" AND "6768696a"');
  assert.equal(searchTokenQuery('a"b"'), '"61226222"', 'a quote is hex like any character');
  assert.equal(searchTokenQuery('😀😀😀'), '"f09f9880f09f9880f09f9880"', 'code points, as the text is cut');
});

const FTS = 'rw_people_name_s';
let files = 0;

/** `people` (its `name` searched) synced into a fresh SQLite file, which `work` gets and which is removed after. */
async function withPeople(fields: Record<string, { type: 'string' }>, work: (people: ResourceDefinition, file: string) => Promise<void>): Promise<void> {
  const [people] = defineResources({ resources: { people: { fields, search: ['name'] } } });
  const file = `/tmp/rw-search-${process.pid}-${++files}.db`;
  try {
    const store = new SqliteStore(file);
    await store.sync([people!], { allowDestructive: false }).finally(() => store.close());
    await work(people!, file);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}

test('q= and icontains on a search field read the FTS5 index, not the table', () =>
  withPeople({ name: { type: 'string' }, note: { type: 'string' } }, async (people, file) => {
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
  }));

test('an index of FTS5 trigrams, from a database made before the 4-grams, is rebuilt at start and finds what it held', () =>
  withPeople({ name: { type: 'string' } }, async (people, file) => {
    // The index as it was made before: trigram tokens, over folded rows already in it.
    const db = new BetterSqlite3(file);
    registerSqliteFunctions(db);
    db.exec(`INSERT INTO people (name, _version, _gen, _created_at, _updated_at) VALUES ('Homer Simpson', 1, 'g', 'now', 'now')`);
    db.exec(`DROP TABLE "${FTS}"`);
    db.exec(`CREATE VIRTUAL TABLE "${FTS}" USING fts5(v, content='', contentless_delete=1, detail=none, tokenize='trigram case_sensitive 1')`);
    db.exec(`INSERT INTO "${FTS}" (rowid, v) SELECT rowid, rw_fold(name) FROM people`);
    db.exec(`DELETE FROM "${FTS}_p"`);
    db.close();

    const store = new SqliteStore(file);
    try {
      const report = await store.sync([people], { allowDestructive: false });
      assert.ok(report.applied.includes('create search index people.name'), report.applied.join('; '));
      const page = await store.list(people, { filters: [], sort: [], limit: 20, search: { fields: ['name'], value: 'SIMPS' } });
      assert.deepEqual(page.records.map((r) => r.data.name), ['Homer Simpson']);
    } finally {
      await store.close();
    }
    const check = new BetterSqlite3(file);
    assert.match((check.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(FTS) as { sql: string }).sql, /tokenize='ascii'/);
    check.close();
  }));

test('an import builds the search index once from the loaded rows: nothing left pending, every row found', () =>
  withPeople({ name: { type: 'string' } }, async (people, file) => {
    const store = new SqliteStore(file);
    try {
      const records = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, data: { name: `Person ${i + 1}` } }));
      await store.importRecords([{ resource: people, records }], { replace: false });
      const page = await store.list(people, { filters: [], sort: [], limit: 20, search: { fields: ['name'], value: 'son 999' } });
      assert.deepEqual(page.records.map((r) => r.id), [999]);
    } finally {
      await store.close();
    }
    const db = new BetterSqlite3(file);
    assert.equal((db.prepare(`SELECT count(*) AS n FROM "${FTS}_p"`).get() as { n: number }).n, 0, 'row by row, 1000 % 256 rows would still be pending');
    assert.equal(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'rw_people_name_s_%'").pluck().get(), 4, 'its triggers are back (the three of the table, the pending rows\' one)');
    db.close();
  }));
