import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { fold } from '../../core/fold.js';
import { defineResources, type ResourceDefinition } from '../../core/resource.js';
import { compileListQuery } from '../list-sql.js';
import type { ListQuery } from '../list-query.js';
import { decode, encode } from './sqlite-codec.js';
import { foldSql, registerSqliteFunctions } from './sqlite-functions.js';
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

test('the tokens of random text, ASCII (cut from one buffer) or not, are its 3-grams and 4-grams of hex', () => {
  const reference = (text: string) => {
    const hex = Array.from(text, (c) => Buffer.from(c, 'utf8').toString('hex'));
    const grams = (k: number) => hex.slice(0, Math.max(0, hex.length - k + 1)).map((_, i) => hex.slice(i, i + k).join(''));
    return [...grams(3), ...grams(4)].join(' ');
  };
  const chars = ['a', 'z', '0', ' ', '-', '"', '\u0000', '\u007f', 'é', '😀'];
  let seed = 11;
  const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let i = 0; i < 5000; i++) {
    const text = Array.from({ length: Math.floor(rnd() * 14) }, () => chars[Math.floor(rnd() * (i % 2 ? 8 : 10))]).join('');
    assert.equal(searchTokens(text), reference(text), JSON.stringify(text));
  }
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
const PENDING = 'rw_people_s_pending';
let files = 0;

/** `people` (its `name` searched) synced into a fresh SQLite file, which `work` gets and which is removed after. */
async function withPeople(fields: Record<string, { type: 'string' }>, work: (people: ResourceDefinition, file: string) => Promise<void>, search = ['name']): Promise<void> {
  const [people] = defineResources({ resources: { people: { fields, search } } });
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
    db.exec(`DELETE FROM "${PENDING}"`);
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
    assert.equal((db.prepare(`SELECT count(*) AS n FROM "${PENDING}"`).get() as { n: number }).n, 0, 'row by row, 1000 % 256 rows would still be pending');
    assert.deepEqual(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all(),
      [`${FTS}_au`, `${PENDING}_ad`, `${PENDING}_ai`, `${PENDING}_move`],
      'its triggers are back (the field\'s update, the record\'s insert and delete, the pending rows\' move)',
    );
    db.close();
  }));

test('the triggers\' folding in SQL equals rw_fold for every value: ASCII by lower(), the rest by core/fold.ts', () => {
  const db = new BetterSqlite3(':memory:');
  registerSqliteFunctions(db);
  const inSql = db.prepare(`SELECT ${foldSql('x')} AS v, typeof(${foldSql('x')}) AS t FROM (SELECT ? AS x)`);
  const byJs = db.prepare('SELECT rw_fold(?) AS v, typeof(rw_fold(?)) AS t');
  const chars = ['a', 'Z', 'M', '@', '[', '`', '{', '\0', '\x7f', '\x80', 'É', 'Σ', 'ς', 'İ', 'ß', 'Ω', '😀', ' ', '%'];
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const texts = Array.from({ length: 3000 }, () => Array.from({ length: Math.floor(rnd() * 8) }, () => chars[Math.floor(rnd() * chars.length)]).join(''));
  for (const value of [...texts, 'ABC\0É', '\0', '', null, 42, 2.5, Buffer.from('ABC')]) {
    const got = inSql.get(value) as { v: unknown; t: string };
    assert.deepEqual(got, byJs.get(value, value), JSON.stringify(value));
    if (typeof value === 'string') assert.equal(got.v, fold(value), JSON.stringify(value));
  }
  db.close();
});

test('a write queues one pending row for all its search fields, moved into their FTS5 tables at the 256th', () =>
  withPeople(
    { name: { type: 'string' }, nick: { type: 'string' } },
    async (people, file) => {
      const store = new SqliteStore(file);
      const db = new BetterSqlite3(file, { readonly: true });
      const count = (table: string) => db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
      const matches = (field: string, token: string) => db.prepare(`SELECT rowid FROM "rw_people_${field}_s" WHERE "rw_people_${field}_s" MATCH ?`).pluck().all(`"${token}"`) as number[];
      try {
        for (let i = 1; i <= 255; i++) await store.insert(people, { name: `Person ${i}`, nick: i % 2 ? null : `P${i}` });
        assert.equal(count(PENDING), 255, 'one row per write, whatever its number of search fields');
        assert.deepEqual(db.prepare(`SELECT name, nick FROM "${PENDING}" WHERE id IN (1, 2)`).all(), [{ name: 'person 1', nick: null }, { name: 'person 2', nick: 'p2' }]);
        assert.deepEqual(matches('name', '706572'), [], 'nothing in FTS5 yet');
        await store.insert(people, { name: 'Person 256', nick: 'P256' });
        assert.equal(count(PENDING), 0);
        assert.equal(matches('name', '706572').length, 256, 'every name moved into FTS5 (its 3-gram "per")');
        assert.equal(matches('nick', '7032').length, 0, 'a nick of two characters has no token');
        assert.deepEqual(matches('nick', '703235'), [250, 252, 254, 256], 'the nicks moved, the NULLs not');
        const page = await store.list(people, { filters: [], sort: [], limit: 5, search: { fields: ['name', 'nick'], value: 'SON 25' } });
        assert.deepEqual(page.records.map((r) => r.id), [25, 250, 251, 252, 253]);
      } finally {
        db.close();
        await store.close();
      }
    },
    ['name', 'nick'],
  ));

