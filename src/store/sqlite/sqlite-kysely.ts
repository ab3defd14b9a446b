import type { Database } from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { ColumnTypes } from '../ddl.js';
import { sqliteColumnType } from './sqlite-codec.js';

/** A Kysely instance that only builds SQLite SQL; better-sqlite3 runs it with cached statements. */
export const sqliteBuilder = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/** SQLite's spelling of Restwell's column types. */
export const sqliteTypes: ColumnTypes = {
  integerId: (c) => c.autoIncrement(),
  integerIdType: 'integer',
  uuidIdType: 'text',
  text: 'text',
  bigint: 'integer',
  field: (f, refIdType) => sqliteColumnType(f, refIdType),
};

/** Restwell's own tables. */
export const SQLITE_SYSTEM_DDL = `
CREATE TABLE IF NOT EXISTS _rw_schema (resource TEXT PRIMARY KEY, shape TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _rw_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, resource TEXT NOT NULL,
  record_id TEXT, data TEXT NOT NULL, created_at TEXT NOT NULL, owner TEXT);
CREATE INDEX IF NOT EXISTS _rw_events_type ON _rw_events (type, seq);
CREATE TABLE IF NOT EXISTS _rw_idempotency (
  scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
  response TEXT, expires_at TEXT NOT NULL, claim_id TEXT, applied TEXT, PRIMARY KEY (scope, key));
CREATE INDEX IF NOT EXISTS _rw_idempotency_expiry ON _rw_idempotency (expires_at);
CREATE TABLE IF NOT EXISTS _rw_documents (
  kind TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, expires_at TEXT, PRIMARY KEY (kind, id));
`;

/**
 * Columns Restwell's own tables gained after their first release. Events gained `owner` (older
 * events keep NULL, so under an owner rule only admins see them); Idempotency-Keys gained the
 * claim's id and what the write they guard applied.
 */
const ADDED_COLUMNS: Array<[table: string, column: string, type: string]> = [
  ['_rw_events', 'owner', 'TEXT'],
  ['_rw_idempotency', 'claim_id', 'TEXT'],
  ['_rw_idempotency', 'applied', 'TEXT'],
];

/** Brings the system tables of a database made by an earlier version up to date. */
export function upgradeSqliteSystemTables(db: Database): void {
  db.transaction(() => {
    for (const [table, column, type] of ADDED_COLUMNS) {
      if (!db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
  }).immediate();
}
