import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { ColumnTypes } from '../ddl.js';
import { PG_TEXT, pgColumnType } from './postgres-codec.js';

/** A Kysely instance that only builds PostgreSQL SQL; pg runs it on the pool. */
export const pgBuilder = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** PostgreSQL's spelling of Restwell's column types. */
export const pgTypes: ColumnTypes = {
  // "by default" so a PUT may create a record at a client-chosen id (the store then bumps the sequence).
  integerId: (c) => c.generatedByDefaultAsIdentity(),
  integerIdType: 'bigint',
  uuidIdType: PG_TEXT,
  text: PG_TEXT,
  bigint: 'bigint',
  field: (f, refIdType) => pgColumnType(f, refIdType),
};
