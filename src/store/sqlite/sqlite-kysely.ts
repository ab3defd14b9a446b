import { SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { ColumnTypes } from '../ddl.js';
import { useSearchIndex } from '../list-sql.js';
import { queryBuilder } from '../query-builder.js';
import { sqliteColumnType } from './sqlite-codec.js';
import { dropSearchIndex, sqliteSearchIndexSql } from './sqlite-search-index.js';

/** Builds SQLite SQL; better-sqlite3 runs it with cached statements. */
export const sqliteBuilder = queryBuilder(new SqliteAdapter(), () => new SqliteQueryCompiler(), (db) => new SqliteIntrospector(db));
useSearchIndex(sqliteBuilder, sqliteSearchIndexSql);

/** SQLite's spelling of Restwell's column types. */
export const sqliteTypes: ColumnTypes = {
  integerId: (c) => c.autoIncrement(),
  integerIdType: 'integer',
  textIdType: 'text',
  text: 'text',
  bigint: 'integer',
  field: (f, refIdType) => sqliteColumnType(f, refIdType),
  // Created by reconcileSearchIndexes after the steps, with the pending table and triggers over every
  // search field of the resource; dropped by the step, before a drop of its column.
  searchIndex: { create: () => [], drop: dropSearchIndex },
};
