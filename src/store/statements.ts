import type { CompiledQuery, Kysely, SelectQueryBuilder } from 'kysely';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { Maybe } from './flow.js';
import type { Codec, EventRow } from './records.js';

/** A row as an engine's driver returns it. */
export type Row = Record<string, any>;

/**
 * How an engine runs statements. Shared flows build the SQL with the engine's own query builder
 * and map the rows; the engine only runs them.
 */
export interface Statements {
  /** Builds SQL in this engine's dialect (it never runs anything). */
  readonly sql: Kysely<any>;
  /** Converts field values to and from this engine's columns. */
  readonly codec: Codec;
  /** The rows a statement returns. */
  rows(query: CompiledQuery): Maybe<Row[]>;
  /** Runs a statement; resolves how many rows it changed. */
  run(query: CompiledQuery): Maybe<number>;
  /**
   * False when no stored key can equal these strings because the engine could never store them
   * (PostgreSQL text holds no NUL): a lookup by them finds nothing, without a query.
   */
  storable(...texts: string[]): boolean;
}

/** What a write of a record is about, so an engine can explain a constraint it breaks. */
export type RowWrite = { resource: ResourceDefinition; how: 'insert' | 'update' | 'delete'; record: { id?: RecordId; data: Record<string, unknown> } };

/** The statements of one write transaction, and the few steps of a write that differ between engines. */
export interface WriteTransaction extends Statements {
  /** `query` locking the rows it reads until commit, so a decision made on them stays true. */
  forUpdate<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q;
  /**
   * `query` locking the rows it reads against other such locks until commit (FOR NO KEY UPDATE,
   * which still lets rows that reference them be written), skipping rows another transaction holds
   * instead of waiting: how nodes share out work. `of` names the table whose rows to lock in a join.
   */
  skipLocked<Q extends SelectQueryBuilder<any, any, any>>(query: Q, of?: string): Q;
  /** `query` keeping the rows it reads from being deleted until commit. */
  forKeyShare<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q;
  /**
   * Runs a record's INSERT, UPDATE (both RETURNING the row) or DELETE. A unique value or reference
   * it breaks becomes the domain error (409 or 422), now or once the transaction has rolled back.
   */
  writeRow(write: RowWrite, query: CompiledQuery): Maybe<Row[]>;
  /** After a create at a client-chosen integer id: keeps later server-chosen ids from drawing it. */
  reserveId(resource: ResourceDefinition, id: number): Maybe<void>;
  /** Appends rows to the event log, positions drawn in this order (PostgreSQL: one statement for them all). */
  appendEvents(events: readonly EventRow[]): Maybe<void>;
  /**
   * Deletes every record of these resources (given referenced ones first, so the referencing ones
   * go first), for a bulk import that replaces them. No events are written.
   */
  emptyTables(resources: ResourceDefinition[]): Maybe<void>;
  /**
   * Drops a resource's search indexes before a bulk load into it (`off`) and builds them again after
   * (`on`), in the load's transaction: one index build over the loaded rows costs far less than
   * keeping a GIN index up to date row by row. Engines without search indexes do nothing.
   */
  bulkLoadSearchIndexes(resource: ResourceDefinition, state: 'off' | 'on'): Maybe<void>;
}

/** A record row as a StoredRecord-shaped write needs it (the id is absent until the engine draws one). */
export type RecordToWrite = Omit<StoredRecord, 'id'> & { id?: RecordId };
