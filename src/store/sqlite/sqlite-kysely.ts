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
