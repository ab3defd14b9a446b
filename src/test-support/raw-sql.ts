import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { TestEngine } from './engines.js';

/**
 * Runs SQL straight against a test store's database, beside Restwell: on PostgreSQL in the URL's
 * schema (created if missing, so a test can lay out an old database before the store opens it).
 * Resolves the rows of a SELECT (of the last statement), else none.
 */
export async function rawSql(engine: Pick<TestEngine, 'name'>, url: string, query: string): Promise<any[]> {
  if (engine.name === 'sqlite') {
    const db = new BetterSqlite3(url);
    try {
      return /^\s*select/i.test(query) ? db.prepare(query).all() : (db.exec(query), []);
    } finally {
      db.close();
    }
  }
  const target = new URL(url);
  const schema = target.searchParams.get('schema')!;
  target.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path = "${schema}"`);
    const result = (await client.query(query)) as pg.QueryResult | pg.QueryResult[];
    return (Array.isArray(result) ? result.at(-1)! : result).rows ?? [];
  } finally {
    await client.end();
  }
}