test('an index made with a pending table per field is taken over at start: its pending rows moved into FTS5, its triggers remade', () =>
  withPeople({ name: { type: 'string' } }, async (people, file) => {
    // The index as it was made before: the field's own pending table and its four triggers.
    const db = new BetterSqlite3(file);
    registerSqliteFunctions(db);
    db.exec(`INSERT INTO people (name, _version, _gen, _created_at, _updated_at) VALUES ('Homer Simpson', 1, 'g', 'now', 'now')`);
    db.exec(`INSERT INTO "${FTS}" (rowid, v) SELECT id, rw_search_tokens(name) FROM "${PENDING}"`);
    for (const t of [`${FTS}_au`, `${PENDING}_ai`, `${PENDING}_ad`, `${PENDING}_move`]) db.exec(`DROP TRIGGER "${t}"`);
    db.exec(`DROP TABLE "${PENDING}"`);
    db.exec(`CREATE TABLE "${FTS}_p" (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`);
    db.exec(`CREATE TRIGGER "${FTS}_pf" AFTER INSERT ON "${FTS}_p" WHEN (SELECT count(*) FROM "${FTS}_p") >= 256 BEGIN
  INSERT INTO "${FTS}" (rowid, v) SELECT id, rw_search_tokens(v) FROM "${FTS}_p"; DELETE FROM "${FTS}_p"; END`);
    db.exec(`CREATE TRIGGER "${FTS}_ai" AFTER INSERT ON people WHEN new.name IS NOT NULL BEGIN INSERT INTO "${FTS}_p" (id, v) VALUES (new.rowid, rw_fold(new.name)); END`);
    db.exec(`CREATE TRIGGER "${FTS}_ad" AFTER DELETE ON people WHEN old.name IS NOT NULL BEGIN DELETE FROM "${FTS}_p" WHERE id = old.rowid; DELETE FROM "${FTS}" WHERE rowid = old.rowid; END`);
    db.exec(`CREATE TRIGGER "${FTS}_au" AFTER UPDATE OF name ON people WHEN old.name IS NOT new.name BEGIN DELETE FROM "${FTS}_p" WHERE id = old.rowid;
  DELETE FROM "${FTS}" WHERE rowid = old.rowid; INSERT INTO "${FTS}_p" (id, v) SELECT new.rowid, rw_fold(new.name) WHERE new.name IS NOT NULL; END`);
    db.exec(`INSERT INTO people (name, _version, _gen, _created_at, _updated_at) VALUES ('Marge Simpson', 1, 'g', 'now', 'now')`);
    assert.equal(db.prepare(`SELECT count(*) FROM "${FTS}_p"`).pluck().get(), 1);
    db.close();

    const store = new SqliteStore(file);
    try {
      const report = await store.sync([people], { allowDestructive: false });
      assert.deepEqual(report.applied, [], 'the FTS5 table is kept, not rebuilt');
      await store.insert(people, { name: 'Bart Simpson' });
      const page = await store.list(people, { filters: [], sort: [], limit: 20, search: { fields: ['name'], value: 'SIMPS' } });
      assert.deepEqual(page.records.map((r) => r.data.name), ['Homer Simpson', 'Marge Simpson', 'Bart Simpson']);
    } finally {
      await store.close();
    }
    const check = new BetterSqlite3(file, { readonly: true });
    assert.deepEqual(check.prepare(`SELECT rowid FROM "${FTS}" WHERE "${FTS}" MATCH '"6d617267"'`).pluck().all(), [2], 'the pending row moved into FTS5 (its 4-gram "marg")');
    assert.equal(check.prepare("SELECT count(*) FROM sqlite_master WHERE name IN (?, ?, ?, ?)").pluck().get(`${FTS}_p`, `${FTS}_pf`, `${FTS}_ai`, `${FTS}_ad`), 0);
    assert.deepEqual(check.prepare(`SELECT id, name FROM "${PENDING}"`).all(), [{ id: 3, name: 'bart simpson' }], 'new writes queue in the resource\'s pending table');
    check.close();
  }));
