import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { Flow } from './flow.js';
import type { HitCounter } from './hit-counter.js';
import type { IdempotencyClaim, IdempotencyEntry } from './idempotency.js';
import type { Statements, WriteTransaction } from './statements.js';
import type { Decide, Mutation, SyncReport, WriteOptions } from './store.js';
import type { EventPartitions } from './retention/retention.js';
import type { StoreSize } from './store-size.js';

/** What a claim on an Idempotency-Key found: the key is now this request's, or what is stored under it. */
export type ClaimResult = { claimed: true } | { claimed: false; entry: IdempotencyEntry };

/**
 * What an engine provides for the shared store (sql-store.ts): how it runs flows, plus the few
 * things only it can do. Everything else is written once, above this.
 */
export interface Engine {
  /** Runs a read; each statement sees what is committed. */
  read<T>(flow: (s: Statements) => Flow<T>): Promise<T>;
  /** Runs writes that need no transaction (each statement stands alone); resolves once they are durable. */
  write<T>(flow: (s: Statements) => Flow<T>): Promise<T>;
  /**
   * Runs `flow` as one transaction: all of it is committed, durably, before this resolves, or none
   * of it. A write that lost a race to another node that running again resolves is run again, up to
   * `attempts` runs in all.
   */
  transaction<T>(flow: (tx: WriteTransaction) => Flow<T>, attempts?: number): Promise<T>;
  /**
   * The event position up to which every event is committed or never will be, so a reader paging
   * by position never skips one that commits later; undefined when positions commit in order.
   */
  eventHorizon(): Promise<number | undefined>;
  /**
   * Calls `onAppended` whenever another process sharing the database may have appended events,
   * from now until close. Absent where other processes cannot be heard (they are polled for).
   */
  watch?(onAppended: () => void): void;
  /**
   * A number that changes whenever a commit, by this process or any other sharing the database,
   * may have changed what a read sees; taking it must cost less than a read by id. Present only
   * where the engine can tell that cheaply (SQLite); where absent, records are not cached.
   */
  commitStamp?(): number;
  /**
   * Reads one record by id where the engine has a cheaper way than a flow of `getRecord` (PostgreSQL
   * batches the reads that arrive together). Like any read, it sees every commit acknowledged before it was called.
   */
  getRecord?(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined>;
  /**
   * A POST's write (mutate.ts insertRecord) where the engine can run it in fewer round trips than a
   * `transaction` of that flow, with the same outcome and errors (PostgreSQL: one statement).
   */
  insertRecord?(resource: ResourceDefinition, data: Record<string, unknown>, options: WriteOptions): Promise<StoredRecord>;
  /** A PUT, PATCH or DELETE (mutate.ts mutateRecord) likewise, deciding exactly as that flow does. */
  mutateRecord?(resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Promise<Mutation>;
  /** Claims an Idempotency-Key (taking over one whose lease ran out), or returns what is stored under it. */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<ClaimResult>;
  /** Creates or extends tables and indexes for the resources; refuses destructive changes unless allowed. */
  sync(resources: ResourceDefinition[], allowDestructive: boolean): Promise<SyncReport>;
  /** Runs a trivial query; rejects (StoreUnavailableError) when the database does not answer. */
  ping(): Promise<void>;
  /** Where the event log is partitioned: old events leave a whole partition at a time (see retention/). */
  readonly eventPartitions?: EventPartitions;
  /**
   * Where deleted rows' space is reused only once the table is vacuumed (PostgreSQL): makes it
   * reusable now, without blocking reads or writes, so a pruned table stops growing even where
   * autovacuum is off or behind. Absent where deleted space is reused at once (SQLite's free list).
   */
  reclaim?(table: string): Promise<void>;
  /** Measures the database's size from its catalog and file sizes, never by reading the data (see StoreSize). */
  size?(): Promise<StoreSize>;
  /** Where writes commit in batches: calls `listener` with each committed batch's size until the returned function is called. */
  onCommitBatch?(listener: (size: number) => void): () => void;
  /**
   * Rate-limit counters every node sharing the database shares; absent where the database is one
   * process's own (SQLite: its limits count in memory). Its failures are StoreUnavailableError.
   */
  hitCounter?: HitCounter;
  close(): Promise<void>;
}
