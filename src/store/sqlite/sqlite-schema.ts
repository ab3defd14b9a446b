import type { Database } from 'better-sqlite3';
import type { ResourceDefinition } from '../../core/resource.js';
import { ddlFor } from '../ddl.js';
import { runNow } from '../flow.js';
import type { SchemaStep } from '../schema-plan.js';
import { syncSchema, type SchemaStatements } from '../schema-sync.js';
import type { SyncReport } from '../store.js';
import { sqliteBuilder, sqliteTypes } from './sqlite-kysely.js';
import { reconcileSearchIndexes } from './sqlite-search-index.js';

/**
 * Brings the SQLite schema in line with the resources, in one transaction. It takes the write lock
 * as it begins (IMMEDIATE), so servers starting at once on one file sync one after the other, each
 * reading the shapes the one before stored (a deferred transaction that read them first could not
 * upgrade to write once another had committed). Search indexes are made last, in the same
 * transaction, with their pending table and triggers over all of a resource's search fields.
 */
export function syncSqliteSchema(db: Database, s: SchemaStatements, resources: ResourceDefinition[], allowDestructive: boolean): SyncReport {
  return db
    .transaction(() => {
      const report = runNow(syncSchema(s, resources, allowDestructive, sqliteDdl(resources)));
      return { ...report, applied: [...report.applied, ...reconcileSearchIndexes(db, resources)] };
    })
    .immediate();
}

/** The DDL of a sync's steps, in plan order (SQLite checks a reference's target only when writing). */
function sqliteDdl(resources: ResourceDefinition[]) {
  const idTypes = new Map(resources.map((r) => [r.name, r.idType]));
  return (steps: SchemaStep[]) => steps.map((step) => ({ step, statements: ddlFor(step, sqliteBuilder, sqliteTypes, (name) => idTypes.get(name) ?? 'integer') }));
}
