import { sql } from 'kysely';
import type pg from 'pg';
import type { ResourceDefinition } from '../../core/resource.js';
import { ddlFor } from '../ddl.js';
import { runLater } from '../flow.js';
import { indexName, type SchemaStep } from '../schema-plan.js';
import { syncSchema } from '../schema-sync.js';
import type { SyncReport } from '../store.js';
import { pgBuilder, pgTypes } from './postgres-kysely.js';
import { LOCK, withSessionLock } from './postgres-locks.js';
import { PostgresStatements } from './postgres-statements.js';

/**
 * Brings the schema in line with the resources in one transaction (PostgreSQL DDL is
 * transactional), holding an advisory lock so nodes starting at once sync one after the other:
 * the second sees what the first stored and has nothing left to do.
 */
export async function syncPostgresSchema(pool: pg.Pool, schemaKey: number, resources: ResourceDefinition[], allowDestructive: boolean): Promise<SyncReport> {
  return withSessionLock(pool, LOCK.schema, schemaKey, async (client) => {
    await client.query('BEGIN');
    try {
      const report = await runLater(syncSchema(new PostgresStatements(client), resources, allowDestructive, postgresDdl(resources)));
      await client.query('COMMIT');
      return report;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}

/** The DDL of a sync's steps, referenced tables created first. */
function postgresDdl(resources: ResourceDefinition[]) {
  const byName = new Map(resources.map((r) => [r.name, r]));
  return (steps: SchemaStep[]) => createTablesFirst(steps).map((step) => ({ step, statements: statementsFor(step, byName) }));
}

/** The shared DDL, except that field indexes are spelled for PostgreSQL (see `indexSql`). */
function statementsFor(step: SchemaStep, byName: Map<string, ResourceDefinition>): string[] {
  const idTypeOf = (name: string) => byName.get(name)?.idType ?? 'integer';
  if (step.kind === 'create-index') return [indexSql(byName.get(step.resource), step.resource, step.field, step.unique)];
  if (step.kind !== 'create-table') return ddlFor(step, pgBuilder, pgTypes, idTypeOf);
  const r = step.resource;
  // Only the table from ddlFor: its indexes are built here instead, with NULLS FIRST (see indexSql).
  const [table] = ddlFor(step, pgBuilder, pgTypes, idTypeOf);
  const indexes = r.fields.flatMap((f) => [
    ...(f.unique ? [indexSql(r, r.name, f.name, true)] : []),
    ...(f.index ? [indexSql(r, r.name, f.name, false)] : []),
    ...(r.search.includes(f.name) ? pgTypes.searchIndex!.create(r.name, f.name) : []),
  ]);
  return [table, ...indexes];
}

/**
 * A field index with NULLS FIRST, the order lists ask for ascending (SQLite's NULL order), so
 * `ORDER BY x ASC NULLS FIRST` (and its reverse) walks the index. json has no btree operators,
 * so a json field is indexed by its text, which is also what SQLite compares.
 */
function indexSql(resource: ResourceDefinition | undefined, table: string, field: string, unique: boolean): string {
  const isJson = resource?.fieldsByName.get(field)?.type === 'json';
  const key = isJson ? sql`(${sql.ref(field)}::text) nulls first` : sql`${sql.ref(field)} nulls first`;
  const idx = pgBuilder.schema.createIndex(indexName(table, field, unique)).on(table).expression(key);
  return (unique ? idx.unique() : idx).compile().sql;
}

/**
 * PostgreSQL checks a foreign key's target when the table is created (SQLite does not), so new
 * tables are created referenced-first, after any table drops (an id type change drops and
 * re-creates) and before the column and index steps, which keep their order.
 */
function createTablesFirst(steps: SchemaStep[]): SchemaStep[] {
  const pending = new Map<string, Extract<SchemaStep, { kind: 'create-table' }>>();
  for (const s of steps) if (s.kind === 'create-table') pending.set(s.resource.name, s);
  const creates: SchemaStep[] = [];
  const visit = (name: string) => {
    const step = pending.get(name);
    if (!step) return;
    pending.delete(name);
    for (const f of step.resource.fields) if (f.type === 'reference' && f.to) visit(f.to);
    creates.push(step);
  };
  for (const name of [...pending.keys()]) visit(name);
  return [...steps.filter((s) => s.kind === 'drop-table'), ...creates, ...steps.filter((s) => s.kind !== 'drop-table' && s.kind !== 'create-table')];
}
