import type pg from 'pg';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { ClaimResult, Engine } from '../engine.js';
import { runLater, type Flow } from '../flow.js';
import type { IdempotencyClaim } from '../idempotency.js';
import { SqlStore } from '../sql-store.js';
import type { Statements, WriteTransaction } from '../statements.js';
import type { HitCounter } from '../hit-counter.js';
import { insertRecord, mutateRecord, planMutation } from '../mutate.js';
import { firstGeneration, rowToRecord } from '../records.js';
import type { StoreSize } from '../store-size.js';
import type { Decide, Mutation, SyncReport, WriteOptions } from '../store.js';
import { AppendAnnouncer } from './postgres-announcer.js';
import { ByIdReader } from './postgres-by-id.js';
import { pgCodec } from './postgres-codec.js';
import { describe, fullOr, unavailableOr } from './postgres-errors.js';
import { eventHighWaterMark } from './postgres-events.js';
import { PostgresHitCounter } from './postgres-hit-counter.js';
import { claimKey } from './postgres-idempotency.js';
import { eventsChannel, PostgresListener } from './postgres-listener.js';
import { createPool, parseTarget } from './postgres-pool.js';
import { syncPostgresSchema } from './postgres-schema.js';
import { postgresSize } from './postgres-size.js';
import { PostgresStatements } from './postgres-statements.js';
import { createPostgresTables } from './postgres-tables.js';
import { fitsOneStatement, SingleStatementWriter } from './postgres-single-write.js';
import { PostgresEventPartitions } from './postgres-partitions.js';
import { RetryWrite, Writer } from './postgres-transaction.js';

/**
 * The shared engine: a pg pool on one PostgreSQL database, which any number of nodes may use at
 * once. Every write is one transaction, resolved only after it commits: a record's write with its
 * event is one statement where it can be (postgres-single-write.ts; an update or delete applies only
 * to the row it was decided on), else a transaction that locks the row it decides on
 * (`SELECT … FOR UPDATE`), writes and appends its event. Constraint failures are mapped
 * from SQLSTATE and constraint names; losing the database maps to StoreUnavailableError (503).
 */
export class PostgresStore extends SqlStore {
  private constructor(engine: PostgresEngine) {
    super(engine);
  }

  /**
   * Connects to `postgres://…[?schema=name][&pool_max=n]`, creating the schema and Restwell's
   * own tables if needed. Throws StoreUnavailableError when the database cannot be reached.
   */
  static async connect(url: string): Promise<PostgresStore> {
    const target = parseTarget(url);
    const pool = createPool(target, (err) => process.emitWarning(`PostgreSQL dropped an idle connection (${describe(err)}); it will be replaced on demand`));
    try {
      // Until the schema exists search_path names nothing, which these first statements do not mind.
      const name = target.schema ?? (await pool.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      const schemaKey = (await pool.query<{ k: number }>('SELECT hashtext($1) AS k', [name])).rows[0].k;
      await createPostgresTables(pool, schemaKey, target.schema);
      return new PostgresStore(new PostgresEngine(pool, schemaKey, target.connectionString));
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw fullOr(unavailableOr(err));
    }
  }
}

class PostgresEngine implements Engine {
  private readonly writer: Writer;
  private readonly single: SingleStatementWriter;
  private readonly announcer: AppendAnnouncer;
  private readonly statements: PostgresStatements;
  private readonly byId: ByIdReader;
  private listener?: PostgresListener;
  /** Rate limits count in the database itself, so every node sharing it shares them. */
  readonly hitCounter: HitCounter;
  readonly eventPartitions: PostgresEventPartitions;

  constructor(private readonly pool: pg.Pool, private readonly schemaKey: number, private readonly connectionString: string) {
    this.eventPartitions = new PostgresEventPartitions(pool, schemaKey);
    this.announcer = new AppendAnnouncer(pool, eventsChannel(schemaKey));
    this.writer = new Writer(pool, schemaKey, this.announcer);
    this.single = new SingleStatementWriter(pool, schemaKey, this.announcer);
    this.statements = new PostgresStatements(pool);
    this.byId = new ByIdReader(pool);
    const counter = new PostgresHitCounter(pool);
    this.hitCounter = { where: counter.where, count: (hits) => this.guard(() => counter.count(hits)) };
  }

  read<T>(flow: (s: Statements) => Flow<T>): Promise<T> {
    return this.guard(() => runLater(flow(this.statements)));
  }

