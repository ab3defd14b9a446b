import { sql } from 'kysely';
import type pg from 'pg';
import type { ResourceDefinition } from '../../core/resource.js';
import { ddlFor } from '../ddl.js';
import { SchemaSyncError } from '../errors.js';
import { indexName, planSchema, shapeOf, type SchemaStep, type StoredShape, describeStep } from '../schema-plan.js';
import type { SyncReport } from '../store.js';
import { pgBuilder, pgTypes } from './postgres-kysely.js';
import { LOCK, withSessionLock } from './postgres-locks.js';
import { PG_TEXT } from './postgres-codec.js';

/**
 * Restwell's own tables. `_rw_events.seq` comes from its own sequence so readers can take a
 * high-water mark from it (see postgres-events.ts); JSON documents are kept as text, as on SQLite.
 */
export const PG_SYSTEM_DDL = `
CREATE TABLE IF NOT EXISTS _rw_schema (resource text PRIMARY KEY, shape text NOT NULL);
CREATE SEQUENCE IF NOT EXISTS _rw_event_seq;
CREATE TABLE IF NOT EXISTS _rw_events (
  seq bigint PRIMARY KEY DEFAULT nextval('_rw_event_seq'), id text NOT NULL UNIQUE, type ${PG_TEXT} NOT NULL,
  resource text NOT NULL, record_id text, data text NOT NULL, created_at text NOT NULL, owner text);
ALTER TABLE _rw_events ADD COLUMN IF NOT EXISTS owner text;
ALTER SEQUENCE _rw_event_seq OWNED BY _rw_events.seq;
CREATE INDEX IF NOT EXISTS _rw_events_type ON _rw_events (type, seq);
CREATE TABLE IF NOT EXISTS _rw_idempotency (
  scope text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, state text NOT NULL,
  response text, expires_at ${PG_TEXT} NOT NULL, PRIMARY KEY (scope, key));
ALTER TABLE _rw_idempotency ADD COLUMN IF NOT EXISTS claim_id text, ADD COLUMN IF NOT EXISTS applied text;
CREATE TABLE IF NOT EXISTS _rw_documents (
  kind text NOT NULL, id ${PG_TEXT} NOT NULL, data text NOT NULL, expires_at ${PG_TEXT}, PRIMARY KEY (kind, id));
`;

/**
 * Brings the schema in line with the resources in one transaction (PostgreSQL DDL is
 * transactional), holding an advisory lock so nodes starting at once sync one after the other:
 * the second sees what the first stored and has nothing left to do.
 */
export async function syncPostgresSchema(pool: pg.Pool, schemaKey: number, resources: ResourceDefinition[], allowDestructive: boolean): Promise<SyncReport> {
  return withSessionLock(pool, LOCK.schema, schemaKey, async (client) => {
    const stored = new Map<string, StoredShape>(
      (await client.query<{ resource: string; shape: string }>('SELECT resource, shape FROM _rw_schema')).rows.map((r) => [r.resource, JSON.parse(r.shape)]),
    );
    const plan = planSchema(stored, resources, allowDestructive);
    if (plan.refused.length) throw new SchemaSyncError(plan.refused);
    const byName = new Map(resources.map((r) => [r.name, r]));
    const applied: string[] = [];
    await client.query('BEGIN');
    try {
      for (const step of createTablesFirst(plan.steps)) {
        for (const statement of statementsFor(step, byName)) {
          try {
            await client.query(statement);
          } catch (err) {
            throw new SchemaSyncError([`${describeStep(step)}: ${(err as Error).message}`], false);
          }
        }
        applied.push(describeStep(step));
      }
      for (const r of resources) {
        await client.query('INSERT INTO _rw_schema (resource, shape) VALUES ($1, $2) ON CONFLICT (resource) DO UPDATE SET shape = excluded.shape', [r.name, JSON.stringify(shapeOf(r))]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    return { applied, notes: plan.notes };
  });
}

/** The shared DDL, except that field indexes are spelled for PostgreSQL (see `indexSql`). */
function statementsFor(step: SchemaStep, byName: Map<string, ResourceDefinition>): string[] {
  const idTypeOf = (name: string) => byName.get(name)?.idType ?? 'integer';
  if (step.kind === 'create-index') return [indexSql(byName.get(step.resource), step.resource, step.field, step.unique)];
  if (step.kind !== 'create-table') return ddlFor(step, pgBuilder, pgTypes, idTypeOf);
  const r = step.resource;
  const [table] = ddlFor(step, pgBuilder, pgTypes, idTypeOf);
  const indexes = r.fields.flatMap((f) => [
    ...(f.unique ? [indexSql(r, r.name, f.name, true)] : []),
    ...(f.index ? [indexSql(r, r.name, f.name, false)] : []),
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
