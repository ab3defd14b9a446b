import { DummyDriver, Kysely, type DatabaseIntrospector, type DialectAdapter, type QueryCompiler } from 'kysely';

/** A Kysely instance that only builds SQL in one dialect (it never connects): each engine runs the SQL with its own driver. */
export function queryBuilder(adapter: DialectAdapter, compiler: () => QueryCompiler, introspector: (db: Kysely<any>) => DatabaseIntrospector): Kysely<any> {
  return new Kysely<any>({
    dialect: { createAdapter: () => adapter, createDriver: () => new DummyDriver(), createIntrospector: introspector, createQueryCompiler: compiler },
  });
}
