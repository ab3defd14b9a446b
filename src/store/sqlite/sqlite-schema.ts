import type { Database } from 'better-sqlite3';
import type { ResourceDefinition } from '../../core/resource.js';
import { ddlFor } from '../ddl.js';
import { SchemaSyncError } from '../errors.js';
import { planSchema, shapeOf, type StoredShape, describeStep } from '../schema-plan.js';
import type { SyncReport } from '../store.js';
import { sqliteBuilder, sqliteTypes } from './sqlite-kysely.js';

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

/** Brings the SQLite schema in line with the resources, in one transaction. */
export function syncSqliteSchema(db: Database, resources: ResourceDefinition[], allowDestructive: boolean): SyncReport {
  const stored = new Map<string, StoredShape>(
    (db.prepare('SELECT resource, shape FROM _rw_schema').all() as Array<{ resource: string; shape: string }>).map((r) => [r.resource, JSON.parse(r.shape)]),
  );
  const plan = planSchema(stored, resources, allowDestructive);
  if (plan.refused.length) throw new SchemaSyncError(plan.refused);
  const idTypes = new Map(resources.map((r) => [r.name, r.idType]));
  const applied: string[] = [];
  db.transaction(() => {
    for (const step of plan.steps) {
      for (const statement of ddlFor(step, sqliteBuilder, sqliteTypes, (name) => idTypes.get(name) ?? 'integer')) {
        try {
          db.exec(statement);
        } catch (err) {
          throw new SchemaSyncError([`${describeStep(step)}: ${(err as Error).message}`], false);
        }
      }
      applied.push(describeStep(step));
    }
    const save = db.prepare('INSERT INTO _rw_schema (resource, shape) VALUES (?, ?) ON CONFLICT (resource) DO UPDATE SET shape = excluded.shape');
    for (const r of resources) save.run(r.name, JSON.stringify(shapeOf(r)));
  })();
  return { applied, notes: plan.notes };
}
