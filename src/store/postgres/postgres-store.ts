import pg from 'pg';
import type { EventRecord } from '../../core/events.js';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { StoreUnavailableError } from '../errors.js';
import type { IdempotencyClaim, IdempotencyEntry } from '../idempotency.js';
import type { ListQuery, Page } from '../list-query.js';
import { buildListQuery, pageOf } from '../list-sql.js';
import { firstGeneration, rowToRecord, sameData } from '../records.js';
import type { Inbox } from '../inbox.js';
import type { Decide, Mutation, Store, SyncReport, WriteOptions } from '../store.js';
import { decode, encode } from './postgres-codec.js';
import { describe, unavailableOr } from './postgres-errors.js';
import * as events from './postgres-events.js';
import * as idempotency from './postgres-idempotency.js';
import * as documents from './postgres-documents.js';
import type { EventQuery, EventVisibility } from '../event-query.js';
import { pgBuilder } from './postgres-kysely.js';
import { LOCK, withSessionLock } from './postgres-locks.js';
import { PG_INBOX_DDL, PostgresInbox } from './postgres-inbox.js';
import { createPool, parseTarget } from './postgres-pool.js';
import { PG_SYSTEM_DDL, syncPostgresSchema } from './postgres-schema.js';
import { RetryWrite, Writer, type Transaction } from './postgres-transaction.js';

const codec = { encode, decode };

/**
 * The shared engine: a pg pool on one PostgreSQL database, which any number of nodes may use at
 * once. Every write is one transaction that locks the row it decides on (`SELECT … FOR UPDATE`),
 * writes and appends its event; it resolves only after COMMIT. Constraint failures are mapped
 * from SQLSTATE and constraint names; losing the database maps to StoreUnavailableError (503).
 */
export class PostgresStore implements Store {
  private readonly writer: Writer;
  readonly inbox: Inbox;

  private constructor(private readonly pool: pg.Pool, private readonly schemaKey: number) {
    this.writer = new Writer(pool, schemaKey);
    this.inbox = new PostgresInbox(pool, this.writer);
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
      await withSessionLock(pool, LOCK.schema, schemaKey, async (client) => {
        if (target.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"`);
        await client.query(PG_SYSTEM_DDL);
        await client.query(PG_INBOX_DDL);
      });
      return new PostgresStore(pool, schemaKey);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw unavailableOr(err);
    }
  }

  sync(resources: ResourceDefinition[], options: { allowDestructive: boolean }): Promise<SyncReport> {
    return this.guard(() => syncPostgresSchema(this.pool, this.schemaKey, resources, options.allowDestructive));
  }

  get(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined> {
    return this.guard(async () => {
      const { rows } = await this.pool.query(`SELECT * FROM "${resource.name}" WHERE id = $1`, [id]);
      return rows[0] ? rowToRecord(resource, rows[0], codec) : undefined;
    });
  }

  list(resource: ResourceDefinition, query: ListQuery): Promise<Page> {
    return this.guard(async () => {
      const { rows: rowsQuery, count } = buildListQuery(pgBuilder, resource, query, codec);
      const c = rowsQuery.compile();
      const { rows } = await this.pool.query(c.sql, c.parameters as unknown[]);
      let total: number | undefined;
      if (count) {
        const cc = count.compile();
        total = Number((await this.pool.query(cc.sql, cc.parameters as unknown[])).rows[0].n);
      }
      return pageOf(resource, rows, query, codec, total);
    });
  }

  insert(resource: ResourceDefinition, data: Record<string, unknown>, options: WriteOptions = {}): Promise<StoredRecord> {
    // An auto id can meet a record a PUT created at a client-chosen id; drawing again moves past it.
    return this.retrying(3, () =>
      this.writer.transaction(async (tx) => {
        const now = new Date().toISOString();
        const record = await tx.write(resource, 'insert', firstGeneration(resource, data, now, options.owner ?? null), now);
        await tx.markApplied(resource, { outcome: 'created', record }, options.idempotency);
        return record;
      }),
    );
  }

  mutate(resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions = {}): Promise<Mutation> {
    // Two nodes creating the same new id: the loser's insert hits the primary key; run again, it sees the row.
    return this.retrying(2, () =>
      this.writer.transaction(async (tx) => {
        const mutation = await this.decideAndWrite(tx, resource, id, decide, options);
        await tx.markApplied(resource, mutation, options.idempotency, id);
        return mutation;
      }),
    );
  }

  /** The body of a `mutate` transaction: locks the record, lets `decide` choose, writes that with its event. */
  private async decideAndWrite(tx: Transaction, resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Promise<Mutation> {
    const current = await tx.lockRow(resource, id);
    const decision = decide(current);
    const now = new Date().toISOString();
    if ('keep' in decision) return { outcome: 'unchanged', record: current };
    if ('delete' in decision) {
      if (!current) return { outcome: 'unchanged' };
      await tx.remove(resource, current, now);
      return { outcome: 'deleted', record: current };
    }
    if (!current) {
      const fresh = firstGeneration(resource, decision.put, now, options.owner ?? null, id);
      return { outcome: 'created', record: await tx.write(resource, 'insert', fresh, now) };
    }
    if (sameData(current.data, decision.put)) return { outcome: 'unchanged', record: current };
    const next = { ...current, version: current.version + 1, updatedAt: now, data: decision.put };
    return { outcome: 'updated', record: await tx.write(resource, 'update', next, now) };
  }

  listEvents(query: EventQuery): Promise<EventRecord[]> {
    return this.guard(() => events.listEvents(this.pool, this.schemaKey, query));
  }

  getEvent(id: string, visible?: EventVisibility): Promise<EventRecord | undefined> {
    return this.guard(() => events.getEvent(this.pool, id, visible));
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<{ claimed: true } | { claimed: false; entry: IdempotencyEntry }> {
    return this.guard(() => idempotency.claim(this.pool, claim));
  }

  completeIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'id'>, response: IdempotencyEntry['response'] | undefined, expiresAt?: string): Promise<void> {
    return this.guard(() => idempotency.complete(this.pool, claim, response, expiresAt));
  }

  putDocument(kind: string, id: string, data: Record<string, unknown>, expiresAt?: string): Promise<void> {
    return this.guard(() => documents.put(this.pool, kind, id, data, expiresAt));
  }

  getDocument(kind: string, id: string): Promise<Record<string, unknown> | undefined> {
    return this.guard(() => documents.get(this.pool, kind, id));
  }

  listDocuments(kind: string): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
    return this.guard(() => documents.list(this.pool, kind));
  }

  deleteDocument(kind: string, id: string): Promise<boolean> {
    return this.guard(() => documents.remove(this.pool, kind, id));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Runs pool work; a lost database becomes StoreUnavailableError, anything else passes through. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw unavailableOr(err);
    }
  }

  private async retrying<T>(attempts: number, work: () => Promise<T>): Promise<T> {
    for (let i = 1; ; i++) {
      try {
        return await work();
      } catch (err) {
        if (!(err instanceof RetryWrite)) throw err;
        if (i >= attempts) throw err.final;
      }
    }
  }
}

export { StoreUnavailableError };