  getRecord(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined> {
    return this.guard(() => this.byId.get(resource, id));
  }

  /** On the pool: each statement commits on its own, durably, before it answers. */
  write<T>(flow: (s: Statements) => Flow<T>): Promise<T> {
    return this.read(flow);
  }

  async transaction<T>(flow: (tx: WriteTransaction) => Flow<T>, attempts = 1): Promise<T> {
    for (let i = 1; ; i++) {
      try {
        return await this.writer.transaction((tx) => runLater(flow(tx)));
      } catch (err) {
        if (!(err instanceof RetryWrite)) throw err;
        if (i >= attempts) throw err.final;
      }
    }
  }

  /**
   * A POST as one statement (postgres-single-write.ts): one round trip. A write that sets a
   * reference, or whose drawn id a PUT took meanwhile, runs the shared flow in a transaction.
   */
  async insertRecord(resource: ResourceDefinition, data: Record<string, unknown>, options: WriteOptions): Promise<StoredRecord> {
    // An auto id can meet a record a PUT created at a client-chosen id; drawing again moves past it.
    const locked = () => this.transaction((tx) => insertRecord(tx, resource, data, options), 3);
    if (!fitsOneStatement(resource, data)) return locked();
    const now = new Date().toISOString();
    const record = firstGeneration(resource, data, now, options.owner ?? null);
    const written = await this.guard(() => this.single.insert(resource, record, now, options.idempotency));
    return written === 'lost' ? locked() : rowToRecord(resource, written.row, pgCodec);
  }

  /**
   * A PUT, PATCH or DELETE decided on a committed read (batched with the reads by id) and written
   * as one statement that applies only if the row is still the one read: two round trips, the
   * first shared. When the row changed in between, or for what one statement does not do (a
   * reference set, a create at an integer id, keeping a record under an Idempotency-Key), the
   * shared flow decides again on the row locked, in a transaction.
   */
  async mutateRecord(resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Promise<Mutation> {
    // Two nodes creating the same new id: the loser's insert hits the primary key; run again, it sees the row.
    const locked = () => this.transaction((tx) => mutateRecord(tx, resource, id, decide, options), 2);
    const current = await this.getRecord(resource, id);
    const now = new Date().toISOString();
    const plan = planMutation(resource, id, current, decide, options, now);
    const completion = options.idempotency;
    let written;
    switch (plan.kind) {
      case 'unchanged':
        // Nothing to write, but a key to complete: the flow marks it with the row locked.
        return completion ? locked() : { outcome: 'unchanged', record: plan.record };
      case 'delete':
        written = await this.guard(() => this.single.delete(resource, plan.record, now, completion));
        return written === 'lost' ? locked() : { outcome: 'deleted', record: plan.record };
      case 'create':
        // An integer id chosen by the client moves the sequence past it (reserveId), in a transaction.
        if (resource.idType === 'integer' || !fitsOneStatement(resource, plan.record.data)) return locked();
        written = await this.guard(() => this.single.insert(resource, plan.record, now, completion));
        return written === 'lost' ? locked() : { outcome: 'created', record: rowToRecord(resource, written.row, pgCodec) };
      case 'update':
        if (!fitsOneStatement(resource, plan.record.data)) return locked();
        written = await this.guard(() => this.single.update(resource, plan.current, plan.record, now, completion));
        return written === 'lost' ? locked() : { outcome: 'updated', record: rowToRecord(resource, written.row, pgCodec) };
    }
  }

  eventHorizon(): Promise<number> {
    return this.guard(() => eventHighWaterMark(this.pool, this.schemaKey));
  }

  /** Hears other nodes' appends through LISTEN on one connection of its own, opened on first use. */
  watch(onAppended: () => void): void {
    if (this.listener) return;
    this.listener = new PostgresListener(this.connectionString, eventsChannel(this.schemaKey), onAppended);
    this.listener.start();
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<ClaimResult> {
    return this.guard(() => claimKey(this.pool, claim));
  }

  sync(resources: ResourceDefinition[], allowDestructive: boolean): Promise<SyncReport> {
    return this.guard(() => syncPostgresSchema(this.pool, this.schemaKey, resources, allowDestructive));
  }

  /** A plain VACUUM (no lock that blocks reads or writes): the rows retention deleted become space for new ones. */
  async reclaim(table: string): Promise<void> {
    await this.guard(() => this.pool.query(`VACUUM ${table}`));
  }

  /** One round trip on a pooled connection (a new one when none is idle: the probe covers connecting too). */
  async ping(): Promise<void> {
    await this.guard(() => this.pool.query('SELECT 1'));
  }

  /** From the catalog and file sizes, in one round trip (see postgresSize). */
  size(): Promise<StoreSize> {
    return this.guard(() => postgresSize(this.pool));
  }

  async close(): Promise<void> {
    this.announcer.close();
    await this.listener?.close();
    await this.pool.end();
  }

  /** Runs pool work; a lost database becomes StoreUnavailableError, anything else passes through. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw fullOr(unavailableOr(err));
    }
  }
}
