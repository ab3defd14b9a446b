import assert from 'node:assert/strict';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { SqliteStatements } from './sqlite-statements.js';

test('rows are the objects better-sqlite3 itself returns, whatever the columns are called', () => {
  const db = new BetterSqlite3(':memory:');
  db.exec("CREATE TABLE t (id integer primary key, name text, n real, b blob); INSERT INTO t VALUES (1, 'a', 1.5, x'00ff'), (2, NULL, NULL, NULL)");
  const statements = new SqliteStatements(db);
  const queries = [
    'SELECT * FROM t ORDER BY id',
    'SELECT id, name AS id FROM t ORDER BY id', // a duplicate name: the later column wins
    'SELECT name AS "__proto__", "constructor" AS "x y" FROM (SELECT name, 1 AS "constructor" FROM t)',
    'SELECT count(*) FROM t WHERE id > ?',
  ];
  for (const sql of queries) {
    const params = sql.includes('?') ? [0] : [];
    const expected = db.prepare(sql).all(...params);
    // Twice: the first call prepares the statement, the second reuses it.
    for (let i = 0; i < 2; i++) {
      const rows = statements.rows(CompiledQuery.raw(sql, params));
      assert.deepEqual(rows, expected, sql);
      assert.deepEqual(rows.map((r) => Object.keys(r)), expected.map((r) => Object.keys(r as object)), sql);
    }
  }
  assert.equal(statements.run(CompiledQuery.raw('UPDATE t SET n = 2', [])), 2, 'writes still run on the same statements');
  db.close();
});
