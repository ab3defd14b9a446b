import BetterSqlite3 from 'better-sqlite3';
import { loadConfig } from '../src/config/load.js';
import { defineResources } from '../src/core/resource.js';
import { randomBytes } from 'node:crypto';
import { newGen, recordColumns } from '../src/store/records.js';
import { decode, encode } from '../src/store/sqlite/sqlite-codec.js';
import { registerSqliteFunctions } from '../src/store/sqlite/sqlite-functions.js';
import { createSearchIndexes, dropSearchIndexes } from '../src/store/sqlite/sqlite-search-index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { characterName, characterNumber } from './data.js';

/**
 * Creates a Restwell SQLite database holding `count` characters, fast: the schema comes from
 * Restwell's own store (`sync`, exactly what `serve` runs at start-up), then the rows are bulk-inserted
 * in one transaction with the column values Restwell's own `recordColumns` produces.
 * Returns the seconds it took.
 */
export async function seedSqlite(configFile: string, dbPath: string, count: number): Promise<number> {
  const started = performance.now();
  const config = loadConfig({ file: configFile, overrides: { database: dbPath } });
  const resources = defineResources(config);
  const store = new SqliteStore(dbPath);
  await store.sync(resources, { allowDestructive: false });
  await store.close();

  const characters = resources.find((r) => r.name === 'characters');
  if (!characters) throw new Error(`${configFile} declares no characters resource`);
  const db = new BetterSqlite3(dbPath);
  registerSqliteFunctions(db);
  // One bulk load, not a served workload: skip the per-commit fsync; the file is checkpointed at the end.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  // Building an index once from sorted keys is far faster than a million random B-tree inserts, so the
  // table's own indexes are dropped and re-created from the DDL Restwell stored in sqlite_master.
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'characters' AND sql IS NOT NULL").all() as Array<{ name: string; sql: string }>;
  const now = new Date().toISOString();
  const sample = recordColumns(characters, { version: 1, gen: 'x', createdAt: now, updatedAt: now, owner: null, data: {} }, { encode, decode });
  const columns = Object.keys(sample);
  const insert = db.prepare(`INSERT INTO characters (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  // newGen() draws 6 random bytes per call, which alone costs seconds per million rows; the same
  // 6-byte base64url tags are cut from one large random buffer per batch instead.
  const genLength = newGen().length;
  let pool = '';
  let at = 0;
  const gen = () => {
    if (at + genLength > pool.length) [pool, at] = [randomBytes(6 * 8192).toString('base64url'), 0];
    at += genLength;
    return pool.slice(at - genLength, at);
  };
  db.transaction(() => {
    for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    // Search indexes too: filled in one pass at the end instead of row by row by their triggers.
    for (const s of dropSearchIndexes(characters.name, characters.search)) db.exec(s);
    for (let i = 1; i <= count; i++) {
      const row = recordColumns(
        characters,
        { version: 1, gen: gen(), createdAt: now, updatedAt: now, owner: null, data: { name: characterName(i), number: characterNumber(i) } },
        { encode, decode },
      );
      insert.run(...columns.map((c) => row[c]));
    }
    for (const index of indexes) db.exec(index.sql);
    for (const s of createSearchIndexes(characters.name, characters.search)) db.exec(s);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return (performance.now() - started) / 1000;
}
