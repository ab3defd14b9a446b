import type { SelectQueryBuilder, CompiledQuery } from 'kysely';
import type { ResourceDefinition } from '../../core/resource.js';
import { runNow } from '../flow.js';
import type { EventRow } from '../records.js';
import type { Row, RowWrite, WriteTransaction } from '../statements.js';
import { referencedConflict, uniqueConflict, uniqueHolder } from '../write-errors.js';
import { sqliteCode } from './sqlite-errors.js';
import { createSearchIndexes, dropSearchIndexes } from './sqlite-search-index.js';
import { appendEvent } from './sqlite-events.js';
import { SqliteStatements } from './sqlite-statements.js';

/**
 * The statements of a write job. Every job runs inside the group commit's transaction, which took
 * SQLite's write lock at BEGIN IMMEDIATE: nothing else writes until it commits, so rows need no
 * lock of their own. A broken constraint is explained at once, inside the job.
 */
export class SqliteTransaction extends SqliteStatements implements WriteTransaction {
  forUpdate<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q {
    return query;
  }

  skipLocked<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q {
    return query;
  }

  forKeyShare<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q {
    return query;
  }

  writeRow(write: RowWrite, query: CompiledQuery): Row[] {
    try {
      if (write.how !== 'delete') return this.rows(query);
      this.run(query);
      return [];
    } catch (err) {
      throw this.explain(write, err);
    }
  }

  /** AUTOINCREMENT never draws an id that was ever used. */
  reserveId(): void {}

  appendEvents(events: readonly EventRow[]): void {
    for (const event of events) appendEvent(this, event);
  }

  /** DELETE, referencing tables first: what references a deleted row is gone by then, so each foreign key check finds an empty table. */
  emptyTables(resources: ResourceDefinition[]): void {
    for (const r of [...resources].reverse()) this.run(this.sql.deleteFrom(r.name).compile());
  }

  /**
   * The resource's search indexes dropped before a bulk load and built after it from the loaded rows:
   * kept up to date row by row, an import left each FTS5 index in many segments (and its last rows
   * pending), which searches then read one by one; built once, it is one segment.
   */
  bulkLoadSearchIndexes(resource: ResourceDefinition, state: 'off' | 'on'): void {
    const statements = state === 'off' ? dropSearchIndexes(resource.name, resource.search) : createSearchIndexes(resource.name, resource.search);
    for (const s of statements) this.exec(s);
  }

  /** The domain error for a broken constraint; SQLite does not say which unique index, so each is asked. */
  private explain(write: RowWrite, err: unknown): unknown {
    const code = sqliteCode(err);
    const { resource, record } = write;
    if (write.how === 'delete') return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ? referencedConflict(resource, record.id!) : err;
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return err;
    for (const f of resource.fields.filter((f) => f.unique)) {
      const holder = runNow(uniqueHolder(this, resource, f, record.data[f.name], record.id));
      if (holder !== undefined) return uniqueConflict(resource, f.name, record.data[f.name], holder);
    }
    return uniqueConflict(resource, 'id', record.id);
  }
}
