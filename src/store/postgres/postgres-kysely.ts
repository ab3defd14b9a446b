import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { ColumnTypes } from '../ddl.js';
import { queryBuilder } from '../query-builder.js';
import { searchIndexName } from '../schema-plan.js';
import { trigramIndex } from './postgres-functions.js';
import { PG_TEXT, pgColumnType } from './postgres-codec.js';

/** Builds PostgreSQL SQL; pg runs it on the pool or a transaction's connection. */
export const pgBuilder = queryBuilder(new PostgresAdapter(), () => new PostgresQueryCompiler(), (db) => new PostgresIntrospector(db));

/** PostgreSQL's spelling of Restwell's column types. */
export const pgTypes: ColumnTypes = {
  // "by default" so a PUT may create a record at a client-chosen id (the store then bumps the sequence).
  integerId: (c) => c.generatedByDefaultAsIdentity(),
  integerIdType: 'bigint',
  textIdType: PG_TEXT,
  text: PG_TEXT,
  bigint: 'bigint',
  field: (f, refIdType) => pgColumnType(f, refIdType),
  searchIndex: {
    create: (table, field) => [trigramIndex(table, field, searchIndexName(table, field))],
    drop: (table, field) => [`DROP INDEX IF EXISTS "${searchIndexName(table, field)}"`],
  },
};
