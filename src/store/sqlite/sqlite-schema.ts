import type { Database } from 'better-sqlite3';
import type { ResourceDefinition } from '../../core/resource.js';
import { ddlFor } from '../ddl.js';
import { SchemaSyncError } from '../errors.js';
import { planSchema, shapeOf, type StoredShape, describeStep } from '../schema-plan.js';
import type { SyncReport } from '../store.js';
import { sqliteBuilder, sqliteTypes } from './sqlite-kysely.js';

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
